import { randomBytes } from 'node:crypto';
import {
  type ActionResultView,
  Codes,
  type CommandParamsInput,
  commandFor,
  type DeviceConfigInput,
  errorMessage,
  type MaintenanceAction,
  RemoteManageState,
  remoteOpenReplySchema,
  signFirmware,
} from '@beacon/protocol';
import { remoteSessions } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import type { DeviceRow } from '../devices/row.ts';
import type { CommandActor, CommandOutcome, CommandScope } from '../gateway/commands.ts';
import { downloadUrl, findImageOf } from './firmware.ts';
import { recordRefusals } from './refusals.ts';
import { closeDeviceRemoteSessions } from './remote.ts';
import { REMOTE_BUSY, remoteHolder, remotePath, stripSecrets } from './remote-holder.ts';
import type { RunOptions } from './service.ts';

// One device's maintenance command where it differs per device (maintenance/service.ts runAction).

export async function send(
  deps: Deps,
  action: MaintenanceAction,
  device: DeviceRow,
  params: Record<string, unknown>,
  actor: CommandActor,
  options: RunOptions & { ownerId: number },
  chosen: { id: number; model: string; version: string; size: number; sha256: string } | null,
  copy: { source: DeviceRow; document: DeviceConfigInput } | null,
  scope: CommandScope,
): Promise<ActionResultView> {
  const sn = device.sn;
  let outcome: CommandOutcome | null;
  const commands = deps.gateway.commands;
  switch (action) {
    case 'upgrade': {
      // A catalogue version that the project has an image of goes as that image: the device then
      // checks what it flashes (docs/decisions/0061).
      const firmware =
        chosen ??
        (await findImageOf(deps.database.db, device.projectId!, device.model, params.version as string));
      const p: CommandParamsInput<'upgrade'> = firmware
        ? {
            version: firmware.version,
            url: downloadUrl(deps.config.factoryKey, options.origin, firmware.id, sn, deps.now()),
            size: firmware.size,
            sha256: firmware.sha256,
            signature: await signFirmware(deps.config.firmwareKey, firmware),
          }
        : { version: params.version as string };
      outcome = await commands.send(sn, 'upgrade', p, actor, { scope });
      break;
    }
    case 'password':
    case 'led': {
      // Settings the device keeps: a new revision of its configuration (the password sealed at
      // rest), based on the revision read with the device, pushed like any other.
      const base = await baseDocument(deps, device, actor);
      if ('code' in base) return base;
      const document =
        action === 'password'
          ? { ...base.document, admin: { password: params.password as string } }
          : { ...base.document, led: params.on as boolean };
      const r = await commands.setDesiredConfig(sn, document as DeviceConfigInput, actor, {
        scope,
        expectedRevision: device.desiredRevision,
        reason: action === 'password' ? 'Device password changed' : `LEDs ${params.on ? 'on' : 'off'}`,
      });
      outcome = r.outcome;
      if (!outcome) return { sn, code: 0, message: null, commandId: null, data: { revision: r.revision } };
      break;
    }
    case 'copy-config': {
      // Keep the receiver's own name: only the settings are copied.
      const document = { ...(copy!.document as Record<string, unknown>) } as DeviceConfigInput;
      const ownName = (device.desiredConfig as { name?: string } | null)?.name ?? device.name;
      if (ownName) (document as { name?: string }).name = ownName;
      else delete (document as { name?: string }).name;
      // Nor the source's administrator password: the receiver keeps its own (sealed) one.
      const ownAdmin = (device.desiredConfig as { admin?: unknown } | null)?.admin;
      if (ownAdmin) (document as { admin?: unknown }).admin = ownAdmin;
      else delete (document as { admin?: unknown }).admin;
      // Nor a switch's own address (two switches on one static IP would clash): the receiver
      // keeps its IP settings, DHCP when it has none (docs/decisions/0039).
      const copied = (document as { switch?: Record<string, unknown> }).switch;
      if (copied) {
        const ownIp = (device.desiredConfig as { switch?: { ip?: unknown } } | null)?.switch?.ip;
        (document as { switch?: Record<string, unknown> }).switch = {
          ...copied,
          ip: ownIp ?? { mode: 'dhcp', ip: '', mask: '', gateway: '', dns: [] },
        };
      }
      const r = await commands.setDesiredConfig(sn, document, actor, { scope });
      outcome = r.outcome;
      if (!outcome) return { sn, code: 0, message: null, commandId: null, data: { revision: r.revision } };
      break;
    }
    case 'remote-management': {
      // Closing, like opening, is refused while someone the caller may not displace holds it.
      const holder = await remoteHolder(deps, device, actor, options.ownerId);
      if (holder === 'busy') {
        const refused: ActionResultView = {
          sn,
          code: Codes.REMOTE_FAILED,
          message: REMOTE_BUSY,
          commandId: null,
          data: null,
        };
        await recordRefusals(deps, scope, commandFor(action, params), params, actor, [
          { sn, result: refused },
        ]);
        return refused;
      }
      if (!params.enabled) {
        outcome = await commands.send(sn, 'remote-management-close', {}, actor, { scope });
        // The caller's own session, and those of holders it displaced or who lost the right.
        await closeDeviceRemoteSessions(deps.database.db, sn, deps.now());
        break;
      }
      if (holder === 'displace') {
        // The holder's address stops working at once; the device closes its page before it reopens.
        await closeDeviceRemoteSessions(deps.database.db, sn, deps.now());
        await commands.send(sn, 'remote-management-close', {}, actor);
      }
      outcome = await commands.send(
        sn,
        'remote-management-open',
        { ttlSeconds: params.ttlSeconds as number },
        actor,
        { scope },
      );
      if (outcome.code === 0) {
        // The device gives its page's token and path (a URL is not used: the page is reached over
        // the device's own link, docs/decisions/0060); checked before any session exists.
        const reply = remoteOpenReplySchema.safeParse(outcome.data);
        if (!reply.success) {
          return {
            sn,
            code: Codes.REMOTE_URL_FAILED,
            message: errorMessage(Codes.REMOTE_URL_FAILED),
            commandId: outcome.id,
            data: null,
          };
        }
        const data = reply.data;
        const token = randomBytes(24).toString('base64url');
        const expiresAt = new Date(
          data.expiresAt ?? deps.now().getTime() + (params.ttlSeconds as number) * 1000,
        );
        await deps.database.db.insert(remoteSessions).values({
          token,
          sn,
          projectId: device.projectId!,
          accountId: actor.accountId!,
          pagePath: data.path,
          deviceToken: data.token,
          expiresAt,
          createdAt: deps.now(),
        });
        return {
          sn,
          code: 0,
          message: null,
          commandId: outcome.id,
          data: { state: RemoteManageState.OPEN, url: remotePath(token), expiresAt: expiresAt.toISOString() },
        };
      }
      break;
    }
    default: {
      outcome = await commands.send(sn, commandFor(action, params), params as never, actor, { scope });
    }
  }
  return resultOf(outcome);
}

/** Actions whose command differs per device (a download URL, a document, a remote session). */
export const PER_DEVICE = new Set<MaintenanceAction>([
  'upgrade',
  'copy-config',
  'remote-management',
  'password',
  'led',
]);

/**
 * The document a settings change starts from: the device's desired configuration (secrets opened),
 * or — before any revision was saved — what the device runs (get-config), so a first revision does
 * not drop the settings the device already has.
 */
async function baseDocument(
  deps: Deps,
  device: DeviceRow,
  actor: CommandActor,
): Promise<{ document: Record<string, unknown> } | ActionResultView> {
  if (device.desiredRevision > 0 && device.desiredConfig) {
    return {
      document: deps.gateway.commands.secrets.openDocument(device.desiredConfig) as Record<string, unknown>,
    };
  }
  const outcome = await deps.gateway.commands.send(device.sn, 'get-config', {}, actor);
  if (outcome.code !== 0) return resultOf(outcome);
  const document = (outcome.data as { document?: Record<string, unknown> } | null)?.document;
  return { document: document ?? {} };
}

export function resultOf(outcome: CommandOutcome): ActionResultView {
  return {
    sn: outcome.sn,
    code: outcome.code,
    message: outcome.code === 0 ? null : (outcome.message ?? errorMessage(outcome.code)),
    commandId: outcome.id,
    data: outcome.data ? stripSecrets(outcome.data) : null,
  };
}
