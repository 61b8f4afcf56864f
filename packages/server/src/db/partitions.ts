import type { Pool, PoolClient } from 'pg';

/**
 * Time-partitioned tables (DESIGN.md "data that grows"): a table declared
 * `partition by range (<time column>)` gets one partition per UTC day, named `<table>_pYYYYMMDD`.
 * Partitions are made ahead of time by a recurring job and retention drops whole partitions, which
 * costs nothing like a DELETE of millions of rows and leaves no bloat.
 *
 * There is deliberately no default partition: a row whose time has no partition is refused, so
 * writers clamp device clocks to the window they keep (see `clampToWindow`) instead of letting a
 * device with a wrong clock create or fill partitions years away.
 *
 * Table names come from code, never from a request; they are still checked before they reach SQL.
 */

const NAME = /^[a-z_][a-z0-9_]{0,40}$/;

/**
 * Storage parameters of a table's partitions. The 5-minute and hourly statistics rows are updated in
 * place as samples are added (decision 0075: each telemetry adds to its 5-minute row, each fold to
 * its hour's): room on the page keeps those updates HOT (no new index entries), as for device_state
 * (decision 0071). Migration 0035 sets the partitions that existed before.
 */
const PARTITION_STORAGE: Record<string, string> = {
  stats_device_5m: 'fillfactor = 70',
  stats_dim_5m: 'fillfactor = 70',
  stats_device_1h: 'fillfactor = 70',
  stats_dim_1h: 'fillfactor = 70',
};
const DAY_MS = 86_400_000;

function checkName(table: string): void {
  if (!NAME.test(table)) throw new Error(`not a partitioned table name: ${table}`);
}

/** The UTC day a time falls in, as the partition suffix: 20261124. */
export function daySuffix(at: Date): string {
  return at.toISOString().slice(0, 10).replaceAll('-', '');
}

function startOfUtcDay(at: Date): Date {
  return new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
}

export interface Partition {
  name: string;
  /** Inclusive start (00:00 UTC of its day). */
  from: Date;
  /** Exclusive end. */
  to: Date;
}

type Queryable = Pick<Pool, 'query'> | Pick<PoolClient, 'query'>;

/** The partitions a table has now, oldest first (read from the catalogue, so any instance agrees). */
export async function listPartitions(db: Queryable, table: string): Promise<Partition[]> {
  checkName(table);
  const { rows } = await db.query<{ name: string }>(
    `select c.relname as name from pg_inherits i
       join pg_class c on c.oid = i.inhrelid
       join pg_class p on p.oid = i.inhparent
      where p.relname = $1 and p.relnamespace = 'public'::regnamespace`,
    [table],
  );
  const out: Partition[] = [];
  for (const { name } of rows) {
    const m = /_p(\d{4})(\d{2})(\d{2})$/.exec(name);
    if (!m) continue;
    const from = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    out.push({ name, from, to: new Date(from.getTime() + DAY_MS) });
  }
  return out.sort((a, b) => a.from.getTime() - b.from.getTime());
}

/**
 * Makes sure every UTC day from `from` to `to` (both included) has its partition. Safe to call from
 * several instances at once: the DDL runs under a transaction-scoped advisory lock per table.
 * Answers the partitions it created.
 */
export async function ensureDailyPartitions(
  pool: Pool,
  table: string,
  from: Date,
  to: Date,
): Promise<string[]> {
  checkName(table);
  const created: string[] = [];
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(hashtext($1))', [`partitions:${table}`]);
    const existing = new Set((await listPartitions(client, table)).map((p) => p.name));
    const storage = PARTITION_STORAGE[table] ? ` with (${PARTITION_STORAGE[table]})` : '';
    for (
      let day = startOfUtcDay(from);
      day.getTime() <= to.getTime();
      day = new Date(day.getTime() + DAY_MS)
    ) {
      const name = `${table}_p${daySuffix(day)}`;
      if (existing.has(name)) continue;
      const next = new Date(day.getTime() + DAY_MS);
      await client.query(
        `create table if not exists ${name} partition of ${table}
           for values from ('${day.toISOString()}') to ('${next.toISOString()}')${storage}`,
      );
      created.push(name);
    }
    await client.query('commit');
  } catch (e) {
    await client.query('rollback').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
  return created;
}

/** Drops every partition that ends at or before `cutoff` (retention). Answers the dropped names. */
export async function dropPartitionsBefore(pool: Pool, table: string, cutoff: Date): Promise<string[]> {
  checkName(table);
  const dropped: string[] = [];
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(hashtext($1))', [`partitions:${table}`]);
    for (const p of await listPartitions(client, table)) {
      if (p.to.getTime() > cutoff.getTime()) continue;
      await client.query(`drop table if exists ${p.name}`);
      dropped.push(p.name);
    }
    await client.query('commit');
  } catch (e) {
    await client.query('rollback').catch(() => {});
    throw e;
  } finally {
    client.release();
  }
  return dropped;
}

/**
 * A device's timestamp clamped to the window that has partitions: a device clock years off (or a
 * hostile `ts`) cannot push a row outside what is kept. Answers `now` for a time outside
 * [now − back, now + ahead].
 */
export function clampToWindow(at: Date, now: Date, backMs: number, aheadMs: number): Date {
  const t = at.getTime();
  if (!Number.isFinite(t) || t < now.getTime() - backMs || t > now.getTime() + aheadMs) return now;
  return at;
}
