import { DEFAULT_LOG_RETENTION_DAYS } from '@beacon/protocol';
import { type SQL, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/client.ts';
import { dropPartitionsBefore } from '../db/partitions.ts';
import { STATS_RETENTION_DAYS } from './rollup.ts';

/**
 * A project's log retention choice (7, 30, 90 or 180 days; 30 without a choice) applies to its
 * statistics and its alarms too (docs/monitoring-storage.md "Retention", docs/decisions/0045).
 *
 * Partitions are shared by every project, so one pass (run hourly by the `log-retention` job):
 *  1. drops whole hourly partitions older than the longest retention any project has (the raw and
 *     5-minute ones are dropped sooner by the rollup job: 3 and 8 days);
 *  2. deletes, per group of projects with the same shorter retention, their rows older than it,
 *     from the tables that keep longer than that (5-minute for 7 days, hourly, daily). Each delete
 *     names the group's project ids and a constant time bound: the time bound prunes the partitions
 *     still inside the retention, the ids ride the tables' primary keys (project_id first);
 *  3. deletes the daily rows (one table, not partitioned) and the ended alarms past each group's
 *     retention, the longest group included (nothing drops them whole).
 * Rows of deleted projects (statistics have no foreign key) get the default retention.
 * A bucket goes when it ended before the cutoff, so a chart of N days still has its first bucket.
 */

const DAY_MS = 86_400_000;

export interface RetentionGroup {
  days: number;
  projectIds: number[];
}

/** Projects by effective retention, and the longest (at least the default). */
export async function retentionGroups(tx: DbOrTx): Promise<{ longest: number; groups: RetentionGroup[] }> {
  const { rows } = await tx.execute<{ days: number; ids: (string | number)[] }>(sql`
    select days::int as days, array_agg(id) as ids from (
      select p.id, coalesce(s.retention_days, ${DEFAULT_LOG_RETENTION_DAYS}::int) as days
        from projects p left join project_log_settings s on s.project_id = p.id
      union all
      select o.project_id, ${DEFAULT_LOG_RETENTION_DAYS}::int
        from (select distinct project_id from stats_project_1d) o
       where not exists (select 1 from projects p where p.id = o.project_id)
    ) x group by days order by days`);
  const groups = rows.map((r) => ({ days: Number(r.days), projectIds: r.ids.map(Number) }));
  const longest = Math.max(DEFAULT_LOG_RETENTION_DAYS, ...groups.map((g) => g.days));
  return { longest, groups };
}

const ids = (projectIds: number[]) => sql`${`{${projectIds.join(',')}}`}::bigint[]`;

interface Table {
  name: string;
  /** Bucket length (ms): a bucket goes once it ended before the cutoff. */
  spanMs: number;
  /** Days the table keeps anyway (partitions dropped by the rollup job); Infinity = until deleted. */
  keepDays: number;
}

const TABLES: Table[] = [
  ...['stats_device_5m', 'stats_dim_5m', 'stats_project_5m'].map((name) => ({
    name,
    spanMs: 300_000,
    keepDays: STATS_RETENTION_DAYS['5m'],
  })),
  ...['stats_device_1h', 'stats_dim_1h', 'stats_project_1h'].map((name) => ({
    name,
    spanMs: 3_600_000,
    keepDays: STATS_RETENTION_DAYS['1h'],
  })),
  ...['stats_device_1d', 'stats_dim_1d', 'stats_project_1d', 'stats_project_dim_1d'].map((name) => ({
    name,
    spanMs: DAY_MS,
    keepDays: Number.POSITIVE_INFINITY,
  })),
  // The project's band and SSID series (decision 0044): a few hundred rows a day per project, not
  // partitioned, so only these per-project deletes bound them.
  { name: 'stats_project_dim_1h', spanMs: 3_600_000, keepDays: Number.POSITIVE_INFINITY },
];
export const HOURLY_PARTITIONED = ['stats_device_1h', 'stats_dim_1h', 'stats_project_1h'];

export interface StatsRetentionResult {
  droppedPartitions: string[];
  deletedRows: number;
  deletedAlarms: number;
}

async function count(tx: DbOrTx, statement: SQL): Promise<number> {
  return (await tx.execute(statement)).rowCount ?? 0;
}

/** One pass at `now` (inside the retention job's transaction; the DDL on connections of its own). */
export async function runStatsRetention(
  database: Database,
  tx: DbOrTx,
  now: Date,
): Promise<StatsRetentionResult> {
  const { longest, groups } = await retentionGroups(tx);
  const droppedPartitions: string[] = [];
  const longestCutoff = new Date(now.getTime() - longest * DAY_MS);
  for (const table of HOURLY_PARTITIONED)
    droppedPartitions.push(...(await dropPartitionsBefore(database.pool, table, longestCutoff)));

  let deletedRows = 0;
  let deletedAlarms = 0;
  for (const group of groups) {
    if (group.projectIds.length === 0) continue;
    const cutoff = now.getTime() - group.days * DAY_MS;
    for (const table of TABLES) {
      // Partitions do it for tables that keep less than the group, and for the longest group.
      if (table.keepDays <= group.days) continue;
      if (table.keepDays !== Number.POSITIVE_INFINITY && group.days >= longest) continue;
      const before = new Date(cutoff - table.spanMs).toISOString();
      deletedRows += await count(
        tx,
        sql`delete from ${sql.raw(table.name)}
             where project_id = any(${ids(group.projectIds)}) and bucket < ${before}::timestamptz`,
      );
    }
    // Ended alarms (open ones stay): raised_at <= cleared_at, so the project index bounds it.
    const ended = new Date(cutoff).toISOString();
    deletedAlarms += await count(
      tx,
      sql`delete from alarms where project_id = any(${ids(group.projectIds)})
            and raised_at < ${ended}::timestamptz and cleared_at < ${ended}::timestamptz`,
    );
  }
  return { droppedPartitions, deletedRows, deletedAlarms };
}
