import { AUDIT_RETENTION_DAYS, DEFAULT_LOG_RETENTION_DAYS } from '@beacon/protocol';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbOrTx } from '../db/client.ts';
import { dropPartitionsBefore } from '../db/partitions.ts';
import { addJobs, type JobRunner } from '../jobs/runner.ts';
import { runStatsRetention } from '../stats/retention.ts';
import { DEVICE_EVENTS_TABLE, ensureEventPartitions, forgetKnownPartitions } from './device-events.ts';

/**
 * Log retention (docs/decisions/0036): a durable recurring job (one chain whatever the number of
 * instances: the successor's key names its time slot, like config convergence) that
 *  1. makes the device_events partitions of the coming days,
 *  2. drops whole partitions older than the longest retention any project has (or the default,
 *     which unclaimed devices' events and projects without a choice get),
 *  3. deletes, per project, the device events older than that project's own shorter choice,
 *  4. deletes audit rows older than AUDIT_RETENTION_DAYS (180 days, the longest choice),
 *  5. applies the same per-project choice to the statistics and the ended alarms
 *     (stats/retention.ts, docs/decisions/0045).
 * The partition DDL runs on its own connection (ensureDailyPartitions and dropPartitionsBefore lock
 * per table); the deletes commit with the job.
 */

export const LOG_RETENTION_JOB = 'log-retention';
export const RETENTION_INTERVAL_MS = 3_600_000;
const DAY_MS = 86_400_000;

const slotKey = (at: Date) => `${LOG_RETENTION_JOB}:${Math.floor(at.getTime() / RETENTION_INTERVAL_MS) + 1}`;
const slotTime = (at: Date) =>
  new Date((Math.floor(at.getTime() / RETENTION_INTERVAL_MS) + 1) * RETENTION_INTERVAL_MS);

export interface RetentionResult {
  droppedPartitions: string[];
  deletedEvents: number;
  deletedAudit: number;
  deletedStats: number;
  deletedAlarms: number;
}

/** One retention pass at `now` (the job's body; tests call it through the runner). */
export async function runLogRetention(database: Database, tx: DbOrTx, now: Date): Promise<RetentionResult> {
  await ensureEventPartitions(database, now);
  const [{ longest }] = (
    await tx.execute<{ longest: number }>(
      sql`select greatest(${DEFAULT_LOG_RETENTION_DAYS}::int, coalesce(max(retention_days), 0))::int as longest from project_log_settings`,
    )
  ).rows;
  const cutoff = new Date(now.getTime() - Number(longest) * DAY_MS);
  const droppedPartitions = await dropPartitionsBefore(database.pool, DEVICE_EVENTS_TABLE, cutoff);
  if (droppedPartitions.length) forgetKnownPartitions();
  const iso = now.toISOString();
  // Projects with a choice shorter than the longest; then everything else at the default.
  const chosen = await tx.execute(
    sql`delete from device_events e using project_log_settings s
         where e.project_id = s.project_id
           and e.at < ${iso}::timestamptz - make_interval(days => s.retention_days::int)`,
  );
  const rest = await tx.execute(
    sql`delete from device_events e
         where e.at < ${iso}::timestamptz - make_interval(days => ${DEFAULT_LOG_RETENTION_DAYS}::int)
           and not exists (select 1 from project_log_settings s where s.project_id = e.project_id)`,
  );
  const audit = await tx.execute(
    sql`delete from audit_log where at < ${iso}::timestamptz - make_interval(days => ${AUDIT_RETENTION_DAYS}::int)`,
  );
  const stats = await runStatsRetention(database, tx, now);
  return {
    droppedPartitions: [...droppedPartitions, ...stats.droppedPartitions],
    deletedEvents: (chosen.rowCount ?? 0) + (rest.rowCount ?? 0),
    deletedAudit: audit.rowCount ?? 0,
    deletedStats: stats.deletedRows,
    deletedAlarms: stats.deletedAlarms,
  };
}

export function registerLogRetention(
  runner: JobRunner,
  deps: { database: Database; log: Pick<FastifyBaseLogger, 'info'> },
): void {
  runner.register(
    LOG_RETENTION_JOB,
    async ({ tx, now }) => {
      const result = await runLogRetention(deps.database, tx, now);
      if (
        result.droppedPartitions.length ||
        result.deletedEvents ||
        result.deletedAudit ||
        result.deletedStats ||
        result.deletedAlarms
      ) {
        deps.log.info(result, 'log retention');
      }
      await addJobs(tx, [{ kind: LOG_RETENTION_JOB, key: slotKey(now), runAt: slotTime(now) }]);
    },
    { deferWhileBusy: true },
  );
}

/** Starts the chain (every instance at start; the slot key keeps it one). */
export async function startLogRetention(db: DbOrTx, now: Date): Promise<void> {
  await addJobs(db, [{ kind: LOG_RETENTION_JOB, key: slotKey(now), runAt: slotTime(now) }]);
}
