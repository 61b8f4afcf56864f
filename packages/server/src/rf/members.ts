import {
  busyCode,
  Capability,
  Codes,
  DEFAULT_WIFI_COUNTRY,
  DeviceOperation,
  type ErrorCode,
  hasCapability,
  isOfflineStatus,
  ManagementMode,
  type ModelInfo,
  modelInfo,
  RfRunState,
} from '@beacon/protocol';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { devices, rfRuns, rfSettings } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { type DeviceRow, selectDevices } from '../devices/row.ts';
import { defaultDeviceName } from '../devices/views.ts';

export { bandOnChannel, type ReportedRadio, radioState, reportedRadios } from './reports.ts';

/** The APs of a project as RF sees them: their rows, models, documents and what they report. */

export type SettingsRow = typeof rfSettings.$inferSelect;
export type RunRow = typeof rfRuns.$inferSelect;

export interface Member {
  row: DeviceRow;
  info: ModelInfo;
  name: string;
}

/** The project's APs (devices with Wi-Fi radios), in serial-number order; locked when asked. */
export async function membersOf(db: DbOrTx, projectId: number, lock = false): Promise<Member[]> {
  const q = selectDevices(db).where(eq(devices.projectId, projectId)).orderBy(devices.sn);
  const rows = lock ? await q.for('update', { of: devices }) : await q;
  const out: Member[] = [];
  for (const row of rows) {
    const info = modelInfo(row.model);
    if (!info || !hasCapability(info, Capability.WIFI) || info.bands.length === 0) continue;
    out.push({ row, info, name: row.name || defaultDeviceName(row.model, row.sn) });
  }
  return out;
}

export const isOnline = (row: Pick<DeviceRow, 'status'>): boolean => !isOfflineStatus(row.status);

/**
 * Why an AP cannot be configured now (SPEC.md §4): offline 36, local management 76, upgrading 71,
 * in a running RF run 27, re-adapting to a new country 5345; null when it can.
 */
export function blockedCode(
  row: Pick<DeviceRow, 'sn' | 'status' | 'operation' | 'managementMode'>,
  optimising: ReadonlySet<string>,
): ErrorCode | null {
  if (isOfflineStatus(row.status)) return Codes.DEVICE_OFFLINE;
  if (row.managementMode === ManagementMode.LOCAL) return Codes.LOCAL_MANAGE;
  if (busyCode(row.status, row.operation) === Codes.UPGRADING) return Codes.UPGRADING;
  if (optimising.has(row.sn)) return Codes.RADIO_RUNNING;
  if (row.operation === DeviceOperation.RF_ADAPT) return Codes.RF_ADAPTING;
  return null;
}

export async function settingsOf(db: DbOrTx, projectId: number, lock = false): Promise<SettingsRow> {
  const q = db.select().from(rfSettings).where(eq(rfSettings.projectId, projectId));
  const [row] = lock ? await q.for('update') : await q;
  return (
    row ?? {
      projectId,
      country: DEFAULT_WIFI_COUNTRY,
      countryChangedAt: null,
      adaptRevisions: {},
      scheduleEnabled: false,
      scheduleDays: [],
      scheduleTime: '03:00',
      nextRunAt: null,
      updatedAt: new Date(0),
    }
  );
}

export async function runningRun(db: DbOrTx, projectId: number): Promise<RunRow | null> {
  const [row] = await db
    .select()
    .from(rfRuns)
    .where(and(eq(rfRuns.projectId, projectId), eq(rfRuns.state, RfRunState.RUNNING)));
  return row ?? null;
}

/**
 * How far the APs are in re-adapting to the last country change: an online AP it went to is done
 * once it runs that revision and no longer reports the rf-adapt operation.
 */
export function adaptationOf(settings: SettingsRow, members: readonly Member[]) {
  const wanted = settings.adaptRevisions ?? {};
  if (!settings.countryChangedAt || Object.keys(wanted).length === 0) return null;
  let total = 0;
  let done = 0;
  let sum = 0;
  for (const m of members) {
    const revision = wanted[m.row.sn];
    if (revision === undefined || !isOnline(m.row)) continue;
    total++;
    const adapting = m.row.operation === DeviceOperation.RF_ADAPT;
    const runs = m.row.reportedRevision >= revision;
    if (runs && !adapting) {
      done++;
      sum += 100;
    } else if (adapting) sum += m.row.progress ?? 0;
  }
  if (total === 0 || done === total) return null;
  return {
    country: settings.country,
    startedAt: settings.countryChangedAt.toISOString(),
    progress: Math.round(sum / total),
    done,
    total,
  };
}

/** The device's desired document (secrets opened). */
export function documentOf(deps: Pick<Deps, 'gateway'>, row: DeviceRow): Record<string, unknown> {
  return row.desiredConfig
    ? (deps.gateway.commands.secrets.openDocument(row.desiredConfig) as Record<string, unknown>)
    : {};
}
