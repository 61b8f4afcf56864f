import { COMMAND_EXPIRED, CommandState } from '@beacon/protocol';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { deviceCommands } from '../db/schema.ts';
import { inTexts } from '../db/text-array.ts';
import { publishEvent, publishEvents } from '../events/bus.ts';
import { type CommandRow, commandEvent, type OutcomeItem } from './command-rows.ts';
import { recordConfigOutcome } from './config-outcome.ts';
import { acceptFinalOutcomes } from './outcomes.ts';

// Writing a command's one outcome (invariant 4): each write changes the row only while it is still
// `sent`, so whichever of reply, timer or sweeper comes first wins and the others change nothing.

export interface OutcomeClock {
  now(): Date;
  configRetryBaseMs: number;
}

/** Records one outcome if the command is still `sent`; `sn` restricts a device's reply to its own commands. */
export async function writeOutcome(
  database: Database,
  clock: OutcomeClock,
  o: OutcomeItem,
): Promise<CommandRow | null> {
  return database.db.transaction(async (tx) => {
    const [row] = await tx
      .update(deviceCommands)
      .set({ state: o.state, code: o.code, message: o.message, data: o.data, finishedAt: clock.now() })
      .where(
        and(
          eq(deviceCommands.id, o.id),
          eq(deviceCommands.state, CommandState.SENT),
          o.sn === null ? undefined : eq(deviceCommands.sn, o.sn),
        ),
      )
      .returning();
    if (!row) return null;
    await publishEvent(tx, commandEvent(row));
    if (row.name === 'apply-config') await recordConfigOutcome(tx, row, clock.now(), clock.configRetryBaseMs);
    await acceptFinalOutcomes(tx, [row]);
    return row;
  });
}

/**
 * Many outcomes in one transaction (one per command id): one conditional multi-row UPDATE, the
 * events in one statement. Answers the rows that changed.
 */
export async function writeOutcomes(
  database: Database,
  clock: OutcomeClock,
  items: readonly OutcomeItem[],
): Promise<CommandRow[]> {
  const finishedAt = clock.now();
  return database.db.transaction(async (tx) => {
    const data = items.map((o) => ({
      id: o.id,
      sn: o.sn,
      state: o.state,
      code: o.code,
      message: o.message,
      data: o.data === null ? null : JSON.stringify(o.data),
    }));
    const updated = await tx.execute<{ id: string }>(
      sql`update ${deviceCommands} as t
          set state = v.state, code = v.code, message = v.message, data = v.data::jsonb, finished_at = ${finishedAt}
          from json_to_recordset(${JSON.stringify(data)}::json)
            as v(id text, sn text, state text, code integer, message text, data text)
          where t.id = v.id and t.state = ${CommandState.SENT} and (v.sn is null or t.sn = v.sn)
          returning t.id`,
    );
    const ids = (updated as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
    if (ids.length === 0) return [];
    const rows = await tx.select().from(deviceCommands).where(inTexts(deviceCommands.id, ids));
    await publishEvents(tx, rows.map(commandEvent));
    for (const row of rows)
      if (row.name === 'apply-config')
        await recordConfigOutcome(tx, row, clock.now(), clock.configRetryBaseMs);
    await acceptFinalOutcomes(tx, rows);
    return rows;
  });
}

/** Ends every `sent` command past its deadline as a timeout (its sender may have stopped). */
export async function endExpiredCommands(database: Database, now: Date): Promise<CommandRow[]> {
  return database.db.transaction(async (tx) => {
    const ended = await tx
      .update(deviceCommands)
      .set({
        state: CommandState.TIMEOUT,
        code: COMMAND_EXPIRED,
        message: 'No reply from the device in time',
        finishedAt: now,
      })
      .where(and(eq(deviceCommands.state, CommandState.SENT), lt(deviceCommands.expiresAt, now)))
      .returning();
    for (const row of ended) await publishEvent(tx, commandEvent(row));
    return ended;
  });
}
