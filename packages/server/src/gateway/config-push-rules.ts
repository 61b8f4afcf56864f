import { busyCode, COMMAND_EXPIRED, Codes, DeviceConfigState, isOfflineStatus } from '@beacon/protocol';
import type { ClaimedDevice } from './command-rows.ts';

// When a device gets its desired configuration (again), for gateway/commands.ts and config/convergence.ts.

/**
 * The device runs another configuration than the desired one: another revision, or the desired
 * revision with other content (drift: its reported hash differs; no hash reported = no drift seen).
 */
export function runsOtherConfig(
  d: Pick<ClaimedDevice, 'desiredRevision' | 'reportedRevision' | 'desiredHash' | 'reportedHash'>,
): boolean {
  if (d.reportedRevision !== d.desiredRevision) return true;
  return d.desiredHash !== null && d.reportedHash !== null && d.reportedHash !== d.desiredHash;
}

/**
 * A re-send of a pending configuration (converge) is claimed only while the device still needs
 * that revision and can take it: the same revision still desired and pending, the device running
 * something else, online and idle (canTakeConfig). Checked under the device row's lock, so a
 * re-send that waited for another command to end does not repeat a revision that command has just
 * applied.
 */
export function stillPending(revision: number) {
  return (d: ClaimedDevice) =>
    d.desiredRevision === revision &&
    d.configStatus === DeviceConfigState.PENDING &&
    runsOtherConfig(d) &&
    canTakeConfig(d);
}

/** Codes of a push that did not reach a decision on the device: tried again later, still pending. */
export const RETRYABLE_CONFIG_CODES: ReadonlySet<number> = new Set([
  COMMAND_EXPIRED,
  Codes.DEVICE_OFFLINE,
  Codes.UPGRADING,
  Codes.DEVICE_BUSY,
  Codes.REPEATED_CLICKS,
]);

/** Delay before push n of a pending configuration: base, 2×, 4×, … at most an hour. */
export function configRetryDelayMs(baseMs: number, attempts: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/**
 * Online in any sense (1, 2 upgrade done, 6 upload failed, 7 online not saved) and not busy
 * (busyCode: upgrading, restarting or in another operation) — a device that stays at 2 or 7 still
 * gets its pending configuration.
 */
export function canTakeConfig(d: { status: number; operation: string | null }): boolean {
  return !isOfflineStatus(d.status) && busyCode(d.status, d.operation) === null;
}
