import { CommandState, DeviceConfigState } from '@beacon/protocol';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { deviceState, devices } from '../db/schema.ts';
import type { CommandRow } from './command-rows.ts';
import { RETRYABLE_CONFIG_CODES } from './config-push-rules.ts';

/**
 * An apply-config outcome: the device runs the revision (applied) or refused it (failed, its
 * code; it waits for the administrator). A push that reached no decision — a timeout, the device
 * busy or away — stays pending and is due again after a growing delay (config/convergence.ts).
 */
export async function recordConfigOutcome(
  tx: DbOrTx,
  row: CommandRow,
  now: Date,
  retryBaseMs: number,
): Promise<void> {
  const revision = (row.params as { revision?: number }).revision;
  if (revision === undefined) return;
  const retry = row.state === CommandState.TIMEOUT || RETRYABLE_CONFIG_CODES.has(row.code ?? 0);
  const set = retry
    ? {
        configRetryAt: sql`${now.toISOString()}::timestamptz + make_interval(secs => least(${retryBaseMs / 1000} * power(2, greatest(${devices.configAttempts}, 1) - 1), 3600))`,
      }
    : row.state === CommandState.SUCCESS
      ? {
          configStatus: DeviceConfigState.APPLIED,
          configCode: null,
          configAttempts: 0,
          configRetryAt: null,
        }
      : { configStatus: DeviceConfigState.FAILED, configCode: row.code, configRetryAt: null };
  const [still] = await tx
    .update(devices)
    .set({ ...set, updatedAt: now })
    .where(and(eq(devices.sn, row.sn), eq(devices.desiredRevision, revision)))
    .returning({ desiredHash: devices.desiredHash });
  if (still && row.state === CommandState.SUCCESS && !retry) {
    // The device runs what it acknowledged: its reported side (device_state) says so too.
    await tx
      .update(deviceState)
      .set({ reportedRevision: revision, reportedHash: still.desiredHash })
      .where(eq(deviceState.sn, row.sn));
  }
}
