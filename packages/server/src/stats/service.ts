import {
  AppError,
  Codes,
  type DeviceStatsView,
  type NamedSeries,
  type ProjectStatsView,
  parseOrThrow,
  STATS_RANGE_LEVEL,
  STATS_RANGE_MS,
  STATS_SSID_SERIES_MAX,
  STATS_TOP,
  type StatsPoint,
  StatsQuery,
  type StatsRange,
  type StatusSummaryView,
  type TopDevice,
} from '@beacon/protocol';
import { type SQL, sql } from 'drizzle-orm';
import type { Caller } from '../auth/principal.ts';
import type { DbOrTx } from '../db/client.ts';
import type { Deps } from '../deps.ts';
import { normaliseSn } from '../devices/service.ts';
import { loadProjectAccess } from '../projects/access.ts';
import { AP_TYPES, topFreshMs } from './rollup.ts';
import { topKeys } from './top-keys.ts';

/**
 * Reads of the statistics (docs/decisions/0034). Which table a range reads:
 * - project charts (Status WAN series, Device data charts): `stats_project_5m` up to 72 h,
 *   `stats_project_1h` for 7 d and 30 d (one row per bucket, whatever the project's size);
 * - top lists and per-band / per-SSID series: the hourly device rollup up to 72 h, the daily one
 *   for 7 d and 30 d (the range then starts at 00:00 UTC of its first day);
 * - one device's charts: its raw samples bucketed to 5 minutes for 12 h, the 5-minute rollup to
 *   72 h, the hourly one for 7 d and 30 d.
 */

type ServiceDeps = Pick<Deps, 'database' | 'now'>;

/** The offline statuses (SPEC.md §4: 0 and 9) as an SQL array. */

interface Window {
  range: StatsRange;
  now: number;
  from: number;
  bucketMs: number;
  /** First bucket's start (the range's start floored to the bucket). */
  start: number;
  level: '5m' | '1h';
  /** Level of top lists and dimension series. */
  topLevel: '1h' | '1d';
  topStart: number;
}

function windowOf(range: StatsRange, now: Date): Window {
  const { level, bucketMs } = STATS_RANGE_LEVEL[range];
  const t = now.getTime();
  const from = t - STATS_RANGE_MS[range];
  const topLevel = level === '5m' ? '1h' : '1d';
  const topMs = topLevel === '1h' ? 3_600_000 : 86_400_000;
  return {
    range,
    now: t,
    from,
    bucketMs,
    start: Math.floor(from / bucketMs) * bucketMs,
    level,
    topLevel,
    topStart: Math.floor(from / topMs) * topMs,
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

async function rows<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Bits per second of `bytes` moved in the bucket at `at` (the current bucket: over its elapsed part). */
function bps(bytes: number | null, at: number, w: { bucketMs: number; now: number }): number | null {
  if (bytes === null) return null;
  const seconds = Math.max(1, Math.min(w.bucketMs, w.now - at) / 1000);
  return Math.round((bytes * 8) / seconds);
}

function bucketsOf(start: number, end: number, bucketMs: number): number[] {
  const out: number[] = [];
  for (let t = start; t < end; t += bucketMs) out.push(t);
  return out;
}

async function access(deps: ServiceDeps, caller: Caller, projectId: number, input: unknown) {
  const query = parseOrThrow(StatsQuery, input ?? {});
  await loadProjectAccess(deps.database.db, caller, projectId, { now: deps.now() });
  return { query, w: windowOf(query.range, deps.now()) };
}

interface TopRow {
  sn: string;
  name: string;
  model: string;
  type: string;
  clients: number;
  bytes: number;
  cpu: number;
  memory: number;
}

type TopOrder = 'clients' | 'bytes' | 'cpu' | 'memory';

type KeptLists = Partial<Record<`${'' | 'ap_'}${TopOrder}`, TopRow[]>>;

/**
 * The top lists as the rollup job ranked them (stats_top, decision 0044), all of a range in one
 * query, when it ranked this range's window (same start) lately; null otherwise (then each list is
 * computed here). `ap`: the Status screen's lists among APs (clients, bytes), else the four lists.
 */
async function keptTop(
  db: DbOrTx,
  projectId: number,
  w: Window,
  limit: number,
  ap: boolean,
): Promise<KeptLists | null> {
  const orders: TopOrder[] = ap ? ['clients', 'bytes'] : ['clients', 'bytes', 'cpu', 'memory'];
  const ranks = orders.map((o) => `t.rank_${ap ? 'ap_' : ''}${o}`);
  const list = await rows<Record<string, unknown>>(
    db,
    sql`select st.top_start, st.computed_at, t.sn, d.name, d.model, d.type, t.clients, t.bytes, t.cpu, t.memory,
               ${sql.raw(ranks.map((r, i) => `${r} as r${i}`).join(', '))}
          from stats_top_state st
          left join stats_top t on t.range = st.range and t.project_id = ${projectId}
               and least(${sql.raw(ranks.join(', '))}) <= ${limit}
          left join devices d on d.sn = t.sn and d.project_id = t.project_id
         where st.range = ${w.range}`,
  );
  const state = list[0];
  if (
    !state ||
    new Date(state.top_start as string).getTime() !== w.topStart ||
    Math.abs(w.now - new Date(state.computed_at as string).getTime()) > topFreshMs(w.range)
  )
    return null;
  const ranked = list.filter((r) => r.sn !== null && r.name !== null);
  const out: KeptLists = {};
  orders.forEach((o, i) => {
    out[`${ap ? 'ap_' : ''}${o}`] = ranked
      .filter((r) => r[`r${i}`] !== null && Number(r[`r${i}`]) <= limit)
      .sort((a, b) => Number(a[`r${i}`]) - Number(b[`r${i}`]))
      .map(topRow);
  });
  return out;
}

const topRow = (r: Record<string, unknown>): TopRow => ({
  sn: String(r.sn),
  name: String(r.name),
  model: String(r.model),
  type: String(r.type),
  clients: round(Number(r.clients)),
  bytes: Number(r.bytes),
  cpu: round(Number(r.cpu)),
  memory: round(Number(r.memory)),
});

async function topDevices(
  db: DbOrTx,
  projectId: number,
  w: Window,
  order: TopOrder,
  limit: number,
  types?: readonly string[],
  kept?: KeptLists | null,
): Promise<TopRow[]> {
  const keptList = kept?.[`${types === AP_TYPES ? 'ap_' : ''}${order}`];
  if (keptList) return keptList;
  const table = sql.raw(`stats_device_${w.topLevel}`);
  const orderBy = sql.raw(order);
  const typeFilter = types
    ? sql`and d.type in (select jsonb_array_elements_text(${JSON.stringify(types)}::jsonb))`
    : sql``;
  const list = await rows<Record<string, unknown>>(
    db,
    sql`select s.sn, d.name, d.model, d.type,
          sum(s.clients_avg * s.samples) / sum(s.samples) as clients,
          sum(s.rx_bytes + s.tx_bytes) as bytes,
          sum(s.cpu_avg * s.samples) / sum(s.samples) as cpu,
          sum(s.memory_avg * s.samples) / sum(s.samples) as memory
        from ${table} s join devices d on d.sn = s.sn and d.project_id = s.project_id
        where s.project_id = ${projectId} and s.bucket >= ${iso(w.topStart)}::timestamptz
          and s.bucket < ${iso(w.now)}::timestamptz ${typeFilter}
        group by s.sn, d.name, d.model, d.type
        order by ${orderBy} desc, s.sn limit ${limit}`,
  );
  return list.map(topRow);
}

const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;
const topView = (r: TopRow): TopDevice => ({
  sn: r.sn,
  name: r.name,
  model: r.model,
  type: r.type,
  clients: r.clients,
  bytes: r.bytes,
});

/** GET /projects/:id/stats/status */
export async function statusSummary(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  input: unknown,
): Promise<StatusSummaryView> {
  const { w } = await access(deps, caller, projectId, input);
  const { db } = deps.database;
  const table = sql.raw(`stats_project_${w.level}`);
  // Three independent reads at once (each its own pooled connection).
  const [byType, wanRows, kept] = await Promise.all([
    rows<{ type: string; online: number; offline: number; clients: number }>(
      db,
      // The kept counts (decision 0069, migration 0030): a project's delta rows, not its devices.
      sql`select type, sum(online)::int as online, sum(offline)::int as offline, sum(clients)::int as clients
        from device_count_deltas where project_id = ${projectId}
        group by type having sum(online) + sum(offline) > 0 order by type`,
    ),
    rows<{ bucket: string | Date; rx: unknown; tx: unknown }>(
      db,
      sql`select bucket, wan_rx_bytes as rx, wan_tx_bytes as tx from ${table}
        where project_id = ${projectId} and bucket >= ${iso(w.start)}::timestamptz and bucket < ${iso(w.now)}::timestamptz`,
    ),
    keptTop(db, projectId, w, 5, true),
  ]);
  const wanBy = new Map(wanRows.map((r) => [new Date(r.bucket).getTime(), r]));
  const wan = bucketsOf(w.start, w.now, w.bucketMs).map((at) => {
    const r = wanBy.get(at);
    return {
      at: iso(at),
      rxBps: bps(num(r?.rx) ?? 0, at, w) ?? 0,
      txBps: bps(num(r?.tx) ?? 0, at, w) ?? 0,
    };
  });
  const [topByClients, topByThroughput] = await Promise.all([
    topDevices(db, projectId, w, 'clients', 5, AP_TYPES, kept),
    topDevices(db, projectId, w, 'bytes', 5, AP_TYPES, kept),
  ]);
  return {
    range: w.range,
    from: iso(w.from),
    to: iso(w.now),
    bucketSeconds: w.bucketMs / 1000,
    devices: {
      online: byType.reduce((a, r) => a + r.online, 0),
      offline: byType.reduce((a, r) => a + r.offline, 0),
      byType: byType.map((r) => ({ type: r.type, online: r.online, offline: r.offline })),
    },
    clientsNow: byType.reduce((a, r) => a + r.clients, 0),
    wan,
    topByClients: topByClients.map(topView),
    topByThroughput: topByThroughput.map(topView),
  };
}

/** Series per key of a dimension (radio bands, SSIDs, ports) from rows of (bucket, key, clients, rx, tx). */
type SeriesRow = { bucket: string | Date; key: string; clients: unknown; rx: unknown; tx: unknown };

/** The rows of the `max` keys with the most clients over the rows, and how many keys were left out. */
function keepTopKeys(list: SeriesRow[], max: number): { kept: SeriesRow[]; omitted: number } {
  const clients = new Map<string, number>();
  for (const r of list) clients.set(r.key, (clients.get(r.key) ?? 0) + (num(r.clients) ?? 0));
  const keep = topKeys(clients, max);
  return { kept: list.filter((r) => keep.has(r.key)), omitted: clients.size - keep.size };
}

function seriesOf(list: SeriesRow[], buckets: number[], w: { bucketMs: number; now: number }): NamedSeries[] {
  const byKey = new Map<string, Map<number, (typeof list)[number]>>();
  for (const r of list) {
    const m = byKey.get(r.key) ?? new Map<number, (typeof list)[number]>();
    byKey.set(r.key, m);
    m.set(new Date(r.bucket).getTime(), r);
  }
  return [...byKey.entries()]
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([key, m]) => ({
      key,
      points: buckets.map((at) => {
        const r = m.get(at);
        const clients = num(r?.clients);
        return {
          at: iso(at),
          clients: clients === null ? null : round(clients),
          rxBps: r ? bps(num(r.rx), at, w) : null,
          txBps: r ? bps(num(r.tx), at, w) : null,
        };
      }),
    }));
}

/** GET /projects/:id/stats/devices */
export async function projectStats(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  input: unknown,
): Promise<ProjectStatsView> {
  const { w } = await access(deps, caller, projectId, input);
  const { db } = deps.database;
  const table = sql.raw(`stats_project_${w.level}`);
  const dimTable = sql.raw(`stats_project_dim_${w.topLevel}`);
  const topMs = w.topLevel === '1h' ? 3_600_000 : 86_400_000;
  // Independent reads at once (each its own pooled connection).
  const [list, kept, dims] = await Promise.all([
    rows<Record<string, unknown>>(
      db,
      sql`select bucket, cpu_avg, memory_avg, clients, rx_bytes, tx_bytes from ${table}
        where project_id = ${projectId} and bucket >= ${iso(w.start)}::timestamptz and bucket < ${iso(w.now)}::timestamptz`,
    ),
    keptTop(db, projectId, w, STATS_TOP, false),
    // The project's own band and SSID rollup (decision 0044): one row per bucket and key.
    rows<{ kind: string; bucket: string; key: string; clients: unknown; rx: unknown; tx: unknown }>(
      db,
      sql`select kind, bucket, key, clients, rx_bytes as rx, tx_bytes as tx
        from ${dimTable} where project_id = ${projectId}
          and bucket >= ${iso(w.topStart)}::timestamptz and bucket < ${iso(w.now)}::timestamptz`,
    ),
  ]);
  const by = new Map(list.map((r) => [new Date(r.bucket as string).getTime(), r]));
  const points: StatsPoint[] = bucketsOf(w.start, w.now, w.bucketMs).map((at) => {
    const r = by.get(at);
    return {
      at: iso(at),
      cpu: r ? round(Number(r.cpu_avg)) : null,
      memory: r ? round(Number(r.memory_avg)) : null,
      clients: r ? round(Number(r.clients)) : null,
      rxBps: r ? bps(num(r.rx_bytes), at, w) : null,
      txBps: r ? bps(num(r.tx_bytes), at, w) : null,
    };
  });
  const [cpu, memory, clients, traffic] = await Promise.all([
    topDevices(db, projectId, w, 'cpu', STATS_TOP, undefined, kept),
    topDevices(db, projectId, w, 'memory', STATS_TOP, undefined, kept),
    topDevices(db, projectId, w, 'clients', STATS_TOP, undefined, kept),
    topDevices(db, projectId, w, 'bytes', STATS_TOP, undefined, kept),
  ]);
  const dimBuckets = bucketsOf(w.topStart, w.now, topMs);
  const dw = { bucketMs: topMs, now: w.now };
  const ssids = keepTopKeys(
    dims.filter((d) => d.kind === 'ssid'),
    STATS_SSID_SERIES_MAX,
  );
  return {
    range: w.range,
    from: iso(w.from),
    to: iso(w.now),
    bucketSeconds: w.bucketMs / 1000,
    points,
    top: {
      cpu: cpu.map((r) => ({ ...topView(r), value: r.cpu })),
      memory: memory.map((r) => ({ ...topView(r), value: r.memory })),
      clients: clients.map(topView),
      traffic: traffic.map(topView),
    },
    seriesBucketSeconds: topMs / 1000,
    bands: seriesOf(
      dims.filter((d) => d.kind === 'radio'),
      dimBuckets,
      dw,
    ),
    ssids: seriesOf(ssids.kept, dimBuckets, dw),
    ssidsOmitted: ssids.omitted,
  };
}

/** GET /projects/:id/stats/devices/:sn */
export async function deviceStats(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  rawSn: string,
  input: unknown,
): Promise<DeviceStatsView> {
  const { w } = await access(deps, caller, projectId, input);
  const { db } = deps.database;
  const sn = normaliseSn(rawSn);
  const [device] = await rows<{ sn: string }>(
    db,
    sql`select sn from devices where sn = ${sn} and project_id = ${projectId}`,
  );
  if (!device) throw new AppError(Codes.DEVICE_DELETED, 'The device is not in this project');
  const raw = w.range === '12h';
  const b = w.bucketMs / 1000;
  const bucketExpr = sql.raw(raw ? `to_timestamp(floor(extract(epoch from at) / ${b}) * ${b})` : 'bucket');
  const timeCol = sql.raw(raw ? 'at' : 'bucket');
  const deviceTable = sql.raw(raw ? 'stats_device' : `stats_device_${w.level}`);
  const dimTable = sql.raw(raw ? 'stats_dim' : `stats_dim_${w.level}`);
  const range = sql`${timeCol} >= ${iso(w.start)}::timestamptz and ${timeCol} < ${iso(w.now)}::timestamptz`;
  const list = await rows<Record<string, unknown>>(
    db,
    raw
      ? sql`select ${bucketExpr} as bucket, avg(cpu) as cpu, avg(memory) as memory, avg(clients) as clients,
              sum(rx_bytes) as rx, sum(tx_bytes) as tx
            from ${deviceTable} where sn = ${sn} and project_id = ${projectId} and ${range} group by 1`
      : sql`select bucket, sum(cpu_avg * samples) / sum(samples) as cpu, sum(memory_avg * samples) / sum(samples) as memory,
              sum(clients_avg * samples) / sum(samples) as clients, sum(rx_bytes) as rx, sum(tx_bytes) as tx
            from ${deviceTable} where sn = ${sn} and project_id = ${projectId} and ${range} group by 1`,
  );
  const by = new Map(list.map((r) => [new Date(r.bucket as string).getTime(), r]));
  const buckets = bucketsOf(w.start, w.now, w.bucketMs);
  const points: StatsPoint[] = buckets.map((at) => {
    const r = by.get(at);
    return {
      at: iso(at),
      cpu: r ? round(Number(r.cpu)) : null,
      memory: r ? round(Number(r.memory)) : null,
      clients: r ? round(Number(r.clients)) : null,
      rxBps: r ? bps(num(r.rx), at, w) : null,
      txBps: r ? bps(num(r.tx), at, w) : null,
    };
  });
  const dims = await rows<{
    kind: string;
    bucket: string;
    key: string;
    clients: unknown;
    rx: unknown;
    tx: unknown;
  }>(
    db,
    raw
      ? sql`select kind, ${bucketExpr} as bucket, key, avg(clients) as clients, sum(rx_bytes) as rx, sum(tx_bytes) as tx
            from ${dimTable} where sn = ${sn} and project_id = ${projectId} and ${range} group by 1, 2, 3`
      : sql`select kind, bucket, key, sum(clients_avg * samples) / sum(samples) as clients, sum(rx_bytes) as rx,
              sum(tx_bytes) as tx
            from ${dimTable} where sn = ${sn} and project_id = ${projectId} and ${range} group by 1, 2, 3`,
  );
  const of = (kind: string) =>
    seriesOf(
      dims.filter((d) => d.kind === kind),
      buckets,
      w,
    );
  return {
    sn,
    range: w.range,
    from: iso(w.from),
    to: iso(w.now),
    bucketSeconds: b,
    points,
    ports: of('port'),
    radios: of('radio'),
    ssids: of('ssid'),
  };
}
