import { DeviceStatus, isOfflineStatus } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { dropClientsOf } from '../clients/ingest.ts';
import type { DbOrTx } from '../db/client.ts';
import { deviceState, devices } from '../db/schema.ts';
import { selectDevices } from '../devices/row.ts';
import { publishEvents } from '../events/bus.ts';
import { addJobs, type JobRunner } from '../jobs/runner.ts';
import { statusEvent } from './ingest.ts';
import { timeOutFinalOutcomes } from './outcomes.ts';

/**
 * A device that leaves cleanly for an upgrade (SPEC.md §9: offline while it writes its flash) or a
 * restart sends no last will, so its row would say "upgrading" or "rebooting" forever if it never
 * came back — and every command to it would be refused as busy. A durable job checks on it after
 * the away deadline (by default three times the longest §9 operation, the ~5-minute upgrade): with
 * no sign of life since, the device is marked offline (0) like any other lost device.
 */

export const AWAY_WATCHDOG_JOB = 'device-away-watchdog';

const AWAY_STATUSES: readonly number[] = [DeviceStatus.UPGRADING, DeviceStatus.REBOOTING];

export const isAwayStatus = (status: number): boolean => AWAY_STATUSES.includes(status);

/**
 * Schedules a check of each device at `runAt`, in the caller's transaction. Every check has a key of
 * its own (sn and time), so scheduling never waits on a check that is running: the check locks its
 * job row and then the device row, the ingest locks device rows and then inserts — no lock cycle.
 */
export async function scheduleAwayChecks(db: DbOrTx, sns: readonly string[], runAt: Date): Promise<void> {
  await addJobs(
    db,
    sns.map((sn) => ({
      kind: AWAY_WATCHDOG_JOB,
      key: `${AWAY_WATCHDOG_JOB}:${sn}:${runAt.getTime()}`,
      payload: { sn },
      runAt,
    })),
  );
}

export function registerAwayWatchdog(
  runner: JobRunner,
  deps: { deadlineMs: number; log: Pick<FastifyBaseLogger, 'warn'> },
): void {
  runner.register(AWAY_WATCHDOG_JOB, async ({ tx, now, job }) => {
    const { sn } = job.payload as { sn: string };
    // No key update: as the ingest's lockDevices (a telemetry batch's foreign-key checks pass).
    const [row] = await selectDevices(tx).where(eq(devices.sn, sn)).for('no key update');
    if (!row) return; // gone
    // Left for a restart and lost on the way (its last will): not back within the deadline either.
    if (isOfflineStatus(row.status)) {
      return timeOutFinalOutcomes(tx, sn, now, new Date(now.getTime() - deps.deadlineMs));
    }
    if (!isAwayStatus(row.status)) return; // back
    const lastSign = row.lastSeenAt?.getTime() ?? 0;
    if (lastSign + deps.deadlineMs > now.getTime()) {
      // It spoke since this check was planned (progress of a long upgrade): look again later.
      await scheduleAwayChecks(tx, [sn], new Date(lastSign + deps.deadlineMs));
      return;
    }
    const offline = { ...row, status: DeviceStatus.OFFLINE, operation: null, progress: null };
    await tx
      .update(deviceState)
      .set({ status: offline.status, operation: null, progress: null })
      .where(eq(deviceState.sn, sn));
    await statusEvent(tx, offline, row.status, now);
    await timeOutFinalOutcomes(tx, sn, now);
    // Its clients leave with it now, not at the next clients upkeep (decision 0044: the list's kept
    // count then agrees with its rows). On a savepoint: the upkeep job is the fallback.
    try {
      await tx.transaction(async (sp) => publishEvents(sp, await dropClientsOf(sp, [sn], now)));
    } catch (err) {
      deps.log.warn({ err, sn }, 'clients of a device marked offline not removed; the clients upkeep will');
    }
    deps.log.warn(
      { sn, status: row.status, lastSeenAt: row.lastSeenAt?.toISOString() ?? null },
      'device did not come back from an upgrade or restart in time; marked offline',
    );
  });
}
