import {
  ACTION_PARAMS,
  type ActionParams,
  type ActionResultView,
  AppError,
  actionRefusal,
  Codes,
  commandFor,
  type DeviceConfigInput,
  errorMessage,
  type MaintenanceAction,
  parseOrThrow,
  redactSecrets,
} from '@beacon/protocol';
import { and, eq, inArray } from 'drizzle-orm';
import type { Caller } from '../auth/principal.ts';
import { devices } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { type DeviceRow, selectDevices } from '../devices/row.ts';
import type { CommandActor, CommandScope } from '../gateway/commands.ts';
import { loadProjectAccess, requireWritable } from '../projects/access.ts';
import { withProjectWrite } from '../projects/write.ts';
import { findFirmware } from './firmware.ts';
import { recordRefusals } from './refusals.ts';
import { deleteSchedule, saveSchedule, scheduleView } from './schedule.ts';
import { PER_DEVICE, resultOf, send } from './send.ts';

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

export interface RunOptions {
  /** Where devices reach this server (for the firmware download URL), e.g. http://host:port. */
  origin: string;
  /** Single form: the path's device (for copy-config, the source). */
  pathSn?: string;
}

export function parseParams<A extends MaintenanceAction>(action: A, raw: unknown): ActionParams<A> {
  return parseOrThrow(ACTION_PARAMS[action], raw ?? {}) as ActionParams<A>;
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
    const code = actionRefusal(
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
