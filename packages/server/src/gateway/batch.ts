import { getTableColumns, getTableName, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';
import { textArray } from '../db/text-array.ts';
import { isTransientDbError } from './db-retry.ts';

/**
 * Group commit for the device link. With thousands of devices the cost of the gateway is the number
 * of statements (each one a round trip, a query build in Drizzle, a parse in PostgreSQL), not the
 * work in them. A Batcher collects items for up to `lingerMs` (or until `maxBatch` are waiting) and
 * writes them with one multi-row statement. Flushing as soon as the previous flush ended gave
 * batches of a handful of messages while 10,000 devices were connecting (the profile still showed
 * one round trip per few messages); a short linger gives batches of tens to hundreds, for a few
 * milliseconds of latency on a device's message.
 *
 * The Batcher keeps nothing another instance would need (DESIGN.md invariant 7): an item is
 * acknowledged only when its flush has committed. It does not order items: callers that need
 * per-device order (ingest) add a device's next message only when its previous one is done, so a
 * batch never holds two items of one device.
 */
export class Batcher<T, R> {
  private queue: { item: T; resolve(r: R): void; reject(e: unknown): void }[] = [];
  private inFlight = 0;
  private writingItems = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    /** Writes the items; answers one result per item, in the same order. */
    private readonly flush: (items: T[]) => Promise<R[]>,
    private readonly o: { maxBatch: number; maxInFlight: number; lingerMs: number } = {
      maxBatch: 500,
      maxInFlight: 2,
      lingerMs: 15,
    },
  ) {}

  /** Items waiting for a flush (not yet in one). */
  get waiting(): number {
    return this.queue.length;
  }

  /** Items in a flush under way (its statement not yet committed). */
  get writing(): number {
    return this.writingItems;
  }

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** A full batch goes at once (when a flush slot is free); a partial one after the linger. */
  private schedule(): void {
    if (this.queue.length >= this.o.maxBatch) this.pump();
    else if (this.queue.length && !this.timer) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.pump();
      }, this.o.lingerMs);
    }
  }

  private pump(): void {
    while (this.inFlight < this.o.maxInFlight && this.queue.length) {
      const batch = this.queue.splice(0, this.o.maxBatch);
      this.inFlight++;
      this.writingItems += batch.length;
      void this.run(batch).finally(() => {
        this.inFlight--;
        this.writingItems -= batch.length;
        this.schedule();
      });
    }
  }

  private async run(batch: { item: T; resolve(r: R): void; reject(e: unknown): void }[]): Promise<void> {
    try {
      const results = await withRetry(() => this.flush(batch.map((b) => b.item)));
      for (const [i, b] of batch.entries()) b.resolve(results[i]);
    } catch (err) {
      if (batch.length === 1 || isTransientDbError(err)) {
        for (const b of batch) b.reject(err);
        return;
      }
      // One item's value failed the whole statement (a hostile device's number out of a column's
      // range): each item alone, so that only that one fails and the other devices' are written.
      for (const b of batch) {
        try {
          const [result] = await withRetry(() => this.flush([b.item]));
          b.resolve(result);
        } catch (one) {
          b.reject(one);
        }
      }
    }
  }
}

/**
 * Multi-row statements lock many rows; they lock devices in serial-number order, but PostgreSQL
 * may still pick a victim when a single-row writer interleaves. A deadlock or serialization failure
 * rolled the whole batch back, so running it again is safe.
 */
export async function withRetry<R>(run: () => Promise<R>): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      const code =
        (err as { code?: string; cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;
      if (attempt >= 4 || (code !== '40P01' && code !== '40001')) throw err;
      await new Promise((r) => setTimeout(r, 5 * attempt));
    }
  }
}

/**
 * Column definitions and JSON rows for `json_to_recordset` (jsonb values travel as text, then are
 * cast). `json`, not `jsonb`: the parameter is read once, where jsonb first builds its binary form,
 * which made reading 5,000 rows ~60 % dearer (bench/RESULTS.md, 2026-11-30); every multi-row
 * statement of the ingest reads its rows this way.
 */
function recordset(table: PgTable, names: readonly string[], rows: readonly object[]) {
  const all = getTableColumns(table) as Record<string, PgColumn>;
  const isJson = (c: PgColumn) => c.getSQLType() === 'jsonb' || c.getSQLType() === 'json';
  const defs = names.map((k) => `"${all[k].name}" ${isJson(all[k]) ? 'text' : all[k].getSQLType()}`);
  /** The value of column `k` in the recordset `v`, in the column's own type. */
  const value = (k: string) => `v."${all[k].name}"${isJson(all[k]) ? `::${all[k].getSQLType()}` : ''}`;
  const data = rows.map((row) => {
    const out: Record<string, unknown> = {};
    for (const k of names) {
      const v = (row as Record<string, unknown>)[k];
      out[all[k].name] = isJson(all[k]) ? (v == null ? null : JSON.stringify(v)) : (v ?? null);
    }
    return out;
  });
  return { all, defs: defs.join(', '), value, json: JSON.stringify(data) };
}

/**
 * One INSERT for many rows from one JSON parameter (`insert into t (…) select … from
 * json_to_recordset($1)`). Drizzle's multi-row insert binds and maps every value on its own, which
 * for thousands of rows (a bulk command's command and audit rows) cost more than the statement.
 * Columns not listed take their defaults.
 */
export async function insertRows<TTable extends PgTable>(
  db: DbOrTx,
  table: TTable,
  columns: readonly (keyof TTable['$inferInsert'] & string)[],
  rows: readonly TTable['$inferInsert'][],
  options: {
    /** A row whose unique key exists already is left out (`on conflict do nothing`). */
    skipConflicts?: boolean;
    /** A column of every row inserted to answer (e.g. its new id); in no particular order. */
    returning?: keyof TTable['$inferSelect'] & string;
  } = {},
): Promise<unknown[]> {
  const conflict = options.skipConflicts ? sql` on conflict do nothing` : sql``;
  const out: unknown[] = [];
  for (let i = 0; i < rows.length; i += 5000) {
    const r = recordset(table, columns, rows.slice(i, i + 5000));
    const target = columns.map((k) => `"${r.all[k].name}"`).join(', ');
    const values = columns.map((k) => r.value(k)).join(', ');
    const returning = options.returning
      ? sql.raw(` returning "${r.all[options.returning].name}" as returned`)
      : sql``;
    const result = await db.execute<{ returned: unknown }>(
      sql`insert into ${sql.identifier(getTableName(table))} (${sql.raw(target)}) select ${sql.raw(values)} from json_to_recordset(${r.json}::json) as v(${sql.raw(r.defs)})${conflict}${returning}`,
    );
    if (options.returning) for (const row of result.rows) out.push(row.returned);
  }
  return out;
}

/**
 * One UPDATE for many rows of `table`, each row with its own values: `update t set c = v.c, … from
 * json_to_recordset($1) as v(…) where t.key = v.key`. Column names and types come from the Drizzle
 * schema; jsonb values travel as text and are cast, so a JSON null stays distinct from SQL NULL.
 * `extraWhere` narrows the rows further (e.g. a command still `sent`). Answers the keys written.
 */
export async function updateRows<TTable extends PgTable, K extends keyof TTable['$inferSelect'] & string>(
  db: DbOrTx,
  table: TTable,
  key: keyof TTable['$inferSelect'] & string,
  columns: readonly K[],
  rows: readonly Partial<TTable['$inferSelect']>[],
  options: {
    /** Columns whose stored value stays when a row gives none (null or undefined). */
    keep?: readonly K[];
    extraWhere?: (v: (column: string) => SQL) => SQL;
  } = {},
): Promise<Set<unknown>> {
  const { keep = [], extraWhere } = options;
  if (rows.length === 0) return new Set();
  const r = recordset(table, [key, ...columns], rows);
  const col = (k: string) => `"${r.all[k].name}"`;
  const sets = columns.map(
    (k) => `${col(k)} = ${keep.includes(k) ? `coalesce(${r.value(k)}, t.${col(k)})` : r.value(k)}`,
  );
  const v = (column: string) => sql.raw(`v.${col(column)}`);
  // Text keys (serial numbers) also as an array: the planner then sees how many rows the update
  // names and reads them by the key's index, instead of guessing 100 from the recordset and
  // hashing a scan of the whole table (decision 0071).
  const keys = rows.map((row) => row[key as keyof typeof row]);
  const byKeys = keys.every((k) => typeof k === 'string')
    ? sql` and t.${sql.raw(col(key))} = any(${textArray(keys as string[])}::text[])`
    : sql``;
  const result = await db.execute<Record<string, unknown>>(
    sql`update ${sql.identifier(getTableName(table))} as t set ${sql.raw(sets.join(', '))} from json_to_recordset(${r.json}::json) as v(${sql.raw(r.defs)}) where t.${sql.raw(col(key))} = v.${sql.raw(col(key))}${byKeys}${extraWhere ? sql` and ${extraWhere(v)}` : sql``} returning t.${sql.raw(col(key))} as key`,
  );
  // The keys of the rows written (node-postgres answers { rows }).
  return new Set((result as unknown as { rows: { key: unknown }[] }).rows.map((r) => r.key));
}
