import { busyCode, Codes, type CommandName, type CommandState, isOfflineStatus } from '@beacon/protocol';
import type { Tx } from '../db/client.ts';
import type { deviceCommands } from '../db/schema.ts';
import type { BusEvent } from '../events/bus.ts';

// What a command is to its callers (actor, outcome, scope) and how its row reads (gateway/commands.ts).

/**
 * The code a command gets at once, recorded without reaching the device: 410 a device Beacon does
 * not know (deleted), 36 offline, 71 upgrading. A device upgrading refuses every command itself
 * (SPEC.md §4, busyCode); while it writes its flash it is away (status 3, it left cleanly, so no
 * last will marks it offline), and a command published then would only wait for its timeout.
 */
export function immediateCode(
  device: { status: number; operation: string | null; projectId?: number | null } | undefined,
  projectId?: number,
): number | null {
  if (!device) return Codes.DEVICE_DELETED;
  // Sent for a project the device has left since the action was checked (SPEC.md §8: 410).
  if (projectId !== undefined && device.projectId !== projectId) return Codes.DEVICE_DELETED;
  if (isOfflineStatus(device.status)) return Codes.DEVICE_OFFLINE;
  if (busyCode(device.status, device.operation) === Codes.UPGRADING) return Codes.UPGRADING;
  return null;
}

export interface CommandActor {
  accountId: number | null;
  account: string;
}

/** The system itself (configuration re-sends on hello, demo). */
export const SYSTEM_ACTOR: CommandActor = { accountId: null, account: 'system' };

export interface CommandOutcome {
  id: string;
  sn: string;
  name: CommandName;
  state: CommandState;
  /** 0 success, else a catalogue code: 36 offline, 410 unknown device, 5025 timeout, or the device's. */
  code: number;
  message: string | null;
  /** What the device answered besides the code (e.g. the remote-management URL). */
  data: Record<string, unknown> | null;
}

export interface SendOptions {
  /** How long to wait for the reply; default config.commandTimeoutMs (+ the save time for apply-config). */
  timeoutMs?: number;
  /** The write the command's record belongs to (an administrator's action and its audit row). */
  scope?: CommandScope;
}

/** A command record (or a committed revision) as the scope's transaction wrote it. */
export interface CommandRecord {
  sn: string;
  /** null: no command (a revision committed for a device that is away). */
  commandId: string | null;
  state: CommandState | null;
  /** A code recorded at once (36 offline, 71 upgrading, 410…); null while the command is sent. */
  code: number | null;
  revision?: number;
}

/**
 * Where a command is claimed: the transaction it is recorded in, so the action's audit row commits
 * with its command record (invariant 2; the maintenance actions use the project write path,
 * projects/write.ts). `recorded` is told of every record the body wrote, and of nothing when the
 * body recorded nothing (a busy device waits and tries again in a later transaction).
 */
export interface CommandScope {
  transaction<T>(
    body: (tx: Tx, recorded: (records: readonly CommandRecord[]) => void) => Promise<T>,
  ): Promise<T>;
  /** Only devices still in this project are claimed; a device that left it ends at once with 410. */
  projectId?: number;
}

export const recordOf = (row: CommandRow): CommandRecord => ({
  sn: row.sn,
  commandId: row.id,
  state: row.state as CommandState,
  code: row.code,
});

export type CommandRow = typeof deviceCommands.$inferSelect;

/** What claim() reads of the device row, under its lock. */
export interface ClaimedDevice {
  sn: string;
  projectId: number | null;
  status: number;
  operation: string | null;
  desiredRevision: number;
  reportedRevision: number;
  desiredHash: string | null;
  reportedHash: string | null;
  configStatus: string;
}

export interface Waiter {
  sn: string;
  name: CommandName;
  resolve(outcome: CommandOutcome): void;
}

/** Every column of a command row (claimMany writes them all). */
export const COMMAND_COLUMNS = [
  'id',
  'sn',
  'projectId',
  'name',
  'params',
  'state',
  'code',
  'message',
  'data',
  'accountId',
  'accountName',
  'createdAt',
  'expiresAt',
  'finishedAt',
] as const;

/** An outcome waiting to be recorded (recordMany). `sn` null: not a device's reply (a timeout). */
export interface OutcomeItem {
  id: string;
  sn: string | null;
  state: CommandState;
  code: number;
  message: string | null;
  data: Record<string, unknown> | null;
}

/** The `command` live event of a command row. */
export function commandEvent(row: CommandRow): BusEvent {
  // Commands to unclaimed devices still wake local waiters: projectId 0 reaches no browser.
  return {
    type: 'command',
    projectId: row.projectId ?? 0,
    sn: row.sn,
    id: row.id,
    name: row.name,
    state: row.state as CommandState,
    code: row.code,
    message: row.message,
    at: (row.finishedAt ?? row.createdAt).toISOString(),
  };
}

export function outcomeOf(row: CommandRow): CommandOutcome {
  return {
    id: row.id,
    sn: row.sn,
    name: row.name as CommandName,
    state: row.state as CommandState,
    code: row.code ?? 0,
    message: row.message,
    data: (row.data as Record<string, unknown> | null) ?? null,
  };
}
