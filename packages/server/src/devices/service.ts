import {
  AddDeviceBody,
  AppError,
  Codes,
  type CommandView,
  DeviceConfigState,
  type DeviceDetailView,
  DeviceListQuery,
  DeviceType,
  type DeviceView,
  echoPrefix,
  type ImportResultView,
  ImportRowResult,
  type ImportRowView,
  modelInfo,
  NetMode,
  type PageQuery,
  parseOrThrow,
  type RemoveDeviceQuery,
  UpdateDeviceBody,
  validateDeviceName,
  validateRemark,
  validateSn,
} from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { recordAudit } from '../audit/audit.ts';
import type { Caller } from '../auth/principal.ts';
import type { DbOrTx } from '../db/client.ts';
import { deviceState, devices } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { publishEvent } from '../events/bus.ts';
import { closeDeviceRemoteSessions } from '../maintenance/remote.ts';
import { compileForJoined } from '../network/service.ts';
import { loadProjectAccess, type ProjectRow, requireWritable } from '../projects/access.ts';
import { compileWifiForJoined } from '../wifi/service.ts';
import { deviceAuditFields, leaveProject } from './leave-project.ts';
import * as repo from './repository.ts';
import type { ImportRow } from './spreadsheet.ts';
import { type DeviceRow, toCommandView, toDeviceDetailView, toDeviceView } from './views.ts';

/**
 * The device inventory of a project (SPEC.md §1 "adding devices by serial number or by batch import",
 * §3 Device). Every call goes through the project gate (projects/access.ts); writes lock the project
 * row so the per-project rules (93, 5008) hold under concurrent adds, and leave one audit row.
 *
 * Which devices can be added:
 * - a device that has connected to Beacon at least once (powered on, seen) and is not bound: by SN;
 * - a device that never connected, when its catalogue model is given too: it is pre-provisioned
 *   (status offline until it connects; its hello then fills in what it really is);
 * - a device bound to any project (this one included) is refused with 5005.
 * Rules: a MESH project takes only cable-free (mesh) devices and a WLAN project none (93); at most one
 * gateway (type router) and one cable-free router (the primary mesh node) per project (5008).
 */

type Paged<T> = { items: T[]; total: number; page: number; pageSize: number };
type ServiceDeps = Pick<Deps, 'database' | 'now'>;
/** Adding a device also queues the project's network for it (decision 0042). */
type JoinDeps = Pick<Deps, 'database' | 'now' | 'gateway'>;

const ENTITY = 'device';

export const normaliseSn = (sn: string): string => sn.trim().toUpperCase();

interface BindInput {
  sn: string;
  model?: string;
  name?: string;
  remark?: string;
}

const unite = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])];

/** SPEC.md: cable-free and traditional WLAN devices cannot be mixed (93). */
export function checkNetMode(project: ProjectRow, type: string): void {
  const mesh = type === DeviceType.MESH;
  if (project.netMode === NetMode.MESH && !mesh) {
    throw new AppError(Codes.MESH_WLAN_CONFLICT, 'A cable-free (mesh) project takes only cable-free devices');
  }
  if (project.netMode !== NetMode.MESH && mesh) {
    throw new AppError(
      Codes.MESH_WLAN_CONFLICT,
      'A cable-free device cannot join a traditional WLAN project',
    );
  }
}

type GatewayCandidate = { sn: string; type: string; meshRole: string | null; deviceMode: number | null };

const isMeshRouter = (device: GatewayCandidate) =>
  device.type === DeviceType.MESH && (device.meshRole === 'primary' || device.deviceMode === 0);

/** The device would take its project's one gateway or one cable-free router place (5008). */
export const takesGatewayPlace = (device: GatewayCandidate) =>
  device.type === DeviceType.ROUTER || isMeshRouter(device);

/** SPEC.md: only one gateway and one cable-free router per project (5008). */
export async function checkOneGateway(
  tx: DbOrTx,
  project: ProjectRow,
  device: GatewayCandidate,
): Promise<void> {
  if (!takesGatewayPlace(device)) return;
  const isGateway = device.type === DeviceType.ROUTER;
  const counts = await repo.gatewayCounts(tx, project.id, device.sn);
  if (isGateway && counts.gateways > 0) {
    throw new AppError(Codes.ONE_GATEWAY, 'The project already has a gateway');
  }
  if (isMeshRouter(device) && counts.meshRouters > 0) {
    throw new AppError(Codes.ONE_GATEWAY, 'The project already has a cable-free router (primary node)');
  }
}

/**
 * Binds one device to the project inside the caller's transaction (project row already locked).
 * Checks everything before it writes, so a refusal leaves nothing behind.
 */
async function bindOne(tx: DbOrTx, project: ProjectRow, input: BindInput, now: Date): Promise<DeviceRow> {
  const sn = normaliseSn(input.sn);
  const current = await repo.lockDevice(tx, sn);
  if (current?.projectId != null) {
    throw new AppError(
      Codes.DEVICE_BOUND,
      current.projectId === project.id
        ? 'The device is already in this project'
        : 'The device is already bound to another project',
    );
  }
  let type: string;
  let model: string;
  if (current) {
    if (
      input.model &&
      current.firstSeenAt !== null &&
      input.model.toUpperCase() !== current.model.toUpperCase()
    ) {
      throw new AppError(Codes.MODEL, `This device is a ${current.model}, not a ${input.model}`, {
        model: 'Model error',
      });
    }
    const wanted = current.firstSeenAt === null && input.model ? modelInfo(input.model) : undefined;
    if (current.firstSeenAt === null && input.model && !wanted) {
      throw new AppError(Codes.MODEL, `Unknown model ${input.model}`, { model: 'Unknown model' });
    }
    model = wanted?.model ?? current.model;
    type = wanted?.type ?? current.type;
  } else {
    if (!input.model) {
      throw new AppError(
        Codes.BIND_FAILED,
        'This device has never connected to Beacon: give its model to add it in advance',
        { model: 'Required for a device that has never connected' },
      );
    }
    const info = modelInfo(input.model);
    if (!info) throw new AppError(Codes.MODEL, `Unknown model ${input.model}`, { model: 'Unknown model' });
    model = info.model;
    type = info.type;
  }
  checkNetMode(project, type);
  await checkOneGateway(tx, project, {
    sn,
    type,
    meshRole: current?.meshRole ?? null,
    deviceMode: current?.deviceMode ?? null,
  });
  const bound = {
    projectId: project.id,
    name: input.name ?? '',
    remark: input.remark ?? '',
    boundAt: now,
    updatedAt: now,
  };
  if (current) {
    const [row] = await tx
      .update(devices)
      .set({ ...bound, model, type })
      .where(eq(devices.sn, sn))
      .returning();
    return { ...current, ...row };
  }
  const info = modelInfo(model);
  const [row] = await tx
    .insert(devices)
    .values({
      sn,
      model,
      type,
      capabilities: [...(info?.capabilities ?? [])],
      createdAt: now,
      ...bound,
    })
    .returning();
  // Its state row came with it (a trigger); until the device reports, its model's ports show.
  const [state] = await tx
    .update(deviceState)
    .set({ portCount: info?.ports.length ?? 0 })
    .where(eq(deviceState.sn, sn))
    .returning();
  return { ...state, ...row };
}

/** What unbinding clears: the device goes back to the pool of unclaimed devices. */
export function unboundValues(now: Date) {
  return {
    projectId: null,
    name: '',
    remark: '',
    boundAt: null,
    desiredConfig: null,
    desiredHash: null,
    configStatus: DeviceConfigState.APPLIED,
    configCode: null,
    configAttempts: 0,
    configRetryAt: null,
    // The revision counter keeps counting, so a later configuration is always newer.
    updatedAt: now,
  };
}

export async function listDevices(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  input: DeviceListQuery,
): Promise<Paged<DeviceView>> {
  const query = parseOrThrow(DeviceListQuery, input);
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const { rows, total } = await repo.listProjectDevices(db, projectId, query);
  return { items: rows.map(toDeviceView), total, page: query.page, pageSize: query.pageSize };
}

async function deviceOr410(db: DbOrTx, projectId: number, sn: string, lock = false): Promise<DeviceRow> {
  const row = await repo.findProjectDevice(db, projectId, normaliseSn(sn), lock);
  if (!row) throw new AppError(Codes.DEVICE_DELETED, 'The device is not in this project');
  return row;
}

export async function getDevice(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  sn: string,
): Promise<DeviceDetailView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  return toDeviceDetailView(await deviceOr410(db, projectId, sn));
}

export async function addDevice(
  deps: JoinDeps,
  caller: Caller,
  projectId: number,
  input: AddDeviceBody,
): Promise<DeviceView> {
  const body = parseOrThrow(AddDeviceBody, input);
  const now = deps.now();
  let queued: string[] = [];
  const row = await deps.database.db.transaction(async (tx) => {
    const access = requireWritable(await loadProjectAccess(tx, caller, projectId, { now, lock: 'update' }));
    const bound = await bindOne(tx, access.project, body, now);
    // The project's network reaches a device that joins after the last save (decision 0042).
    queued = await compileForJoined(tx, deps, caller, projectId, [bound.sn], now);
    // And the project's Wi-Fi policies (decision 0047).
    queued = unite(queued, await compileWifiForJoined(tx, deps, caller, projectId, [bound.sn], now));
    await recordAudit(tx, caller, {
      at: now,
      projectId,
      action: 'create',
      entity: ENTITY,
      entityId: bound.sn,
      after: deviceAuditFields(bound),
    });
    await publishEvent(tx, {
      type: 'device.changed',
      projectId,
      sn: bound.sn,
      change: 'added',
      at: now.toISOString(),
    });
    return bound;
  });
  for (const sn of queued) deps.gateway.commands.converge(sn);
  // The answer carries the device's pending network revision.
  const fresh = queued.length ? await repo.findProjectDevice(deps.database.db, projectId, row.sn) : null;
  return toDeviceView(fresh ?? row);
}

function rowResult(code: number): ImportRowView['result'] {
  if (code === 0) return ImportRowResult.ADDED;
  if (code === Codes.DEVICE_BOUND) return ImportRowResult.BOUND;
  if (code === Codes.MESH_WLAN_CONFLICT || code === Codes.ONE_GATEWAY) return ImportRowResult.WRONG_TYPE;
  return ImportRowResult.INVALID;
}

/**
 * Batch import: every row gets a result; the good rows are added in one transaction with one audit
 * row (action "import", the SNs added). Rows are bound in SN order (a stable lock order), reported
 * in sheet order.
 */
export async function importDevices(
  deps: JoinDeps,
  caller: Caller,
  projectId: number,
  rows: ImportRow[],
): Promise<ImportResultView> {
  const now = deps.now();
  let queued: string[] = [];
  const result = await deps.database.db.transaction(async (tx) => {
    const access = requireWritable(await loadProjectAccess(tx, caller, projectId, { now, lock: 'update' }));
    const results = new Map<ImportRow, ImportRowView>();
    const seen = new Map<string, number>();
    const valid: ImportRow[] = [];
    const refuse = (r: ImportRow, code: number, message: string) =>
      results.set(r, {
        row: r.row,
        sn: echoPrefix(r.sn),
        result: rowResult(code),
        code,
        message: echoPrefix(message, 256),
      });
    for (const r of rows) {
      const sn = normaliseSn(r.sn);
      const failure =
        validateSn(sn) ??
        (r.name ? validateDeviceName(r.name) : null) ??
        (r.remark ? validateRemark(r.remark) : null);
      if (failure) refuse(r, failure.code, failure.message);
      else if (seen.has(sn)) refuse(r, Codes.FORM_DATA, `The same serial number is on row ${seen.get(sn)}`);
      else {
        seen.set(sn, r.row);
        valid.push(r);
      }
    }
    const added: string[] = [];
    for (const r of [...valid].sort((a, b) => normaliseSn(a.sn).localeCompare(normaliseSn(b.sn)))) {
      try {
        const row = await bindOne(
          tx,
          access.project,
          { sn: r.sn, model: r.model || undefined, name: r.name || undefined, remark: r.remark || undefined },
          now,
        );
        added.push(row.sn);
        results.set(r, { row: r.row, sn: row.sn, result: ImportRowResult.ADDED, code: 0, message: 'Added' });
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        refuse(r, err.code, err.message);
      }
    }
    if (added.length > 0) {
      queued = await compileForJoined(tx, deps, caller, projectId, added, now);
      queued = unite(queued, await compileWifiForJoined(tx, deps, caller, projectId, added, now));
      await recordAudit(tx, caller, {
        at: now,
        projectId,
        action: 'import',
        entity: ENTITY,
        entityId: null,
        after: { added: added.sort() },
      });
      for (const sn of added) {
        await publishEvent(tx, {
          type: 'device.changed',
          projectId,
          sn,
          change: 'added',
          at: now.toISOString(),
        });
      }
    }
    return {
      total: rows.length,
      added: added.length,
      rows: rows.map((r) => results.get(r)!),
    };
  });
  for (const sn of queued) deps.gateway.commands.converge(sn);
  return result;
}

export async function updateDevice(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  sn: string,
  input: UpdateDeviceBody,
): Promise<DeviceView> {
  const body = parseOrThrow(UpdateDeviceBody, input);
  const now = deps.now();
  const row = await deps.database.db.transaction(async (tx) => {
    requireWritable(await loadProjectAccess(tx, caller, projectId, { now, lock: 'share' }));
    const current = await deviceOr410(tx, projectId, sn, true);
    const patch: Partial<DeviceRow> = {};
    if (body.name !== undefined && body.name.trim() !== current.name) patch.name = body.name.trim();
    if (body.remark !== undefined && body.remark.trim() !== current.remark) patch.remark = body.remark.trim();
    if (Object.keys(patch).length === 0) return current;
    const [inventory] = await tx
      .update(devices)
      .set({ ...patch, updatedAt: now })
      .where(eq(devices.sn, current.sn))
      .returning();
    const updated: DeviceRow = { ...current, ...inventory };
    await recordAudit(tx, caller, {
      at: now,
      projectId,
      action: 'update',
      entity: ENTITY,
      entityId: current.sn,
      before: deviceAuditFields(current),
      after: deviceAuditFields(updated),
    });
    await publishEvent(tx, {
      type: 'device.changed',
      projectId,
      sn: current.sn,
      change: 'updated',
      at: now.toISOString(),
    });
    return updated;
  });
  return toDeviceView(row);
}

export async function removeDevice(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  sn: string,
  query: RemoveDeviceQuery,
): Promise<{ sn: string; mode: RemoveDeviceQuery['mode'] }> {
  const now = deps.now();
  return deps.database.db.transaction(async (tx) => {
    requireWritable(await loadProjectAccess(tx, caller, projectId, { now, lock: 'update' }));
    const current = await deviceOr410(tx, projectId, sn, true);
    // Nobody keeps reaching the device's local page through a session opened in this project.
    await closeDeviceRemoteSessions(tx, current.sn, now);
    await leaveProject(tx, caller, current, projectId, now, { mode: query.mode });
    return { sn: current.sn, mode: query.mode };
  });
}

export async function listDeviceCommands(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  sn: string,
  query: z.output<typeof PageQuery>,
): Promise<Paged<CommandView>> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const device = await deviceOr410(db, projectId, sn);
  const { rows, total } = await repo.deviceCommandsOf(db, device.sn, query.page, query.pageSize);
  return { items: rows.map(toCommandView), total, page: query.page, pageSize: query.pageSize };
}

/** Commands of the project by id: a bulk action's results, followed to their final outcomes. */
export async function listProjectCommands(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  ids: readonly string[],
): Promise<CommandView[]> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  return (await repo.projectCommandsByIds(db, projectId, ids)).map(toCommandView);
}

/** The import's permission gate, checked before the upload is read. */
export async function checkImportAllowed(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
): Promise<void> {
  requireWritable(await loadProjectAccess(deps.database.db, caller, projectId, { now: deps.now() }));
}
