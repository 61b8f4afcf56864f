import {
  DeviceType,
  STATS_RANGE_LEVEL,
  STATS_RANGE_MS,
  STATS_RANGES,
  STATS_TOP,
  type StatsRange,
} from '@beacon/protocol';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbOrTx } from '../db/client.ts';
import { dropPartitionsBefore, ensureDailyPartitions } from '../db/partitions.ts';
import { addJobs, type JobRunner } from '../jobs/runner.ts';
import { bucketOf, DEVICE_MERGE, DEVICE_ROLLUP_COLUMNS, DIM_MERGE, DIM_ROLLUP_COLUMNS } from './merge.ts';

/**
 * Rollups and retention of the device statistics (docs/monitoring-storage.md, docs/decisions/0034).
 *
 * A recurring job (the durable runner; one chain, keyed by time slot, like config convergence)
 * runs every ROLLUP_INTERVAL_MS:
 * 1. partitions: makes the days ahead of every partitioned stats table and drops whole partitions
 *    past each table's retention (on its own connections, before the job's transaction touches
 *    a stats table, so the DDL never waits on the job itself);
 * 2. rollups, 5 min → 1 h → 1 day (decision 0075; the 5-minute rows are kept at ingest): see
 *    `rollUp`. Running it twice, or on two instances one after the other, gives the same rows: the
 *    job's transaction holds an advisory lock, and what a level has folded moves with its rows. A
 *    level's watermark moves to the start of the bucket that holds `now − LATE_MS` (a telemetry
 *    batch still committing) and never past its source level's watermark: buckets before it are
 *    final.
 */

export const STATS_ROLLUP_JOB = 'stats-rollup';
export const ROLLUP_INTERVAL_MS = 60_000;
/** Time a telemetry batch may take between its `now` and its commit. */
const LATE_MS = 120_000;
const DAY_MS = 86_400_000;
/** A rollup run longer than this is logged (every other job of the instance waited for it). */
const SLOW_ROLLUP_MS = 10_000;
/**
 * A level whose open buckets hold fewer rows than this (device and dimension rows, as its last
 * recompute of them wrote or its last fold touched: ~1,400 access points for the hourly level) is
 * recomputed every run; past it, it folds. A count, not a duration: one slow run on a loaded machine
 * must not turn a small fleet's charts to folding.
 */
const CHEAP_OPEN_ROWS = 10_000;
/** Devices that serve clients over the air: the Status screen's "top APs". */
export const AP_TYPES: readonly string[] = [
  DeviceType.AP,
  DeviceType.MESH,
  DeviceType.WROUTER,
  DeviceType.V7,
];

/**
 * Days each table keeps at most (see docs/monitoring-storage.md). Each project's log retention
 * choice cuts its rows sooner, and the hourly partitions go past the longest choice any project has
 * (stats/retention.ts, run hourly by the log-retention job).
 */
export const STATS_RETENTION_DAYS = {
  raw: 3,
  '5m': 8,
  /** Covers the 30-day charts and the longest log retention choice (180 days, SPEC.md §9). */
  '1h': 190,
  '1d': 400,
} as const;

export type StatsLevel = '5m' | '1h' | '1d';

interface LevelSpec {
  level: StatsLevel;
  seconds: number;
  source: StatsLevel | null;
  /** Most source time one run handles (catching up after a long stop goes in steps). */
  maxSpanMs: number;
  /**
   * Longest time between two runs that change the level once it folds (decisions 0075, 0077): the
   * hourly level takes the final 5-minute buckets 15 minutes at a time, the daily one each hour.
   * The top lists of the ranges that read a level are kept as fresh as three of these.
   */
  everyMs: number;
}

/**
 * The hourly level folds its final 5-minute buckets three at a time (decision 0077): a fold upserts
 * every device's row of the hour once whether it adds one bucket or three, and at 100,000 devices
 * (450,000 dimension rows an hour: switch ports above all) one fold takes 10–30 s of PostgreSQL. A
 * finished hour is folded at once (the daily level and the hour's charts want it whole).
 */
const LEVELS: LevelSpec[] = [
  { level: '5m', seconds: 300, source: null, maxSpanMs: 6 * 3_600_000, everyMs: ROLLUP_INTERVAL_MS },
  { level: '1h', seconds: 3600, source: '5m', maxSpanMs: 3 * DAY_MS, everyMs: 15 * ROLLUP_INTERVAL_MS },
  { level: '1d', seconds: 86_400, source: '1h', maxSpanMs: 20 * DAY_MS, everyMs: 60 * ROLLUP_INTERVAL_MS },
];

/** How often, at most, a level changes (and the top lists that read it are ranked). */
export const LEVEL_EVERY_MS: Record<StatsLevel, number> = Object.fromEntries(
  LEVELS.map((l) => [l.level, l.everyMs]),
) as Record<StatsLevel, number>;

const PARTITIONED: { table: string; keep: number }[] = [
  { table: 'stats_device', keep: STATS_RETENTION_DAYS.raw },
  { table: 'stats_dim', keep: STATS_RETENTION_DAYS.raw },
  { table: 'stats_device_5m', keep: STATS_RETENTION_DAYS['5m'] },
  { table: 'stats_dim_5m', keep: STATS_RETENTION_DAYS['5m'] },
  { table: 'stats_project_5m', keep: STATS_RETENTION_DAYS['5m'] },
  { table: 'stats_device_1h', keep: STATS_RETENTION_DAYS['1h'] },
  { table: 'stats_dim_1h', keep: STATS_RETENTION_DAYS['1h'] },
  { table: 'stats_project_1h', keep: STATS_RETENTION_DAYS['1h'] },
];

const floorTo = (ms: number, seconds: number) => Math.floor(ms / (seconds * 1000)) * seconds * 1000;
const ceilTo = (ms: number, seconds: number) => Math.ceil(ms / (seconds * 1000)) * seconds * 1000;

const retentionOf = (level: StatsLevel) => STATS_RETENTION_DAYS[level] * DAY_MS;

/** Partitions ahead (today … +2 days, and back to what the rollups may still write) and retention. */
export async function maintainPartitions(database: Database, now: Date): Promise<{ dropped: string[] }> {
  const dropped: string[] = [];
  const ahead = new Date(now.getTime() + 2 * DAY_MS);
  for (const { table, keep } of PARTITIONED) {
    // The oldest day kept; partitions are made from there (never older), or every run would make
    // the day before it and drop it again.
    const oldest = new Date(floorTo(now.getTime(), 86_400) - (keep - 1) * DAY_MS);
    const from = new Date(
      Math.max(oldest.getTime(), now.getTime() - Math.min(keep, STATS_RETENTION_DAYS['5m']) * DAY_MS),
    );
    await ensureDailyPartitions(database.pool, table, from, ahead);
    dropped.push(...(await dropPartitionsBefore(database.pool, table, oldest)));
  }
  // The daily tables (not partitioned) and the per-project choices: stats/retention.ts, hourly.
  return { dropped };
}

/** A level's rows from its source's rows in [$1, $2), in key order. */
function deviceSelect(spec: LevelSpec): string {
  return `select ${bucketOf('bucket', spec.seconds)} as b, project_id, sn, sum(samples),
      sum(cpu_avg * samples) / sum(samples), max(cpu_max), sum(memory_avg * samples) / sum(samples), max(memory_max),
      sum(clients_avg * samples) / sum(samples), max(clients_max), sum(rx_bytes), sum(tx_bytes), sum(wan_rx_bytes),
      sum(wan_tx_bytes)
    from stats_device_${spec.source} where bucket >= $1::timestamptz and bucket < $2::timestamptz
    group by 1, 2, 3 order by 2, 3, 1`;
}

function dimSelect(spec: LevelSpec): string {
  return `select ${bucketOf('bucket', spec.seconds)} as b, project_id, sn, kind, key, sum(samples),
      sum(clients_avg * samples) / sum(samples), max(clients_max), sum(rx_bytes), sum(tx_bytes)
    from stats_dim_${spec.source} where bucket >= $1::timestamptz and bucket < $2::timestamptz
    group by 1, 2, 3, 4, 5 order by 2, 3, 4, 5, 1`;
}

/** Adds the source's buckets in [$1, $2) to the level's rows (each source bucket once). */
const foldSql = (spec: LevelSpec) => [
  `insert into stats_device_${spec.level} as t (${DEVICE_ROLLUP_COLUMNS}) ${deviceSelect(spec)} ${DEVICE_MERGE}`,
  `insert into stats_dim_${spec.level} as t (${DIM_ROLLUP_COLUMNS}) ${dimSelect(spec)} ${DIM_MERGE}`,
];

/** Recomputes the level's buckets from $1 on: its rows there go, and come back from the source up to $2. */
const recomputeSql = (spec: LevelSpec) => [
  `delete from stats_device_${spec.level} where bucket >= $1::timestamptz`,
  `delete from stats_dim_${spec.level} where bucket >= $1::timestamptz`,
  `delete from stats_project_${spec.level} where bucket >= $1::timestamptz`,
  `delete from stats_project_dim_${spec.level} where bucket >= $1::timestamptz`,
  `insert into stats_device_${spec.level} (${DEVICE_ROLLUP_COLUMNS}) ${deviceSelect(spec)}`,
  `insert into stats_dim_${spec.level} (${DIM_ROLLUP_COLUMNS}) ${dimSelect(spec)}`,
];

/** The project rows of the level's buckets in [$1, $2), from its device rows (recomputed, not added). */
function projectRollupSql(level: StatsLevel): string {
  return `insert into stats_project_${level} (bucket, project_id, devices, cpu_avg, memory_avg, clients,
      rx_bytes, tx_bytes, wan_rx_bytes, wan_tx_bytes)
    select bucket, project_id, count(distinct sn), avg(cpu_avg), avg(memory_avg), sum(clients_avg), sum(rx_bytes),
      sum(tx_bytes), sum(wan_rx_bytes), sum(wan_tx_bytes)
    from stats_device_${level} where bucket >= $1::timestamptz and bucket < $2::timestamptz group by 1, 2
    on conflict (project_id, bucket) do update set devices = excluded.devices, cpu_avg = excluded.cpu_avg,
      memory_avg = excluded.memory_avg, clients = excluded.clients, rx_bytes = excluded.rx_bytes,
      tx_bytes = excluded.tx_bytes, wan_rx_bytes = excluded.wan_rx_bytes, wan_tx_bytes = excluded.wan_tx_bytes`;
}

/** A project's radio and SSID series: the sum over its devices (what the Device data charts read). */
function projectDimRollupSql(level: StatsLevel): string {
  return `insert into stats_project_dim_${level} (bucket, project_id, kind, key, clients, rx_bytes, tx_bytes)
    select bucket, project_id, kind, key, sum(clients_avg), sum(rx_bytes), sum(tx_bytes) from stats_dim_${level}
     where kind in ('radio', 'ssid') and bucket >= $1::timestamptz and bucket < $2::timestamptz group by 1, 2, 3, 4
    on conflict (project_id, bucket, kind, key) do update set clients = excluded.clients,
      rx_bytes = excluded.rx_bytes, tx_bytes = excluded.tx_bytes`;
}

/** Answers the rows the statement wrote (of the inserts: the rows made; counted with the deletes too). */
async function exec(db: DbOrTx, text: string, params: unknown[]): Promise<number> {
  // Placeholders $1, $2 become drizzle parameters.
  const parts = text.split(/\$(\d)/);
  const chunks = parts.map((p, i) => (i % 2 === 0 ? sql.raw(p) : sql`${params[Number(p) - 1]}`));
  const result = (await db.execute(sql.join(chunks, sql.raw('')))) as unknown as { rowCount: number | null };
  return text.startsWith('insert') ? (result.rowCount ?? 0) : 0;
}

/** A level's first run starts at its source's oldest row (or now when there is none). */
async function firstStart(db: DbOrTx, spec: LevelSpec, now: Date): Promise<number> {
  const table = spec.source === null ? 'stats_device_5m' : `stats_device_${spec.source}`;
  const result = (await db.execute(sql.raw(`select min(bucket) as t from ${table}`))) as unknown as {
    rows: { t: string | Date | null }[];
  };
  const oldest = result.rows[0]?.t ? new Date(result.rows[0].t).getTime() : now.getTime();
  return floorTo(Math.max(oldest, now.getTime() - retentionOf(spec.source ?? '5m')), spec.seconds);
}

/**
 * Where a source table's rows still are whole: the start of its oldest day partition (retention
 * drops whole days). A recompute from before it would delete rows it cannot make again.
 */
async function oldestKept(db: DbOrTx, table: string): Promise<number> {
  const result = (await db.execute(
    sql`select min(c.relname) as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
         join pg_class p on p.oid = i.inhparent where p.relname = ${table} and p.relnamespace = 'public'::regnamespace`,
  )) as unknown as { rows: { name: string | null }[] };
  const m = /_p(\d{4})(\d{2})(\d{2})$/.exec(result.rows[0]?.name ?? '');
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : Number.NEGATIVE_INFINITY;
}

type Mark = {
  level: string;
  done_until: string | Date;
  took_ms: number | null;
  open_rows: number | null;
  folded_until: string | Date | null;
  open: boolean;
};

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Runs the levels once at `now` (inside the caller's transaction) and answers their watermarks
 * (decision 0075).
 * - 5 min: its device and dimension rows are kept at ingest; the run recomputes the project rows of
 *   the open buckets (from the watermark to now) and moves the watermark to the bucket that holds
 *   `now − LATE_MS`.
 * - 1 h and 1 day: while recomputing the open buckets (from the level's watermark to now, the
 *   source's open buckets too) writes under `cheapRows` rows (a small fleet), every run does that, so its
 *   charts and top lists move every minute. Past that, the level *folds*: it adds each source bucket
 *   once, when it is final (before the source's watermark), to its rows — after a first recompute of
 *   what an earlier run left open. Either way the project rows of the touched buckets are recomputed.
 * Every run of the level that changed something ranks the top lists that read it.
 */
export async function rollUp(
  db: DbOrTx,
  now: Date,
  options: { cheapRows?: number; timings?: Record<string, number> } = {},
): Promise<Record<StatsLevel, Date>> {
  const cheapRows = options.cheapRows ?? CHEAP_OPEN_ROWS;
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('stats-rollup'))`);
  const stored = new Map(
    (
      (await db.execute<Mark>(
        sql`select level, done_until, took_ms, open_rows, folded_until, open from stats_watermarks`,
      )) as unknown as { rows: Mark[] }
    ).rows.map((r) => [r.level, r]),
  );
  const t = now.getTime();
  const out = {} as Record<StatsLevel, Date>;
  const changed = new Set<StatsLevel>();
  let sourceMark = t - LATE_MS;
  for (const spec of LEVELS) {
    const mark = stored.get(spec.level);
    const start = mark ? new Date(mark.done_until).getTime() : await firstStart(db, spec, now);
    const began = performance.now();
    let done: number;
    let folded: number | null = null;
    let open = false;
    let openRows: number | null = mark?.open_rows ?? null;
    // The level's buckets whose project rows are recomputed: [from, to).
    let from = start;
    let to = start;
    if (spec.source === null) {
      // The open 5-minute buckets: ingest keeps their device rows.
      to = Math.min(ceilTo(t + 1, spec.seconds), start + spec.maxSpanMs);
      done = Math.max(start, floorTo(Math.min(sourceMark, to), spec.seconds));
    } else {
      const prevFolded = mark?.folded_until ? new Date(mark.folded_until).getTime() : null;
      // Unknown (a first run): tried, and counted.
      const cheap = openRows === null ? cheapRows > 0 : openRows < cheapRows;
      if (cheap || prevFolded === null || mark?.open) {
        // Recompute from the watermark: up to now when cheap (the source's open buckets too), else
        // up to the source's final buckets, from where the level folds.
        const end = Math.min(cheap ? ceilTo(t + 1, spec.seconds) : sourceMark, start + spec.maxSpanMs);
        // Buckets whose source rows retention has dropped (a server stopped for days) stay as they are.
        from = Math.max(start, ceilTo(await oldestKept(db, `stats_device_${spec.source}`), spec.seconds));
        let rows = 0;
        if (end > from)
          for (const text of recomputeSql(spec)) rows += await exec(db, text, [iso(from), iso(end)]);
        // Only a recompute of the open buckets says what one costs (this one may have stopped short).
        if (cheap) openRows = rows;
        folded = Math.min(end, sourceMark);
        open = end > sourceMark;
        to = ceilTo(end, spec.seconds);
      } else {
        const end = Math.min(sourceMark, prevFolded + spec.maxSpanMs);
        folded = prevFolded;
        // Folded when the span is worth a fold, or when it finishes one of the level's buckets.
        const due =
          end - prevFolded >= spec.everyMs || floorTo(end, spec.seconds) > floorTo(prevFolded, spec.seconds);
        if (end > prevFolded && due) {
          let rows = 0;
          for (const text of foldSql(spec)) rows += await exec(db, text, [iso(prevFolded), iso(end)]);
          // The rows a fold touches are the rows its buckets have open: what a recompute would write.
          if (rows > 0) openRows = rows;
          folded = end;
          from = floorTo(prevFolded, spec.seconds);
          to = ceilTo(end, spec.seconds);
        }
      }
      done = Math.max(start, floorTo(folded, spec.seconds));
    }
    if (to > from) {
      await exec(db, projectRollupSql(spec.level), [iso(from), iso(to)]);
      if (spec.level !== '5m') await exec(db, projectDimRollupSql(spec.level), [iso(from), iso(to)]);
      changed.add(spec.level);
    }
    const took = Math.round(performance.now() - began);
    if (options.timings) options.timings[spec.level] = took;
    await db.execute(
      sql`insert into stats_watermarks (level, done_until, ran_at, took_ms, open_rows, folded_until, open)
          values (${spec.level}, ${iso(done)}::timestamptz, ${now.toISOString()}::timestamptz, ${took},
                  ${openRows}, ${folded === null ? null : iso(folded)}::timestamptz, ${open})
          on conflict (level) do update set done_until = excluded.done_until, ran_at = excluded.ran_at,
            took_ms = excluded.took_ms, open_rows = excluded.open_rows, folded_until = excluded.folded_until,
            open = excluded.open`,
    );
    out[spec.level] = new Date(done);
    sourceMark = done;
  }
  const ranking = performance.now();
  await refreshTopLists(db, now, out, (level) => changed.has(level), options.timings);
  if (options.timings) options.timings.top = Math.round(performance.now() - ranking);
  return out;
}

/**
 * How far a range's top lists may be from the reader's clock and still be read (else computed):
 * three cadences of the level they are ranked from.
 */
export const topFreshMs = (range: StatsRange): number => 3 * LEVEL_EVERY_MS[topWindow(range, 0).level];

/** Which rollup a range's top lists read, and where that range starts at `now` (stats/service.ts). */
export function topWindow(range: StatsRange, now: number): { level: '1h' | '1d'; start: number } {
  const level = STATS_RANGE_LEVEL[range].level === '5m' ? '1h' : '1d';
  const ms = level === '1h' ? 3_600_000 : DAY_MS;
  return { level, start: Math.floor((now - STATS_RANGE_MS[range]) / ms) * ms };
}

/**
 * The top lists of every project and range (decision 0044), in the rollup's transaction: each
 * device's sums over the range's final buckets (before the level's watermark) are kept in
 * `stats_device_span` and recomputed only when the range's start or the watermark moves (hourly,
 * or daily for 7 d and 30 d); every run adds the buckets after the watermark and ranks the devices
 * of each project (clients, CPU, memory, traffic; clients and traffic among APs for Status).
 */
export async function refreshTopLists(
  db: DbOrTx,
  now: Date,
  marks: Record<StatsLevel, Date>,
  due: (level: StatsLevel) => boolean = () => true,
  timings?: Record<string, number>,
): Promise<void> {
  const t = now.getTime();
  const state = (await db.execute(
    sql`select range, top_start, span_end from stats_top_state`,
  )) as unknown as { rows: { range: string; top_start: string | Date; span_end: string | Date }[] };
  const known = new Map(
    state.rows.map((r) => [r.range, `${new Date(r.top_start).getTime()}|${new Date(r.span_end).getTime()}`]),
  );
  for (const range of STATS_RANGES) {
    const { level, start } = topWindow(range, t);
    // Ranked when its level was recomputed, or when its window moved on (a new hour or day).
    if (!due(level) && known.get(range)?.startsWith(`${start}|`)) continue;
    const began = performance.now();
    const spanEnd = Math.max(start, Math.min(marks[level].getTime(), t));
    const table = sql.raw(`stats_device_${level}`);
    const from = new Date(start).toISOString();
    const to = new Date(spanEnd).toISOString();
    if (known.get(range) !== `${start}|${spanEnd}`) {
      await db.execute(sql`delete from stats_device_span where range = ${range}`);
      await db.execute(sql`
        insert into stats_device_span (range, project_id, sn, samples, clients_w, cpu_w, memory_w, bytes)
        select ${range}, project_id, sn, sum(samples), sum(clients_avg * samples), sum(cpu_avg * samples),
               sum(memory_avg * samples), sum(rx_bytes + tx_bytes)
          from ${table} where bucket >= ${from}::timestamptz and bucket < ${to}::timestamptz
         group by project_id, sn`);
    }
    await db.execute(sql`delete from stats_top where range = ${range}`);
    await db.execute(sql`
      insert into stats_top (range, project_id, sn, clients, cpu, memory, bytes, rank_clients, rank_cpu,
                             rank_memory, rank_bytes, rank_ap_clients, rank_ap_bytes)
      with sums as (
        select project_id, sn, sum(samples) as n, sum(cw) as cw, sum(pw) as pw, sum(mw) as mw, sum(b) as bytes
          from (select project_id, sn, samples, clients_w as cw, cpu_w as pw, memory_w as mw, bytes as b
                  from stats_device_span where range = ${range}
                union all
                select project_id, sn, samples, clients_avg * samples, cpu_avg * samples, memory_avg * samples,
                       rx_bytes + tx_bytes
                  from ${table} where bucket >= ${to}::timestamptz and bucket < ${now.toISOString()}::timestamptz) t
         group by project_id, sn having sum(samples) > 0),
      v as (
        select s.project_id, s.sn, d.type in (select jsonb_array_elements_text(${JSON.stringify(AP_TYPES)}::jsonb)) as ap,
               s.cw / s.n as clients, s.pw / s.n as cpu, s.mw / s.n as memory, s.bytes
          from sums s join devices d on d.sn = s.sn and d.project_id = s.project_id),
      ranked as (
        select v.*,
               row_number() over (partition by project_id order by clients desc, sn) as rc,
               row_number() over (partition by project_id order by cpu desc, sn) as rp,
               row_number() over (partition by project_id order by memory desc, sn) as rm,
               row_number() over (partition by project_id order by bytes desc, sn) as rb,
               row_number() over (partition by project_id, ap order by clients desc, sn) as rac,
               row_number() over (partition by project_id, ap order by bytes desc, sn) as rab
          from v)
      select ${range}, project_id, sn, clients, cpu, memory, bytes, rc, rp, rm, rb,
             case when ap then rac end, case when ap then rab end
        from ranked
       where least(rc, rp, rm, rb) <= ${STATS_TOP} or (ap and least(rac, rab) <= ${STATS_TOP})`);
    await db.execute(sql`
      insert into stats_top_state (range, top_start, span_end, computed_at)
      values (${range}, ${from}::timestamptz, ${to}::timestamptz, ${now.toISOString()}::timestamptz)
      on conflict (range) do update set top_start = excluded.top_start, span_end = excluded.span_end,
        computed_at = excluded.computed_at`);
    if (timings) timings[`top ${range}`] = Math.round(performance.now() - began);
  }
}

const slotKey = (at: Date) => `${STATS_ROLLUP_JOB}:${Math.floor(at.getTime() / ROLLUP_INTERVAL_MS) + 1}`;
const slotTime = (at: Date) =>
  new Date((Math.floor(at.getTime() / ROLLUP_INTERVAL_MS) + 1) * ROLLUP_INTERVAL_MS);

export function registerStatsRollup(
  runner: JobRunner,
  deps: { database: Database; log: Pick<FastifyBaseLogger, 'info' | 'warn'> },
): void {
  runner.register(
    STATS_ROLLUP_JOB,
    async ({ tx, now }) => {
      const { dropped } = await maintainPartitions(deps.database, now);
      if (dropped.length) deps.log.info({ dropped }, 'stats: partitions past retention dropped');
      const started = performance.now();
      const timings: Record<string, number> = {};
      const marks = await rollUp(tx, now, { timings });
      const ms = Math.round(performance.now() - started);
      // Jobs run one at a time per instance: a rollup this long holds the others back.
      if (ms > SLOW_ROLLUP_MS) deps.log.warn({ ms, marks, timings }, 'stats: rollup run slow');
      await addJobs(tx, [{ kind: STATS_ROLLUP_JOB, key: slotKey(now), runAt: slotTime(now) }]);
    },
    { deferWhileBusy: true },
  );
}

/** Starts the chain (every instance at start; the slot key keeps it one). */
export async function startStatsRollup(db: DbOrTx, now: Date): Promise<void> {
  await addJobs(db, [{ kind: STATS_ROLLUP_JOB, key: slotKey(now), runAt: slotTime(now) }]);
}
