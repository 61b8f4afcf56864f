import {
  Codes,
  CommandState,
  DeviceStatus,
  errorMessage,
  type FinalOutcomeView,
  FinalState,
  FOLLOWED_COMMANDS,
  isKnownCode,
} from '@beacon/protocol';
import { and, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { deviceCommands } from '../db/schema.ts';
import { inTexts } from '../db/text-array.ts';
import type { DeviceRow } from '../devices/row.ts';
import { type BusEvent, publishEvents } from '../events/bus.ts';
import type { DeviceEventListener } from '../logs/device-events.ts';
import { updateRows } from './batch.ts';

/**
 * Final outcomes (docs/decisions/0027). A reboot, reset or upgrade that the device answers with 0
 * has only been accepted: the device then restarts for a minute, or downloads and writes an image
 * for five. The reply stays the command's one recorded outcome (invariant 4); what became of it is
 * a later, separate fact on the same row (final_state …), settled by what the device reports next:
 *
 *   reboot, reset   done when the device says hello from a new boot (a new bootId);
 *   upgrade         done when it says hello running the requested version, failed (5111) when it
 *                   reports upload failed (6);
 *   any             timeout (5110) when the away watchdog gives up on the device.
 *
 * Each change goes to browsers as a `command.final` live event, in the transaction that decides it.
 */

type CommandRow = typeof deviceCommands.$inferSelect;

/** The final-outcome columns of a command that has none (yet). */
export const NO_FINAL_OUTCOME = {
  finalState: null,
  finalCode: null,
  finalMessage: null,
  finalAt: null,
} as const satisfies Partial<CommandRow>;

/** The API's view of a row's final outcome: only an accepted (successful) followed command has one. */
export function finalOutcomeOf(row: CommandRow): FinalOutcomeView | null {
  if (row.state !== CommandState.SUCCESS || row.finalState === null) return null;
  return {
    state: row.finalState as FinalState,
    code: row.finalCode,
    message: row.finalMessage,
    at: row.finalAt?.toISOString() ?? null,
  };
}

function finalEvent(row: CommandRow): BusEvent | null {
  const final = finalOutcomeOf(row);
  if (row.projectId === null || final === null) return null;
  return { type: 'command.final', projectId: row.projectId, sn: row.sn, id: row.id, name: row.name, final };
}

async function publishFinal(tx: DbOrTx, rows: CommandRow[]): Promise<void> {
  await publishEvents(
    tx,
    rows.map(finalEvent).filter((e): e is BusEvent => e !== null),
  );
}

/**
 * After replies are recorded, in their transaction: each followed command the device accepted gets
 * a pending final outcome — unless what the device reported since already settled it (a fast
 * reboot whose new hello was written before its reply).
 */
export async function acceptFinalOutcomes(tx: DbOrTx, rows: readonly CommandRow[]): Promise<void> {
  const ids = rows
    .filter((r) => r.state === CommandState.SUCCESS && FOLLOWED_COMMANDS.includes(r.name))
    .map((r) => r.id);
  if (ids.length === 0) return;
  const accepted = await tx
    .update(deviceCommands)
    .set({ finalState: FinalState.PENDING })
    .where(and(inTexts(deviceCommands.id, ids), isNull(deviceCommands.finalState)))
    .returning();
  const settled = await tx
    .select()
    .from(deviceCommands)
    .where(and(inTexts(deviceCommands.id, ids), sql`${deviceCommands.finalState} <> ${FinalState.PENDING}`));
  await publishFinal(tx, [...accepted, ...settled]);
}

/** What one device write (hello or state) tells about its open commands. */
export interface DeviceChange {
  before: DeviceRow;
  after: DeviceRow;
  /** A hello: the device (re)connected and reported its boot and firmware. */
  hello: boolean;
}

type Settlement = { state: FinalState; code: number; message: string | null };

function settle(command: CommandRow, change: DeviceChange): Settlement | null {
  const { before, after, hello } = change;
  const newBoot = hello && before.bootId !== after.bootId;
  switch (command.name) {
    case 'reboot':
    case 'reset':
      return newBoot ? { state: FinalState.DONE, code: 0, message: null } : null;
    case 'upgrade': {
      const target = (command.params as { version?: string }).version;
      if (
        hello &&
        target !== undefined &&
        after.firmware === target &&
        (newBoot || before.firmware !== target)
      )
        return { state: FinalState.DONE, code: 0, message: null };
      if (after.status === DeviceStatus.UPLOAD_FAILED && before.status !== DeviceStatus.UPLOAD_FAILED)
        return {
          state: FinalState.FAILED,
          code: Codes.UPGRADE_FAILED,
          message: errorMessage(Codes.UPGRADE_FAILED),
        };
      return null;
    }
    default:
      return null;
  }
}

/** Whether the change can settle anything, so that ordinary states and hellos cost no query. */
function mayMatter(change: DeviceChange): boolean {
  const { before, after, hello } = change;
  if (hello) return before.bootId !== after.bootId || before.firmware !== after.firmware;
  return after.status === DeviceStatus.UPLOAD_FAILED && before.status !== DeviceStatus.UPLOAD_FAILED;
}

/**
 * From ingest, in the transaction that writes the devices' hellos or states: settles the final
 * outcomes the new facts decide. A command still waiting for its reply is settled too (its reply
 * and the device's next messages travel separately and may be written in either order); its final
 * outcome is shown only once the reply says it was accepted.
 */
export async function settleFinalOutcomes(
  tx: DbOrTx,
  changes: readonly DeviceChange[],
  now: Date,
): Promise<void> {
  const relevant = changes.filter(mayMatter);
  if (relevant.length === 0) return;
  const open = await tx
    .select()
    .from(deviceCommands)
    .where(
      and(
        inTexts(
          deviceCommands.sn,
          relevant.map((c) => c.after.sn),
        ),
        inArray(deviceCommands.name, [...FOLLOWED_COMMANDS]),
        or(
          eq(deviceCommands.finalState, FinalState.PENDING),
          and(eq(deviceCommands.state, CommandState.SENT), isNull(deviceCommands.finalState)),
        ),
      ),
    );
  // One UPDATE for the batch (a bulk reboot's 10,000 hellos made 10,000 of them, one a command).
  const first = new Map<string, DeviceChange>();
  for (const c of relevant) if (!first.has(c.after.sn)) first.set(c.after.sn, c);
  const settled: CommandRow[] = [];
  for (const command of open) {
    if (command.createdAt.getTime() > now.getTime()) continue;
    const outcome = settle(command, first.get(command.sn)!);
    if (!outcome) continue;
    settled.push({
      ...command,
      finalState: outcome.state,
      finalCode: outcome.code,
      finalMessage: outcome.message,
      finalAt: now,
    });
  }
  const written = await updateRows(
    tx,
    deviceCommands,
    'id',
    ['finalState', 'finalCode', 'finalMessage', 'finalAt'],
    settled,
    { extraWhere: () => sql`(t.final_state = ${FinalState.PENDING} or t.final_state is null)` },
  );
  await publishFinal(
    tx,
    settled.filter((row) => written.has(row.id)),
  );
}

/**
 * From the away watchdog, in its transaction: the device did not come back, so its pending outcomes
 * end — those of commands sent before `sentBefore` only, when given (the others have had less time).
 */
export async function timeOutFinalOutcomes(
  tx: DbOrTx,
  sn: string,
  now: Date,
  sentBefore?: Date,
): Promise<void> {
  const rows = await tx
    .update(deviceCommands)
    .set({
      finalState: FinalState.TIMEOUT,
      finalCode: Codes.NOT_BACK_IN_TIME,
      finalMessage: errorMessage(Codes.NOT_BACK_IN_TIME),
      finalAt: now,
    })
    .where(
      and(
        eq(deviceCommands.sn, sn),
        eq(deviceCommands.finalState, FinalState.PENDING),
        sentBefore ? lte(deviceCommands.createdAt, sentBefore) : undefined,
      ),
    )
    .returning();
  await publishFinal(tx, rows);
}

/**
 * A device that refuses an image after accepting the upgrade (size, checksum, header or signature,
 * docs/decisions/0061) says which check failed in its `upgrade-failed` event (`data.code`): the
 * upgrade's final outcome takes that code instead of the general 5111, whichever of the event and
 * the upload-failed state is written first.
 */
export const upgradeFailuresFromEvents: DeviceEventListener = async (tx, events) => {
  const written: CommandRow[] = [];
  for (const e of events) {
    if (e.event !== 'upgrade-failed') continue;
    const code = (e.data as { code?: unknown } | null)?.code;
    if (typeof code !== 'number' || !isKnownCode(code) || code === 0) continue;
    const [latest] = await tx
      .select({ id: deviceCommands.id })
      .from(deviceCommands)
      .where(
        and(
          eq(deviceCommands.sn, e.sn),
          eq(deviceCommands.name, 'upgrade'),
          or(
            eq(deviceCommands.finalState, FinalState.PENDING),
            and(
              eq(deviceCommands.finalState, FinalState.FAILED),
              eq(deviceCommands.finalCode, Codes.UPGRADE_FAILED),
            ),
            and(eq(deviceCommands.state, CommandState.SENT), isNull(deviceCommands.finalState)),
          ),
        ),
      )
      .orderBy(desc(deviceCommands.createdAt))
      .limit(1);
    if (!latest) continue;
    const [row] = await tx
      .update(deviceCommands)
      .set({
        finalState: FinalState.FAILED,
        finalCode: code,
        finalMessage: errorMessage(code),
        finalAt: e.at,
      })
      .where(eq(deviceCommands.id, latest.id))
      .returning();
    if (row) written.push(row);
  }
  await publishFinal(tx, written);
};
