import {
  AppError,
  busyCode,
  Codes,
  completeSwitchConfig,
  DeviceType,
  type ErrorCode,
  errorMessage,
  isOfflineStatus,
  ManagementMode,
  type ModelInfo,
  modelInfo,
  parseOrThrow,
  type SaveSwitchBody,
  SaveSwitchBody as SaveSwitchSchema,
  type SwitchConfig,
  type SwitchPoeList,
  type SwitchView,
  validateSwitchConfig,
} from '@beacon/protocol';
import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { devices } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { type DeviceRow, selectDevices } from '../devices/row.ts';
import { defaultDeviceName } from '../devices/views.ts';
import { loadProjectAccess, requireWritable } from '../projects/access.ts';
import { type WriteCaller, withProjectWrite } from '../projects/write.ts';
import { commitDeviceRevision } from './repository.ts';

/**
 * Switch ports (SPEC.md §3 Switch port, §4, §5; docs/decisions/0039): the `switch` section of a
 * switch's configuration document, saved as a new revision of the configuration domain (expected-
 * revision check 5120, audit row in the same transaction, pushed after commit and re-sent by the
 * convergence job until the switch reports it). Refused on the server before anything is written:
 * read-only and demo projects (5032, 5031), a device that is not a switch (2), offline (36), in local
 * management mode (76) or upgrading (71), and every rule of the section with its code.
 */

const secretsOf = (deps: Deps) => deps.gateway.commands.secrets;

async function deviceIn(db: DbOrTx, projectId: number, sn: string): Promise<DeviceRow> {
  const [row] = await selectDevices(db).where(
    and(eq(devices.projectId, projectId), eq(devices.sn, sn.toUpperCase())),
  );
  if (!row) throw new AppError(Codes.NOT_FOUND, 'The device is not in this project');
  return row;
}

/** The switch's model, or code 2 when the device is not a switch Beacon knows. */
function switchModel(row: DeviceRow): ModelInfo {
  const info = modelInfo(row.model);
  if (!info || info.type !== DeviceType.SWITCH || row.type !== DeviceType.SWITCH) {
    throw new AppError(Codes.MODEL, `The ${row.model} is not a switch: it has no switch ports to configure`);
  }
  return info;
}

/** SPEC.md §4: why the device cannot be configured now (36 offline, 76 local management, 71 upgrading). */
export function switchBlocked(
  row: Pick<DeviceRow, 'status' | 'operation' | 'managementMode'>,
): ErrorCode | null {
  if (isOfflineStatus(row.status)) return Codes.DEVICE_OFFLINE;
  if (row.managementMode === ManagementMode.LOCAL) return Codes.LOCAL_MANAGE;
  if (busyCode(row.status, row.operation) === Codes.UPGRADING) return Codes.UPGRADING;
  return null;
}

function refuseIfBlocked(row: DeviceRow): void {
  const code = switchBlocked(row);
  if (code !== null) throw new AppError(code, errorMessage(code));
}

function desiredDocument(deps: Deps, row: DeviceRow): Record<string, unknown> {
  return row.desiredConfig
    ? (secretsOf(deps).openDocument(row.desiredConfig) as Record<string, unknown>)
    : {};
}

interface ReportedPort {
  id: number;
  enabled?: boolean;
  link?: boolean;
  speed?: number;
  duplex?: string | null;
  poe?: { enabled: boolean; power: number } | null;
}

function switchView(deps: Deps, row: DeviceRow, info: ModelInfo): SwitchView {
  const doc = desiredDocument(deps, row);
  const section = completeSwitchConfig(info, (doc.switch ?? null) as SwitchConfig | null);
  const reported = (Array.isArray(row.ports) ? row.ports : []) as ReportedPort[];
  return {
    sn: row.sn,
    name: row.name || defaultDeviceName(row.model, row.sn),
    model: row.model,
    status: row.status,
    blocked: switchBlocked(row),
    revision: row.desiredRevision,
    configStatus: row.configStatus as SwitchView['configStatus'],
    configCode: row.configCode,
    reportedRevision: row.reportedRevision,
    switch: section,
    ports: info.ports.map((p) => ({ id: p.id, type: p.type, maxSpeed: p.maxSpeed, poe: p.poe })),
    poeBudget: info.poeBudget,
    live: reported
      .filter((p) => p && typeof p.id === 'number')
      .map((p) => ({
        id: p.id,
        enabled: p.enabled ?? true,
        link: p.link ?? false,
        speed: p.speed ?? 0,
        duplex: p.duplex ?? null,
        poe: p.poe ?? null,
      })),
    poe:
      row.poeTotal !== null
        ? { budget: row.poeTotal, used: row.poeUsed ?? 0, remaining: row.poeRemaining ?? row.poeTotal }
        : null,
    reportedAt: row.telemetryAt ? row.telemetryAt.toISOString() : null,
  };
}

export async function getSwitch(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  sn: string,
): Promise<SwitchView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const row = await deviceIn(db, projectId, sn);
  return switchView(deps, row, switchModel(row));
}

/** The section's first broken rule as the error the API answers (with the field that is wrong). */
function checkSection(section: SwitchConfig, info: ModelInfo): void {
  const failure = validateSwitchConfig(section, info);
  if (failure) {
    const path = `switch.${failure.path ?? ''}`.replace(/\.$/, '');
    throw new AppError(failure.code, failure.message, { [path]: failure.message });
  }
}

export async function saveSwitch(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  sn: string,
  raw: SaveSwitchBody,
): Promise<SwitchView> {
  const body = parseOrThrow(SaveSwitchSchema, raw);
  const { db } = deps.database;
  // Who may write, before anything about the device is looked at or asked of it.
  requireWritable(await loadProjectAccess(db, caller, projectId, { now: deps.now() }));
  const first = await deviceIn(db, projectId, sn);
  const info = switchModel(first);
  refuseIfBlocked(first);
  checkSection(body.switch, info);
  const section = completeSwitchConfig(info, body.switch);

  // Before any revision the rest of the document is what the switch runs (as for the LEDs), so a
  // first port change does not drop its other settings.
  let base: Record<string, unknown> | null = null;
  if (first.desiredRevision === 0 && body.expectedRevision === 0) {
    const outcome = await deps.gateway.commands.send(first.sn, 'get-config', {}, caller);
    if (outcome.code !== 0) throw new AppError(outcome.code as ErrorCode, outcome.message ?? undefined);
    base = (outcome.data as { document?: Record<string, unknown> } | null)?.document ?? {};
  }

  const device = await withProjectWrite(deps, caller, projectId, async (write) => {
    const current = await deviceIn(write.tx, projectId, sn);
    refuseIfBlocked(current);
    const { before, device, revision } = await commitDeviceRevision(write.tx, secretsOf(deps), {
      sn: current.sn,
      projectId,
      document: { ...(base ?? desiredDocument(deps, current)), switch: section },
      author: caller,
      reason: body.reason || 'Switch ports changed',
      expectedRevision: body.expectedRevision,
      now: write.now,
    });
    write.audit({
      action: 'switch-ports-save',
      entity: 'device-config',
      entityId: device.sn,
      before: { revision: before.desiredRevision, hash: before.desiredHash },
      after: { revision: revision.revision, hash: revision.hash, reason: revision.reason },
    });
    return device;
  });
  deps.gateway.commands.converge(device.sn);
  return switchView(deps, device, info);
}

/** PoE budget, used and remaining of every switch of the project, as the switches report them. */
export async function listSwitchPoe(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
): Promise<SwitchPoeList> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const rows = await selectDevices(db)
    .where(and(eq(devices.projectId, projectId), eq(devices.type, DeviceType.SWITCH)))
    .orderBy(asc(devices.sn));
  return {
    items: rows.map((row) => {
      const budget = row.poeTotal ?? modelInfo(row.model)?.poeBudget ?? 0;
      const ports = (Array.isArray(row.ports) ? row.ports : []) as ReportedPort[];
      return {
        sn: row.sn,
        name: row.name || defaultDeviceName(row.model, row.sn),
        model: row.model,
        status: row.status,
        budget,
        used: row.poeUsed ?? 0,
        remaining: row.poeRemaining ?? budget,
        poweredPorts: ports.filter((p) => (p?.poe?.power ?? 0) > 0).length,
        reportedAt: row.telemetryAt ? row.telemetryAt.toISOString() : null,
      };
    }),
  };
}
