import { DeviceConfigState } from '@beacon/protocol';
import { and, asc, isNotNull, lte, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { devices } from '../db/schema.ts';
import { inTexts } from '../db/text-array.ts';
import type { Gateway } from '../gateway/gateway.ts';
import { addJobs, type JobRunner } from '../jobs/runner.ts';

/**
 * Durable convergence (invariant 3): a recurring job re-sends pending configurations, not only when
 * a device says hello or reports state. A device is due when its `config_retry_at` has passed:
 * set when a revision is committed, when a push reached no decision (timeout, busy, away —
 * commands.ts configOutcome, with a doubling delay) and when drift is seen (ingest). Each run
 * claims up to BATCH due devices with FOR UPDATE SKIP LOCKED and moves their next try on before it
 * commits, so several instances share the work and none sends the same try twice; the pushes go
 * out after commit (CommandService.converge, which checks again under the device's lock).
 *
 * The job recurs by scheduling its successor under a key named after the next time slot, so
 * instances that start it at the same time make one chain, not several.
 */

export const CONFIG_CONVERGE_JOB = 'config-converge';
const INTERVAL_MS = 5_000;
const BATCH = 200;

const slotKey = (at: Date) => `${CONFIG_CONVERGE_JOB}:${Math.floor(at.getTime() / INTERVAL_MS) + 1}`;
const slotTime = (at: Date) => new Date((Math.floor(at.getTime() / INTERVAL_MS) + 1) * INTERVAL_MS);

export function registerConfigConvergence(
  runner: JobRunner,
  deps: { gateway: Gateway; retryBaseMs: number; log: Pick<FastifyBaseLogger, 'warn'> },
): void {
  runner.register(
    CONFIG_CONVERGE_JOB,
    async ({ tx, now, afterCommit }) => {
      const due = await tx
        .select({ sn: devices.sn, status: devices.configStatus, attempts: devices.configAttempts })
        .from(devices)
        .where(and(isNotNull(devices.configRetryAt), lte(devices.configRetryAt, now)))
        .orderBy(asc(devices.configRetryAt))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      const pending = due.filter((d) => d.status === DeviceConfigState.PENDING).map((d) => d.sn);
      const settled = due.filter((d) => d.status !== DeviceConfigState.PENDING).map((d) => d.sn);
      if (settled.length) {
        await tx.update(devices).set({ configRetryAt: null }).where(inTexts(devices.sn, settled));
      }
      if (pending.length) {
        // The next try if this one reaches no decision either: base, 2×, 4×, … at most an hour.
        await tx
          .update(devices)
          .set({
            configAttempts: sql`${devices.configAttempts} + 1`,
            configRetryAt: sql`${now.toISOString()}::timestamptz + make_interval(secs => least(${deps.retryBaseMs / 1000} * power(2, ${devices.configAttempts}), 3600))`,
          })
          .where(and(inTexts(devices.sn, pending), ne(devices.configStatus, DeviceConfigState.FAILED)));
        afterCommit(() => {
          for (const sn of pending) deps.gateway.commands.converge(sn);
        });
      }
      await addJobs(tx, [{ kind: CONFIG_CONVERGE_JOB, key: slotKey(now), runAt: slotTime(now) }]);
    },
    { deferWhileBusy: true },
  );
}

/** Starts the chain (every instance at start; the slot key keeps it one). */
export async function startConfigConvergence(db: Parameters<typeof addJobs>[0], now: Date): Promise<void> {
  await addJobs(db, [{ kind: CONFIG_CONVERGE_JOB, key: slotKey(now), runAt: slotTime(now) }]);
}
