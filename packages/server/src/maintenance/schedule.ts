import { type RebootScheduleView, zonedParts, zonedTimeToUtc } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../db/client.ts';
import { devices, rebootSchedules } from '../db/schema.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { cancelJob, type JobRunner, scheduleJob } from '../jobs/runner.ts';

/**
 * Scheduled reboots (SPEC.md §1, §5), durable across restarts: the schedule is a row of
 * reboot_schedules and its next reboot a job of src/jobs/ (PostgreSQL, claimed with FOR UPDATE
 * SKIP LOCKED). The job key carries the due time, so a job left from an older version of the
 * schedule is recognised as stale and does nothing. When it fires, the job moves the schedule to
 * its next occurrence in the same transaction and, after commit, sends the reboot command (whose
 * outcome the gateway records like any other).
 */

export const REBOOT_SCHEDULE_JOB = 'reboot-schedule';
const jobKey = (sn: string, at: Date) => `${REBOOT_SCHEDULE_JOB}:${sn}:${at.getTime()}`;

type ScheduleRow = typeof rebootSchedules.$inferSelect;

/**
 * The first instant strictly after `after` that falls on one of `days` (0 Sunday … 6 Saturday) at
 * `time` (HH:MM) on the wall clock of `timeZone` (an IANA zone). Days are counted on that clock, so
 * "Monday 03:00" in Europe/Berlin is 02:00Z in winter and 01:00Z in summer; a time the clocks skip
 * runs just after the gap (zonedTimeToUtc).
 */
export function nextRebootAt(days: readonly number[], time: string, timeZone: string, after: Date): Date {
  const [hh, mm] = time.split(':').map(Number);
  const today = zonedParts(after, timeZone);
  for (let d = 0; d <= 8; d++) {
    // Calendar arithmetic on a UTC date: the local date d days on, whatever the offsets between.
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + d));
    if (!days.includes(date.getUTCDay())) continue;
    const at = zonedTimeToUtc(timeZone, {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: hh!,
      minute: mm!,
    });
    if (at.getTime() > after.getTime()) return at;
  }
  throw new Error('no day in the schedule');
}

export function scheduleView(row: ScheduleRow): RebootScheduleView {
  return {
    sn: row.sn,
    days: [...row.days].sort((a, b) => a - b),
    time: row.time,
    timeZone: row.timeZone,
    nextRunAt: row.nextRunAt.toISOString(),
  };
}

export async function findSchedule(db: DbOrTx, sn: string): Promise<ScheduleRow | null> {
  const [row] = await db.select().from(rebootSchedules).where(eq(rebootSchedules.sn, sn));
  return row ?? null;
}

/** Saves (or replaces) a device's schedule and its job, inside the caller's transaction. */
export async function saveSchedule(
  tx: DbOrTx,
  input: { sn: string; projectId: number; days: number[]; time: string; timeZone: string; accountId: number },
  now: Date,
): Promise<{ before: ScheduleRow | null; after: ScheduleRow }> {
  const before = await findSchedule(tx, input.sn);
  if (before) await cancelJob(tx, jobKey(before.sn, before.nextRunAt));
  const days = [...new Set(input.days)].sort((a, b) => a - b);
  const nextRunAt = nextRebootAt(days, input.time, input.timeZone, now);
  const values = { ...input, days, nextRunAt, updatedAt: now };
  const [after] = await tx
    .insert(rebootSchedules)
    .values(values)
    .onConflictDoUpdate({ target: rebootSchedules.sn, set: values })
    .returning();
  await scheduleJob(tx, {
    kind: REBOOT_SCHEDULE_JOB,
    key: jobKey(after.sn, nextRunAt),
    payload: { sn: after.sn, at: nextRunAt.getTime() },
    runAt: nextRunAt,
  });
  return { before, after };
}

/** Removes a device's schedule and its job (nothing happens when there is none). */
export async function deleteSchedule(tx: DbOrTx, sn: string): Promise<ScheduleRow | null> {
  const before = await findSchedule(tx, sn);
  if (!before) return null;
  await cancelJob(tx, jobKey(before.sn, before.nextRunAt));
  await tx.delete(rebootSchedules).where(eq(rebootSchedules.sn, sn));
  return before;
}

export function registerMaintenanceJobs(
  runner: JobRunner,
  deps: { gateway: Gateway; log: Pick<FastifyBaseLogger, 'info' | 'warn'> },
): void {
  runner.register(REBOOT_SCHEDULE_JOB, async ({ tx, now, job, afterCommit }) => {
    const { sn, at } = job.payload as { sn: string; at: number };
    const [schedule] = await tx
      .select()
      .from(rebootSchedules)
      .where(eq(rebootSchedules.sn, sn))
      .for('update');
    if (!schedule || schedule.nextRunAt.getTime() !== at) return; // replaced or removed since
    const [device] = await tx
      .select({ projectId: devices.projectId })
      .from(devices)
      .where(eq(devices.sn, sn));
    if (!device || device.projectId !== schedule.projectId) {
      // The device left the project: its schedule goes with it.
      await tx.delete(rebootSchedules).where(eq(rebootSchedules.sn, sn));
      return;
    }
    // A server that was down for a while reboots once, then goes on with the next future day.
    const nextRunAt = nextRebootAt(schedule.days, schedule.time, schedule.timeZone, now);
    await tx.update(rebootSchedules).set({ nextRunAt, lastRunAt: now }).where(eq(rebootSchedules.sn, sn));
    await scheduleJob(tx, {
      kind: REBOOT_SCHEDULE_JOB,
      key: jobKey(sn, nextRunAt),
      payload: { sn, at: nextRunAt.getTime() },
      runAt: nextRunAt,
    });
    afterCommit(() => {
      void deps.gateway.commands
        .send(sn, 'reboot', {}, { accountId: schedule.accountId, account: 'scheduled reboot' })
        .then((outcome) => deps.log.info({ sn, code: outcome.code }, 'scheduled reboot sent'))
        .catch((err) => deps.log.warn({ sn, err: (err as Error).message }, 'scheduled reboot failed'));
    });
  });
}
