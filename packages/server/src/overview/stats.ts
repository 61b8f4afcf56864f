import { DeviceStatus, ONLINE_STATUSES, type ProjectStats, type TypeStats } from '@beacon/protocol';
import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { deviceState, devices } from '../db/schema.ts';

/**
 * Device counts per project from the stored device state (docs/decisions/0041): one grouped query
 * over devices ⋈ device_state, served by devices(project_id, type) — never one query per project.
 * online: the codes toSimpleStatus folds to "online"; offline: 0 and 9; busy: the rest (upgrading,
 * rebooting). clients: what the online devices reported last (an offline device has none now).
 */
const status = sql`coalesce(${deviceState.status}, ${DeviceStatus.OFFLINE})`;
const ONLINE_CODES = sql.raw(ONLINE_STATUSES.join(', '));
const OFFLINE_CODES = sql.raw([DeviceStatus.OFFLINE, DeviceStatus.OFFLINE_VARIANT].join(', '));
const isOnline = sql`${status} in (${ONLINE_CODES})`;
const isOffline = sql`${status} in (${OFFLINE_CODES})`;

/** The aggregate columns, named for a subquery (the list joins them per project). */
function aggregates() {
  return {
    total: sql<number>`count(*)::int`.as('ov_total'),
    online: sql<number>`(count(*) filter (where ${isOnline}))::int`.as('ov_online'),
    offline: sql<number>`(count(*) filter (where ${isOffline}))::int`.as('ov_offline'),
    clients: sql<number>`coalesce(sum(${deviceState.clientCount}) filter (where ${isOnline}), 0)::int`.as(
      'ov_clients',
    ),
    configFailed: sql<number>`(count(*) filter (where ${devices.configStatus} = 'failed'))::int`.as(
      'ov_config_failed',
    ),
    healthy:
      sql<number>`(count(*) filter (where ${isOnline} and ${devices.configStatus} <> 'failed'))::int`.as(
        'ov_healthy',
      ),
  };
}

export interface StatsRow {
  total: number | null;
  online: number | null;
  offline: number | null;
  clients: number | null;
  configFailed: number | null;
  healthy: number | null;
}

/** The health share: healthy devices of all, 0–100 rounded down; null without devices. */
export function toStats(row: StatsRow | null | undefined): ProjectStats {
  const total = row?.total ?? 0;
  const online = row?.online ?? 0;
  const offline = row?.offline ?? 0;
  return {
    total,
    online,
    offline,
    busy: total - online - offline,
    clients: row?.clients ?? 0,
    configFailed: row?.configFailed ?? 0,
    health: total > 0 ? Math.floor(((row?.healthy ?? 0) * 100) / total) : null,
  };
}

/**
 * Counts per project of the projects `projectIds` selects (a subquery), to be left-joined on
 * `projectId`: one grouped scan for a whole page of projects, and the columns sort the list.
 */
export function projectStatsSubquery(db: DbOrTx, projectIds: SQL) {
  return db
    .select({ projectId: sql<number>`${devices.projectId}`.as('ov_project_id'), ...aggregates() })
    .from(devices)
    .leftJoin(deviceState, eq(deviceState.sn, devices.sn))
    .where(inArray(devices.projectId, projectIds))
    .groupBy(devices.projectId)
    .as('ov');
}

/** One project's counts in total and by device type (sorted by type), from one grouped query. */
export async function projectStats(
  db: DbOrTx,
  projectId: number,
): Promise<{ stats: ProjectStats; byType: TypeStats[] }> {
  const rows = await db
    .select({ type: devices.type, ...aggregates() })
    .from(devices)
    .leftJoin(deviceState, eq(deviceState.sn, devices.sn))
    .where(eq(devices.projectId, projectId))
    .groupBy(devices.type)
    .orderBy(devices.type);
  const sum = (key: keyof StatsRow) => rows.reduce((n, row) => n + (row[key] ?? 0), 0);
  const stats = toStats({
    total: sum('total'),
    online: sum('online'),
    offline: sum('offline'),
    clients: sum('clients'),
    configFailed: sum('configFailed'),
    healthy: sum('healthy'),
  });
  return { stats, byType: rows.map((row) => ({ type: row.type, ...toStats(row) })) };
}
