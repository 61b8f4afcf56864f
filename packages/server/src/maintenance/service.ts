import { randomBytes } from 'node:crypto';
import {
  ACTION_PARAMS,
  type ActionParams,
  type ActionResultView,
  AppError,
  busyCode,
  COMMAND_RULES,
  Codes,
  type CommandName,
  type CommandParamsInput,
  CommandState,
  type CommandView,
  compareVersions,
  type DeviceConfigInput,
  errorMessage,
  failureFromZod,
  isOfflineStatus,
  type MaintenanceAction,
  type MaintenanceView,
  ManagementMode,
  MODEL_UNSUPPORTED,
  modelInfo,
  RESTART_ACTIONS,
  RemoteManageState,
  redactSecrets,
  remoteOpenReplySchema,
  upgradeCheck,
} from '@beacon/protocol';
import { and, desc, eq, gt, inArray, isNull, ne } from 'drizzle-orm';
import { deviceCommands, devices, remoteSessions } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { type DeviceRow, selectDevices } from '../devices/row.ts';
import { publishEvents } from '../events/bus.ts';
import { insertRows } from '../gateway/batch.ts';
import {
  COMMAND_COLUMNS,
  type CommandActor,
  type CommandOutcome,
  type CommandScope,
} from '../gateway/commands.ts';
import { finalOutcomeOf } from '../gateway/outcomes.ts';
import { loadProjectAccess, requireWritable } from '../projects/access.ts';
import { withProjectWrite } from '../projects/write.ts';
import { shouldDisplaceRemoteSession } from '../sharing/rules.ts';
import { downloadUrl, findFirmware } from './firmware.ts';
import { closeDeviceRemoteSessions, closeRemoteSession, remoteSessionLapse } from './remote.ts';
import { deleteSchedule, findSchedule, saveSchedule, scheduleView } from './schedule.ts';

/**
 * Maintenance actions on one device or many (SPEC.md §1, rules of §4), for every client:
 * 1. the caller must be able to write the project: demo 5031, read-only 5032 (projects/access.ts);
 * 2. a serial not in the project refuses the whole request with 410, before any write;
 * 3. per device: the model lacks the capability 2; offline 36; local management mode 76 (for the
 *    cloud-only commands of COMMAND_RULES, and the schedule); every command while upgrading 71; restart, reset, upgrade and the CPE mode switch while restarting
 *    5046; upgrade 37 / 38;
 * 4. then the command goes through the gateway (one at a time per device, one recorded outcome).
 * A device refused by the server also gets a recorded command outcome (a `failed` command row with
 * the code), and every device's action leaves one audit row (invariant 2).
 */

export interface Caller {
  accountId: number;
  account: string;
  requestId?: string;
}

export interface RunOptions {
  /** Where devices reach this server (for the firmware download URL), e.g. http://host:port. */
  origin: string;
  /** Single form: the path's device (for copy-config, the source). */
  pathSn?: string;
}

const COMMAND_OF: Partial<Record<MaintenanceAction, CommandName>> = {
  reboot: 'reboot',
  reset: 'reset',
  upgrade: 'upgrade',
  password: 'set-password',
  locate: 'locate',
  'rate-limit': 'rate-limit',
  led: 'led',
  'poe-reboot': 'poe-reboot',
  'local-management': 'local-management',
  'cpe-mode': 'set-mode',
  'copy-config': 'apply-config',
  'reboot-schedule': 'reboot',
};

function commandFor(action: MaintenanceAction, params: Record<string, unknown>): CommandName {
  if (action === 'remote-management') {
    return params.enabled ? 'remote-management-open' : 'remote-management-close';
  }
  return COMMAND_OF[action]!;
}

export function parseParams<A extends MaintenanceAction>(action: A, raw: unknown): ActionParams<A> {
  const parsed = ACTION_PARAMS[action].safeParse(raw ?? {});
  if (!parsed.success) {
    const failure = failureFromZod(parsed.error);
    throw new AppError(failure.code, failure.message, failure.fields);
  }
  return parsed.data as ActionParams<A>;
}

/** Runs `action` on each of `sns` (in the project); one result per device, in the order given. */
export async function runAction(
  deps: Deps,
  caller: Caller,
  projectId: number,
  action: MaintenanceAction,
  sns: string[],
  rawParams: unknown,
  options: RunOptions,
): Promise<ActionResultView[]> {
  const { db } = deps.database;
  const access = requireWritable(await loadProjectAccess(db, caller, projectId, { now: deps.now() }));
  const params = parseParams(action, rawParams) as Record<string, unknown>;
  const unique = [...new Set(sns.map((s) => s.toUpperCase()))];
  const actor: CommandActor = { accountId: caller.accountId, account: caller.account };

  const rows = await loadDevices(deps, projectId, unique);
  // Serials not in the project are refused before anything is written (a bulk request naming
  // thousands of strangers writes nothing), with the single route's code.
  const missing = unique.filter((sn) => !rows.has(sn));
  if (missing.length) {
    const shown = missing.slice(0, 10).join(', ') + (missing.length > 10 ? ` (+${missing.length - 10})` : '');
    throw new AppError(Codes.DEVICE_DELETED, 'The device is not in this project', { sns: shown });
  }
  const results = new Map<string, ActionResultView>();
  const refuse = (sn: string, code: number, message?: string) =>
    results.set(sn, { sn, code, message: message ?? errorMessage(code), commandId: null, data: null });
  const scope = actionScope(deps, caller, projectId, action, params);

  // copy-config: the source's configuration, fetched once.
  let copy: { source: DeviceRow; document: DeviceConfigInput } | null = null;
  if (action === 'copy-config') {
    copy = await copySource(deps, projectId, params, options, actor);
  }
  const firmware =
    action === 'upgrade' && typeof params.firmwareId === 'number'
      ? await findFirmware(db, projectId, params.firmwareId)
      : null;
  if (action === 'upgrade' && typeof params.firmwareId === 'number' && !firmware) {
    throw new AppError(Codes.NOT_FOUND, 'The firmware file does not exist', {
      firmwareId: 'Upload the file again',
    });
  }

  const admitted: DeviceRow[] = [];
  for (const sn of unique) {
    const device = rows.get(sn)!;
    const code = refusal(
      device,
      action,
      params,
      firmware?.version ?? null,
      firmware?.model ?? null,
      copy?.source,
    );
    if (code) refuse(sn, code.code, code.message);
    else admitted.push(device);
  }

  // Server-side refusals are recorded like device outcomes (exactly one per command).
  const refusedRows = unique.filter((sn) => results.has(sn)).map((sn) => ({ sn, result: results.get(sn)! }));
  if (refusedRows.length) {
    await recordRefusals(deps, scope, commandFor(action, params), params, actor, refusedRows);
  }

  if (action === 'reboot-schedule') {
    for (const device of admitted) {
      results.set(
        device.sn,
        await applySchedule(deps, caller, scope, access.project.timeZone, device, params),
      );
    }
  } else if (!PER_DEVICE.has(action)) {
    // The same command for every device: claimed and recorded in batches by the gateway
    // (sendToMany), instead of one transaction per device for the claim and one per outcome.
    const outcomes = await deps.gateway.commands.sendToMany(
      admitted.map((d) => d.sn),
      commandFor(action, params),
      params as never,
      actor,
      { scope },
    );
    for (const outcome of outcomes) results.set(outcome.sn, resultOf(outcome));
  } else {
    const outcomes = await Promise.all(
      admitted.map((device) =>
        send(
          deps,
          action,
          device,
          params,
          actor,
          { ...options, ownerId: access.project.ownerId },
          firmware,
          copy,
          scope,
        ),
      ),
    );
    for (const r of outcomes) results.set(r.sn, r);
  }

  return unique.map((sn) => results.get(sn)!);
}

/**
 * The project write path for an action's records (invariant 2): each command record, schedule or
 * configuration revision commits in one transaction with the access check and its device's one
 * audit row, which says what was done (the command and its state then; the outcome is the
 * command's own record).
 */
function actionScope(
  deps: Deps,
  caller: Caller,
  projectId: number,
  action: MaintenanceAction,
  params: Record<string, unknown>,
): CommandScope {
  const kept = redactSecrets(params);
  return {
    projectId,
    transaction: (body) =>
      withProjectWrite(deps, caller, projectId, (write) =>
        body(write.tx, (records) => {
          for (const r of records) {
            write.audit({
              action,
              entity: 'device',
              entityId: r.sn,
              before: null,
              after: {
                params: kept,
                commandId: r.commandId,
                state: r.state,
                code: r.code,
                ...(r.revision !== undefined ? { revision: r.revision } : {}),
              },
            });
          }
        }),
      ),
  };
}

async function loadDevices(deps: Deps, projectId: number, sns: string[]): Promise<Map<string, DeviceRow>> {
  const map = new Map<string, DeviceRow>();
  for (let i = 0; i < sns.length; i += 1000) {
    const chunk = sns.slice(i, i + 1000);
    const rows = await selectDevices(deps.database.db).where(
      and(eq(devices.projectId, projectId), inArray(devices.sn, chunk)),
    );
    for (const r of rows) map.set(r.sn, r);
  }
  return map;
}

/** The server's own refusal of a device for an action, or null to send it. */
function refusal(
  device: DeviceRow,
  action: MaintenanceAction,
  params: Record<string, unknown>,
  imageVersion: string | null,
  imageModel: string | null,
  copySource: DeviceRow | undefined,
): { code: number; message?: string } | null {
  const info = modelInfo(device.model);
  const command = commandFor(action, params);
  const rule = COMMAND_RULES[command];
  const capabilities: readonly string[] = info?.capabilities ?? device.capabilities;
  if (rule.capability && !capabilities.includes(rule.capability)) {
    return { code: MODEL_UNSUPPORTED, message: `The ${device.model} cannot do this` };
  }
  // A schedule lives in the cloud: it can be set while the device is away (it fires with 36 then).
  if (action !== 'reboot-schedule' && isOfflineStatus(device.status)) return { code: Codes.DEVICE_OFFLINE };
  const local = device.managementMode === ManagementMode.LOCAL;
  if (local && (rule.cloudOnly || action === 'reboot-schedule' || action === 'copy-config')) {
    return { code: Codes.LOCAL_MANAGE };
  }
  const busy = busyCode(device.status, device.operation);
  // An upgrading device refuses every command (the gateway refuses them too: immediateCode); a
  // schedule lives in the cloud and can still be set. Restart actions are refused while restarting
  // (5046) or carrying out another command (2010) as well.
  if (busy === Codes.UPGRADING && action !== 'reboot-schedule') return { code: busy };
  if (busy && RESTART_ACTIONS.includes(action)) return { code: busy };
  if (action === 'upgrade') {
    const target = imageVersion ?? (params.version as string);
    if (imageModel && imageModel !== device.model) {
      return {
        code: MODEL_UNSUPPORTED,
        message: `The firmware file is for the ${imageModel}, not the ${device.model}`,
      };
    }
    if (!info) return { code: Codes.UNSUPPORTED_VERSION };
    const check = upgradeCheck(info, device.firmware ?? info.firmware[0], target);
    if (check) return { code: check };
  }
  if (action === 'poe-reboot' && info) {
    const ports = params.ports as number[];
    const bad = ports.find((id) => !info.ports.some((p) => p.id === id && p.poe));
    if (bad !== undefined) return { code: Codes.FORM_DATA, message: `Port ${bad} is not a PoE port` };
  }
  if (action === 'copy-config' && copySource) {
    if (device.sn === copySource.sn)
      return { code: Codes.FORM_DATA, message: 'Choose devices other than the source' };
    if (device.model !== copySource.model) {
      return {
        code: MODEL_UNSUPPORTED,
        message: `Only devices of model ${copySource.model} can receive its configuration`,
      };
    }
  }
  return null;
}

async function copySource(
  deps: Deps,
  projectId: number,
  params: Record<string, unknown>,
  options: RunOptions,
  actor: CommandActor,
): Promise<{ source: DeviceRow; document: DeviceConfigInput }> {
  const sourceSn = (options.pathSn ?? (params.source as string | undefined) ?? '').toUpperCase();
  if (!sourceSn)
    throw new AppError(Codes.FORM_DATA, 'Choose the device to copy from', { source: 'Required' });
  const [source] = await selectDevices(deps.database.db).where(
    and(eq(devices.projectId, projectId), eq(devices.sn, sourceSn)),
  );
  if (!source) throw new AppError(Codes.DEVICE_DELETED, 'The source device is not in this project');
  if (source.desiredRevision > 0 && source.desiredConfig) {
    return { source, document: source.desiredConfig as DeviceConfigInput };
  }
  // Nothing stored yet: ask the device for the configuration it runs.
  const outcome = await deps.gateway.commands.send(source.sn, 'get-config', {}, actor);
  if (outcome.code !== 0) throw new AppError(outcome.code as never, outcome.message ?? undefined);
  const document = (outcome.data as { document?: DeviceConfigInput } | null)?.document;
  if (!document) throw new AppError(Codes.NO_CONFIG_FILE);
  return { source, document };
}

async function send(
  deps: Deps,
  action: MaintenanceAction,
  device: DeviceRow,
  params: Record<string, unknown>,
  actor: CommandActor,
  options: RunOptions & { ownerId: number },
  firmware: { id: number; version: string; size: number; sha256: string } | null,
  copy: { source: DeviceRow; document: DeviceConfigInput } | null,
  scope: CommandScope,
): Promise<ActionResultView> {
  const sn = device.sn;
  let outcome: CommandOutcome | null;
  const commands = deps.gateway.commands;
  switch (action) {
    case 'upgrade': {
      const p: CommandParamsInput<'upgrade'> = firmware
        ? {
            version: firmware.version,
            url: downloadUrl(deps.config.factoryKey, options.origin, firmware.id, sn, deps.now()),
            size: firmware.size,
            sha256: firmware.sha256,
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
        // The device names the page the proxy will reach: checked before any session exists.
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
          deviceUrl: data.url,
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
const PER_DEVICE = new Set<MaintenanceAction>([
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

function resultOf(outcome: CommandOutcome): ActionResultView {
  return {
    sn: outcome.sn,
    code: outcome.code,
    message: outcome.code === 0 ? null : (outcome.message ?? errorMessage(outcome.code)),
    commandId: outcome.id,
    data: outcome.data ? stripSecrets(outcome.data) : null,
  };
}

export const remotePath = (token: string) => `/api/v1/remote/${token}/`;

const REMOTE_BUSY = 'Remote management of this device is in use by another account';

/**
 * Who stands in the way of `actor` on the device's remote management (SPEC.md §6), the open
 * sessions of other accounts considered:
 * - a holder who no longer has the right to it (no read-write access to the session's project any
 *   more, or the device left that project) does not count: their session is closed now;
 * - 'busy' when a remaining holder may not be displaced by the caller (shouldDisplaceRemoteSession:
 *   only the owner displaces, and only a service person — a read-write member);
 * - 'displace' when every remaining holder gives way to the caller, 'free' when there is none
 *   (nobody holds it, or only the caller does).
 */
async function remoteHolder(
  deps: Deps,
  device: DeviceRow,
  actor: CommandActor,
  ownerId: number,
): Promise<'free' | 'displace' | 'busy'> {
  const { db } = deps.database;
  const now = deps.now();
  const sessions = await db
    .select()
    .from(remoteSessions)
    .where(
      and(
        eq(remoteSessions.sn, device.sn),
        isNull(remoteSessions.closedAt),
        gt(remoteSessions.expiresAt, now),
        ne(remoteSessions.accountId, actor.accountId!),
      ),
    )
    .orderBy(desc(remoteSessions.createdAt));
  const visitor = { accountId: actor.accountId!, isOwner: actor.accountId === ownerId };
  let holder: 'free' | 'displace' | 'busy' = 'free';
  for (const session of sessions) {
    // Where the holder's rights lapsed, the session is over whoever asks (routes.ts checks the same
    // on each proxied request); it blocks nobody.
    if (session.projectId !== device.projectId || (await remoteSessionLapse(db, session, now))) {
      await closeRemoteSession(db, session.token, now);
      continue;
    }
    const displaced = shouldDisplaceRemoteSession(
      { accountId: session.accountId, isOwner: session.accountId === ownerId },
      visitor,
    );
    if (!displaced) holder = 'busy';
    else if (holder === 'free') holder = 'displace';
  }
  return holder;
}

function stripSecrets(data: Record<string, unknown>): Record<string, unknown> {
  const { token: _t, url: _u, ...rest } = data;
  return rest;
}

async function applySchedule(
  deps: Deps,
  caller: Caller,
  scope: CommandScope,
  timeZone: string,
  device: DeviceRow,
  params: Record<string, unknown>,
): Promise<ActionResultView> {
  const now = deps.now();
  const schedule = await scope.transaction(async (tx, recorded) => {
    recorded([{ sn: device.sn, commandId: null, state: null, code: 0 }]);
    if (!params.enabled) {
      await deleteSchedule(tx, device.sn);
      return null;
    }
    const { after } = await saveSchedule(
      tx,
      {
        sn: device.sn,
        projectId: device.projectId!,
        days: params.days as number[],
        time: params.time as string,
        timeZone,
        accountId: caller.accountId,
      },
      now,
    );
    return after;
  });
  return {
    sn: device.sn,
    code: 0,
    message: null,
    commandId: null,
    data: schedule ? { schedule: scheduleView(schedule) } : { schedule: null },
  };
}

/** Server-side refusals, recorded like device outcomes (one failed command each) with their audit rows. */
async function recordRefusals(
  deps: Deps,
  scope: CommandScope,
  name: CommandName,
  params: Record<string, unknown>,
  actor: CommandActor,
  refused: { sn: string; result: ActionResultView }[],
): Promise<void> {
  const projectId = scope.projectId!;
  const stored = redactSecrets(params);
  for (let i = 0; i < refused.length; i += 500) {
    await scope.transaction(async (tx, recorded) => {
      const now = deps.now();
      const values = refused.slice(i, i + 500).map(({ sn, result }) => {
        const id = `srv-${randomBytes(12).toString('hex')}`;
        result.commandId = id;
        return {
          id,
          sn,
          projectId,
          name,
          params: stored,
          state: CommandState.FAILED,
          code: result.code,
          message: result.message,
          data: null,
          accountId: actor.accountId,
          accountName: actor.account,
          createdAt: now,
          expiresAt: now,
          finishedAt: now,
        };
      });
      await insertRows(tx, deviceCommands, COMMAND_COLUMNS, values);
      await publishEvents(
        tx,
        values.map((v) => ({
          type: 'command' as const,
          projectId,
          sn: v.sn,
          id: v.id,
          name,
          state: CommandState.FAILED,
          code: v.code,
          message: v.message,
          at: now.toISOString(),
        })),
      );
      recorded(values.map((v) => ({ sn: v.sn, commandId: v.id, state: v.state, code: v.code })));
    });
  }
}

// ── the maintenance view ─────────────────────────────────────────────────────

export async function maintenanceView(
  deps: Deps,
  caller: Caller,
  projectId: number,
  sn: string,
): Promise<MaintenanceView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const [device] = await selectDevices(db).where(
    and(eq(devices.projectId, projectId), eq(devices.sn, sn.toUpperCase())),
  );
  if (!device) throw new AppError(Codes.DEVICE_DELETED, 'The device is not in this project');
  const info = modelInfo(device.model);
  const current = device.firmware;
  const available = info
    ? info.firmware.filter((v) => current === null || compareVersions(v, current) > 0)
    : [];
  const schedule = await findSchedule(db, device.sn);
  const now = deps.now();
  const [session] = await db
    .select()
    .from(remoteSessions)
    .where(
      and(
        eq(remoteSessions.sn, device.sn),
        eq(remoteSessions.accountId, caller.accountId),
        isNull(remoteSessions.closedAt),
        gt(remoteSessions.expiresAt, now),
      ),
    )
    .orderBy(desc(remoteSessions.createdAt))
    .limit(1);
  const reported = (device.remote as { state?: string } | null)?.state ?? RemoteManageState.CLOSED;
  const state = (
    [
      RemoteManageState.CLOSED,
      RemoteManageState.OBTAINING_URL,
      RemoteManageState.OPEN,
      RemoteManageState.FAILED,
    ] as string[]
  ).includes(reported)
    ? (reported as MaintenanceView['remote']['state'])
    : RemoteManageState.CLOSED;
  const open = state === RemoteManageState.OPEN && session;
  const commands = await db
    .select()
    .from(deviceCommands)
    .where(eq(deviceCommands.sn, device.sn))
    .orderBy(desc(deviceCommands.createdAt))
    .limit(20);
  return {
    sn: device.sn,
    schedule: schedule ? scheduleView(schedule) : null,
    firmware: { current, latest: info ? info.firmware[info.firmware.length - 1] : null, available },
    remote: {
      state,
      url: open ? remotePath(session.token) : null,
      expiresAt: open ? session.expiresAt.toISOString() : null,
    },
    commands: commands.map(
      (c): CommandView => ({
        id: c.id,
        sn: c.sn,
        name: c.name,
        state: c.state as CommandView['state'],
        code: c.code,
        message: c.message,
        data: c.data ? stripSecrets(c.data as Record<string, unknown>) : null,
        account: c.accountName,
        createdAt: c.createdAt.toISOString(),
        finishedAt: c.finishedAt?.toISOString() ?? null,
        final: finalOutcomeOf(c),
      }),
    ),
  };
}
