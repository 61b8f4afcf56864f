import {
  AddBlacklistBody,
  AppError,
  type BlacklistView,
  Capability,
  CLIENT_BLACKLIST_MAX,
  CLIENT_OFFLINE_HOURS,
  CLIENT_STAT_RANGE_MS,
  ClientListQuery,
  type ClientPage,
  ClientStatsQuery as ClientStatsQuerySchema,
  type ClientStatsView,
  Codes,
  errorMessage,
  ForceOfflineBody,
  type ForceOfflineView,
  hasCapability,
  ManagementMode,
  modelInfo,
  parseOrThrow,
  STATS_SSID_SERIES_MAX,
} from '@beacon/protocol';
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Caller } from '../auth/principal.ts';
import type { DbOrTx } from '../db/client.ts';
import { clientBlacklist, devices } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { selectDevices } from '../devices/row.ts';
import type { CommandActor, CommandScope } from '../gateway/commands.ts';
import { loadProjectAccess, requireWritable } from '../projects/access.ts';
import { type WriteCaller, withProjectWrite } from '../projects/write.ts';
import { topKeys } from '../stats/top-keys.ts';
import { setBlacklistSection } from './deliver.ts';
import { dropClient, ensureClientPartitions } from './ingest.ts';
import { SAMPLE_MS } from './upkeep.ts';

/** Online clients, their statistics, force offline and the blacklist (decision 0035). */

/**
 * Sort keys of the list: the column, its type (a cursor's value is cast back to it) and whether it
 * can be null (nulls come last in either direction). `flip` sorts by the column the other way
 * (online longest = joined earliest). A null column sorts by MAC alone. Ties always go by MAC asc.
 */
interface SortKey {
  column: string | null;
  type: string;
  nullable: boolean;
  flip: boolean;
}
const key = (column: string | null, type: string, nullable = false, flip = false): SortKey => ({
  column,
  type,
  nullable,
  flip,
});
const COMMON_SORT = {
  name: key('c.name', 'text'),
  ip: key('c.ip', 'text'),
  mac: key('c.mac', 'text'),
  ssid: key('c.ssid', 'text', true),
  band: key('c.band', 'text', true),
  rssi: key('c.rssi', 'smallint', true),
  txBytes: key('c.tx_bytes', 'bigint'),
  rxBytes: key('c.rx_bytes', 'bigint'),
  txRate: key('c.tx_rate', 'real'),
  rxRate: key('c.rx_rate', 'real'),
  kind: key('c.kind', 'text'),
} as const;
const SORTS: Record<'online' | 'offline', Record<ClientListQuery['sort'], SortKey>> = {
  online: {
    ...COMMON_SORT,
    // Online longest = joined earliest: the index online_clients_joined_idx (migration 0015).
    onlineSeconds: key('c.joined_at', 'timestamptz', false, true),
    offlineSeconds: key(null, 'text'),
    device: key('d.name', 'text'),
  },
  offline: {
    ...COMMON_SORT,
    rssi: key(null, 'text'),
    txRate: key(null, 'text'),
    rxRate: key(null, 'text'),
    onlineSeconds: key('c.online_for', 'interval'),
    // Offline for longest = left earliest.
    offlineSeconds: key('c.left_at', 'timestamptz', false, true),
    device: key('d.name', 'text', true),
  },
};

const like = (v: string) => `%${v.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

interface ClientRow extends Record<string, unknown> {
  mac: string;
  name: string;
  ip: string;
  ssid: string | null;
  band: string | null;
  rssi: number | null;
  tx_bytes: string | number;
  rx_bytes: string | number;
  tx_rate: number;
  rx_rate: number;
  sn: string;
  device_name: string | null;
  device_model: string | null;
  kind: string;
  wired: boolean;
  vlan: number | null;
  joined_at: Date | string;
  seen_at: Date | string;
  left_at: Date | string | null;
  sort_key: string | null;
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();
const ms = (d: Date | string) => (d instanceof Date ? d : new Date(d)).getTime();

/**
 * What the list reads, one shape for both: the clients online now (on devices that are online,
 * read in the order of an index for the default sort), or those that left in the latest
 * CLIENT_OFFLINE_HOURS and are not back (their latest session each). Aliases: `c` the client,
 * `d` its device.
 */
function clientSource(projectId: number, status: 'online' | 'offline', now: Date) {
  if (status === 'online') {
    return {
      columns: sql`c.mac, c.name, c.ip, c.ssid, c.band, c.rssi, c.tx_bytes, c.rx_bytes, c.tx_rate, c.rx_rate,
             c.sn, c.kind, c.wired, c.vlan, c.joined_at,
             greatest(c.seen_at, ds.telemetry_at) as seen_at, null::timestamptz as left_at`,
      from: sql`online_clients c
        join device_state ds on ds.sn = c.sn
        join devices d on d.sn = c.sn and d.project_id = c.project_id`,
      where: sql`c.project_id = ${projectId} and ds.status not in (0, 9)`,
    };
  }
  const since = new Date(now.getTime() - CLIENT_OFFLINE_HOURS * 3_600_000).toISOString();
  return {
    columns: sql`c.mac, c.name, c.ip, c.ssid, c.band, c.rssi, c.tx_bytes, c.rx_bytes, c.tx_rate, c.rx_rate,
           c.sn, c.kind, c.wired, c.vlan, c.joined_at, c.seen_at, c.left_at`,
    from: sql`(select distinct on (s.mac) s.mac, s.name, s.ip, s.ssid, s.band, null::smallint as rssi, s.tx_bytes,
           s.rx_bytes, 0::real as tx_rate, 0::real as rx_rate, s.sn, s.kind, false as wired,
           null::integer as vlan, s.started_at as joined_at, s.ended_at as seen_at,
           s.ended_at as left_at, s.ended_at - s.started_at as online_for
      from client_sessions s
     where s.project_id = ${projectId} and s.ended_at >= ${since}::timestamptz
       and not exists (select 1 from online_clients o where o.project_id = ${projectId} and o.mac = s.mac)
     order by s.mac, s.ended_at desc) c
      left join devices d on d.sn = c.sn`,
    where: sql`true`,
  };
}

/** A page cursor: the list it belongs to (status, sort, order) and its last row's sort key and MAC. */
interface Cursor {
  l: string;
  v: string | null;
  m: string;
}
const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
function decodeCursor(raw: string, list: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    if (
      c &&
      c.l === list &&
      typeof c.m === 'string' &&
      c.m.length <= 64 &&
      (c.v === null || (typeof c.v === 'string' && c.v.length <= 256))
    )
      return c;
  } catch {}
  throw new AppError(Codes.PAGE_CURSOR, undefined, { cursor: 'Not a cursor of this list' });
}

/**
 * The rows after the cursor in `ORDER BY col dir NULLS LAST, mac ASC`. Ascending without nulls is
 * a row comparison, which an index on (…, col, mac) answers directly.
 */
function afterCursor(k: SortKey, desc: boolean, c: Cursor): SQL {
  if (!k.column) return sql`c.mac > ${c.m}`;
  const col = sql.raw(k.column);
  if (c.v === null) return sql`(${col} is null and c.mac > ${c.m})`;
  const v = sql`${c.v}::${sql.raw(k.type)}`;
  // Descending: `col <= v` bounds the index scan (migration 0027's descending indexes), the rest
  // drops the rows of the cursor's own value up to its MAC.
  const past = desc
    ? sql`(${col} <= ${v} and (${col} < ${v} or c.mac > ${c.m}))`
    : sql`(${col}, c.mac) > (${v}, ${c.m})`;
  return k.nullable ? sql`(${past} or ${col} is null)` : past;
}

/** A project's clients online now, as kept by the triggers of migration 0015 (decision 0044). */
export async function onlineClientCount(db: DbOrTx, projectId: number): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(
    sql`select coalesce(sum(delta), 0)::int as n from client_online_deltas where project_id = ${projectId}`,
  );
  return rows[0]?.n ?? 0;
}

export async function listClients(
  deps: Deps,
  caller: Caller,
  projectId: number,
  input: z.input<typeof ClientListQuery>,
): Promise<ClientPage> {
  const q = parseOrThrow(ClientListQuery, input);
  const { db } = deps.database;
  const nowDate = deps.now();
  await loadProjectAccess(db, caller, projectId, { now: nowDate });
  const where: SQL[] = [];
  // A substring of the name, IP or MAC is also a substring of the three together: the online list
  // finds the candidates through the trigram index on that expression (migration 0027), then checks
  // the field itself. Patterns under three characters have no trigram; PostgreSQL scans then.
  const searched = (p: string) => {
    if (q.status === 'online') where.push(sql`(c.name || ' ' || c.ip || ' ' || c.mac) ilike ${p}`);
  };
  if (q.q) {
    const p = like(q.q);
    searched(p);
    where.push(sql`(c.name ilike ${p} or c.ip ilike ${p} or c.mac ilike ${p})`);
  }
  for (const [field, column] of [
    [q.ip, 'c.ip'],
    [q.mac, 'c.mac'],
    [q.name, 'c.name'],
  ] as const) {
    if (!field) continue;
    const p = like(field);
    searched(p);
    where.push(sql`${sql.raw(column)} ilike ${p}`);
  }
  if (q.model) where.push(sql`d.model ilike ${like(q.model)}`);
  if (q.vlan !== undefined) where.push(sql`c.vlan = ${q.vlan}`);
  if (q.ssid) where.push(sql`c.ssid = ${q.ssid}`);
  if (q.band) where.push(sql`c.band = ${q.band}`);
  if (q.kind) where.push(sql`c.kind = ${q.kind}`);
  if (q.sn) where.push(sql`c.sn = ${q.sn.toUpperCase()}`);
  if (q.wired) where.push(sql`c.wired = ${q.wired === 'true'}`);
  const source = clientSource(projectId, q.status, nowDate);
  const k = SORTS[q.status][q.sort];
  const desc = k.flip ? q.order === 'asc' : q.order === 'desc';
  const list = `${q.status}:${q.sort}:${q.order}`;
  const cursor = q.cursor ? decodeCursor(q.cursor, list) : null;
  const filter = sql.join([source.where, ...where], sql` and `);
  const page = cursor ? sql.join([filter, afterCursor(k, desc, cursor)], sql` and `) : filter;
  const order = sql.raw(
    k.column ? `${k.column} ${desc ? 'desc' : 'asc'} nulls last, c.mac asc` : 'c.mac asc',
  );
  const sortKey = k.column ? sql.raw(`(${k.column})::text`) : sql`null::text`;
  // One row more than the page: whether there is a next page (and its cursor). The total at the
  // same time: the kept count for the whole online list, a count of the filtered rows otherwise.
  const [{ rows }, total] = await Promise.all([
    db.execute<ClientRow>(sql`
    select ${source.columns}, d.name as device_name, d.model as device_model, ${sortKey} as sort_key
      from ${source.from}
     where ${page}
     order by ${order}
     limit ${q.pageSize + 1} offset ${cursor ? 0 : (q.page - 1) * q.pageSize}`),
    q.status === 'online' && where.length === 0
      ? onlineClientCount(db, projectId)
      : db
          .execute<{ n: number }>(sql`select count(*)::int as n from ${source.from} where ${filter}`)
          .then((r) => r.rows[0].n),
  ]);
  const more = rows.length > q.pageSize;
  if (more) rows.length = q.pageSize;
  const last = rows.at(-1);
  const now = nowDate.getTime();
  return {
    items: rows.map((r) => ({
      mac: r.mac,
      name: r.name,
      ip: r.ip,
      ssid: r.ssid,
      band: r.band,
      rssi: r.rssi,
      txBytes: Number(r.tx_bytes),
      rxBytes: Number(r.rx_bytes),
      txRate: r.tx_rate,
      rxRate: r.rx_rate,
      onlineSeconds: Math.max(0, Math.round(((r.left_at ? ms(r.left_at) : now) - ms(r.joined_at)) / 1000)),
      offlineSeconds: r.left_at ? Math.max(0, Math.round((now - ms(r.left_at)) / 1000)) : null,
      sn: r.sn,
      deviceName: r.device_name,
      deviceModel: r.device_model,
      kind: r.kind,
      wired: r.wired,
      vlan: r.vlan,
      joinedAt: iso(r.joined_at),
      seenAt: iso(r.seen_at),
    })),
    total,
    page: q.page,
    pageSize: q.pageSize,
    nextCursor: more && last ? encodeCursor({ l: list, v: last.sort_key, m: last.mac }) : null,
  };
}

/** Bucket of each chart range: about 100 to 150 points a series. */
const BUCKET_MS: Record<keyof typeof CLIENT_STAT_RANGE_MS, number> = {
  '12h': SAMPLE_MS,
  '24h': 2 * SAMPLE_MS,
  '72h': 6 * SAMPLE_MS,
  '7d': 12 * SAMPLE_MS,
  '30d': 72 * SAMPLE_MS,
};

export async function clientStats(
  deps: Deps,
  caller: Caller,
  projectId: number,
  input: z.input<typeof ClientStatsQuerySchema>,
): Promise<ClientStatsView> {
  const q = parseOrThrow(ClientStatsQuerySchema, input);
  const { db } = deps.database;
  const nowDate = deps.now();
  await loadProjectAccess(db, caller, projectId, { now: nowDate });
  const bucket = BUCKET_MS[q.range];
  const to = Math.floor(nowDate.getTime() / bucket) * bucket + bucket;
  const from = to - Math.ceil(CLIENT_STAT_RANGE_MS[q.range] / bucket) * bucket;
  const fromIso = new Date(from).toISOString();
  const toIso = new Date(to).toISOString();
  // Per sample, the clients of each band (or SSID); per bucket, the most of its samples.
  const seriesBy = async (column: 'band' | 'ssid' | 'total') => {
    const group = column === 'total' ? sql.raw(`'total'`) : sql.raw(column);
    const { rows } = await db.execute<{ b: string | number; k: string; n: number }>(sql`
      select floor(extract(epoch from at) * 1000 / ${bucket}) * ${bucket} as b, k, max(n)::int as n
        from (select at, ${group} as k, sum(clients) as n from client_counts
               where project_id = ${projectId} and at >= ${fromIso}::timestamptz and at < ${toIso}::timestamptz
               group by at, k) s
       group by b, k order by b`);
    const byKey = new Map<string, Map<number, number>>();
    const put = (k: string, b: number, n: number) => {
      const m = byKey.get(k) ?? new Map<number, number>();
      m.set(b, Math.max(m.get(b) ?? 0, n));
      byKey.set(k, m);
    };
    for (const r of rows) put(r.k, Number(r.b), r.n);
    // The current bucket also counts the clients online now (a sample comes every 5 minutes).
    const key =
      column === 'band'
        ? sql.raw(`coalesce(oc.band, case when oc.wired then 'wired' else 'unknown' end)`)
        : column === 'ssid'
          ? sql.raw(`coalesce(oc.ssid, '')`)
          : sql.raw(`'total'`);
    const { rows: live } = await db.execute<{ k: string; n: number }>(sql`
      select ${key} as k, count(*)::int as n from online_clients oc
        join device_state ds on ds.sn = oc.sn
        join devices od on od.sn = oc.sn and od.project_id = oc.project_id
       where oc.project_id = ${projectId} and ds.status not in (0, 9) group by 1`);
    for (const r of live) put(r.k, to - bucket, r.n);
    // Every bucket of the range is a point (0 when no client was sampled in it).
    const times: number[] = [];
    for (let t = from; t < to; t += bucket) times.push(t);
    // The SSIDs with the most clients (stats/top-keys.ts), as on the Device data chart.
    const keep = topKeys(
      new Map([...byKey].map(([k, m]) => [k, [...m.values()].reduce((a, b) => a + b, 0)])),
      STATS_SSID_SERIES_MAX,
    );
    const kept = [...byKey].filter(([k]) => keep.has(k));
    const series = kept
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, m]) => ({ key, points: times.map((t) => [t, m.get(t) ?? 0] as [number, number]) }));
    return { series, omitted: byKey.size - kept.length };
  };
  const [bands, ssids, totals] = await Promise.all([seriesBy('band'), seriesBy('ssid'), seriesBy('total')]);
  const [byBand, bySsid, total] = [bands.series, ssids.series, totals.series];
  const since = new Date(nowDate.getTime() - q.days * 86_400_000).toISOString();
  const pie = async (column: 'band' | 'ssid' | 'kind') => {
    const col = sql.raw(column);
    const { rows } = await db.execute<{ k: string | null; n: number }>(sql`
      select ${col} as k, count(distinct mac)::int as n from (
        select mac, band, ssid, kind from client_sessions
         where project_id = ${projectId} and ended_at >= ${since}::timestamptz
        union all
        select mac, band, ssid, kind from online_clients where project_id = ${projectId}) t
       group by 1 order by 2 desc, 1 limit 20`);
    return rows.map((r) => ({ key: r.k ?? '', count: r.n }));
  };
  const [band, ssid, kind] = await Promise.all([pie('band'), pie('ssid'), pie('kind')]);
  const online = await onlineClientCount(db, projectId);
  const totalSeries = total[0]?.points ?? [];
  return {
    range: q.range,
    from: fromIso,
    to: toIso,
    bucketSeconds: bucket / 1000,
    total: totalSeries.length ? totalSeries : (await seriesTimes(from, to, bucket)).map((t) => [t, 0]),
    byBand,
    bySsid,
    bySsidOmitted: ssids.omitted,
    days: q.days,
    pies: { band, ssid, kind },
    online,
  };
}

async function seriesTimes(from: number, to: number, bucket: number): Promise<number[]> {
  const times: number[] = [];
  for (let t = from; t < to; t += bucket) times.push(t);
  return times;
}

/** The command records of force offline commit with their audit row (like maintenance actions). */
function kickScope(deps: Deps, caller: WriteCaller, projectId: number, mac: string): CommandScope {
  return {
    projectId,
    transaction: (body) =>
      withProjectWrite(deps, caller, projectId, (write) =>
        body(write.tx, (records) => {
          for (const r of records) {
            write.audit({
              action: 'client-force-offline',
              entity: 'client',
              entityId: `${r.sn}/${mac}`,
              before: null,
              after: { mac, commandId: r.commandId, state: r.state, code: r.code },
            });
          }
        }),
      ),
  };
}

/**
 * Force offline (one or a batch): a kick-client command to each client's device; once the device
 * has dropped it (or says it is not there), the client leaves the online table at once.
 */
export async function forceOffline(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  input: z.input<typeof ForceOfflineBody>,
): Promise<ForceOfflineView> {
  const body = parseOrThrow(ForceOfflineBody, input);
  const { db } = deps.database;
  requireWritable(await loadProjectAccess(db, caller, projectId, { now: deps.now() }));
  const items = [
    ...new Map(
      body.clients.map((c) => {
        const sn = c.sn.toUpperCase();
        const mac = c.mac.toUpperCase();
        return [`${sn}|${mac}`, { sn, mac }];
      }),
    ).values(),
  ];
  const sns = [...new Set(items.map((i) => i.sn))];
  const inProject = new Set(
    (
      await db
        .select({ sn: devices.sn })
        .from(devices)
        .where(and(eq(devices.projectId, projectId), inArray(devices.sn, sns)))
    ).map((r) => r.sn),
  );
  const actor: CommandActor = { accountId: caller.accountId, account: caller.account };
  const results = new Map<string, ForceOfflineView['results'][number]>();
  // One device takes one command at a time: its clients go one after another, devices in parallel.
  await Promise.all(
    sns.map(async (sn) => {
      for (const { mac } of items.filter((i) => i.sn === sn)) {
        const k = `${sn}|${mac}`;
        if (!inProject.has(sn)) {
          results.set(k, {
            sn,
            mac,
            code: Codes.DEVICE_DELETED,
            message: errorMessage(Codes.DEVICE_DELETED),
          });
          continue;
        }
        const outcome = await deps.gateway.commands.send(sn, 'kick-client', { mac }, actor, {
          scope: kickScope(deps, caller, projectId, mac),
        });
        const gone = outcome.code === 0 || outcome.code === Codes.NOT_FOUND;
        if (gone) {
          await ensureClientPartitions(deps.database, deps.now());
          await withProjectWrite(deps, caller, projectId, async (write) => {
            if (await dropClient(write.tx, projectId, sn, mac, write.now)) {
              write.publish({ type: 'clients.changed', projectId, sns: [sn], at: write.now.toISOString() });
            }
          });
        }
        const code = outcome.code === Codes.NOT_FOUND ? Codes.CLIENT_NOT_ONLINE : outcome.code;
        results.set(k, {
          sn,
          mac,
          code,
          message: code === 0 ? null : (outcome.message ?? errorMessage(code)),
        });
      }
    }),
  );
  return { results: items.map((i) => results.get(`${i.sn}|${i.mac}`)!) };
}

async function blacklistOf(db: DbOrTx, projectId: number): Promise<BlacklistView> {
  const rows = await db
    .select()
    .from(clientBlacklist)
    .where(eq(clientBlacklist.projectId, projectId))
    .orderBy(asc(clientBlacklist.mac));
  return {
    items: rows.map((r) => ({
      mac: r.mac,
      note: r.note,
      createdAt: r.createdAt.toISOString(),
      createdBy: r.createdBy,
    })),
    max: CLIENT_BLACKLIST_MAX,
  };
}

export async function getBlacklist(deps: Deps, caller: Caller, projectId: number): Promise<BlacklistView> {
  await loadProjectAccess(deps.database.db, caller, projectId, { now: deps.now() });
  return blacklistOf(deps.database.db, projectId);
}

/**
 * Delivers the blacklist to the project's Wi-Fi devices as the `clientBlacklist` section of their
 * configuration: a new revision for each device whose section differs (config domain, pushed after
 * commit and kept converging by the config job). Devices in local management mode are left out
 * (SPEC.md §4: they cannot be configured from the cloud).
 */
async function deliver(
  deps: Deps,
  caller: WriteCaller,
  tx: DbOrTx,
  projectId: number,
  macs: string[],
  now: Date,
): Promise<string[]> {
  const rows = await selectDevices(tx).where(eq(devices.projectId, projectId));
  const pushed: string[] = [];
  for (const row of rows) {
    const info = modelInfo(row.model);
    if (!info || !hasCapability(info, Capability.WIFI)) continue;
    if (row.managementMode === ManagementMode.LOCAL) continue;
    if (await setBlacklistSection(tx, deps.gateway.commands.secrets, row, macs, caller, now))
      pushed.push(row.sn);
  }
  return pushed;
}

async function changeBlacklist(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  change: (tx: DbOrTx, now: Date) => Promise<{ before: string[]; after: string[]; action: string }>,
): Promise<BlacklistView> {
  const { view, pushed } = await withProjectWrite(
    deps,
    caller,
    projectId,
    async (write) => {
      const { before, after, action } = await change(write.tx, write.now);
      write.audit({ action, entity: 'client-blacklist', entityId: projectId, before, after });
      const pushed = await deliver(deps, caller, write.tx, projectId, after, write.now);
      write.publish({ type: 'clients.changed', projectId, sns: [], at: write.now.toISOString() });
      return { view: await blacklistOf(write.tx, projectId), pushed };
    },
    // Two changes of one project's blacklist are serialised on its row (the limit holds).
    { lock: 'update' },
  );
  for (const sn of pushed) deps.gateway.commands.converge(sn);
  return view;
}

const macsOf = async (tx: DbOrTx, projectId: number) =>
  (
    await tx
      .select({ mac: clientBlacklist.mac })
      .from(clientBlacklist)
      .where(eq(clientBlacklist.projectId, projectId))
      .orderBy(asc(clientBlacklist.mac))
  ).map((r) => r.mac);

export function addToBlacklist(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  input: z.input<typeof AddBlacklistBody>,
): Promise<BlacklistView> {
  const body = parseOrThrow(AddBlacklistBody, input);
  return changeBlacklist(deps, caller, projectId, async (tx, now) => {
    const before = await macsOf(tx, projectId);
    const added = [...new Set(body.macs.map((m) => m.toUpperCase()))].filter((m) => !before.includes(m));
    if (before.length + added.length > CLIENT_BLACKLIST_MAX) {
      throw new AppError(Codes.CLIENT_BLACKLIST_FULL, undefined, {
        macs: `At most ${CLIENT_BLACKLIST_MAX} entries; ${before.length} are used`,
      });
    }
    if (added.length) {
      await tx
        .insert(clientBlacklist)
        .values(
          added.map((mac) => ({
            projectId,
            mac,
            note: body.note,
            createdBy: caller.account,
            createdAt: now,
          })),
        )
        .onConflictDoNothing();
    }
    return { before, after: [...before, ...added].sort(), action: 'client-blacklist-add' };
  });
}

export function removeFromBlacklist(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  mac: string,
): Promise<BlacklistView> {
  const target = mac.toUpperCase();
  return changeBlacklist(deps, caller, projectId, async (tx) => {
    const before = await macsOf(tx, projectId);
    if (!before.includes(target)) {
      throw new AppError(Codes.NOT_FOUND, 'The MAC address is not in the blacklist', { mac: 'Not found' });
    }
    await tx
      .delete(clientBlacklist)
      .where(and(eq(clientBlacklist.projectId, projectId), eq(clientBlacklist.mac, target)));
    return { before, after: before.filter((m) => m !== target), action: 'client-blacklist-remove' };
  });
}
