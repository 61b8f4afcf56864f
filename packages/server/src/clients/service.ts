import {
  AddBlacklistBody,
  AppError,
  type BlacklistView,
  Capability,
  CLIENT_BLACKLIST_MAX,
  CLIENT_STAT_RANGE_MS,
  ClientListQuery,
  ClientStatsQuery as ClientStatsQuerySchema,
  type ClientStatsView,
  type ClientView,
  Codes,
  errorMessage,
  ForceOfflineBody,
  type ForceOfflineView,
  hasCapability,
  ManagementMode,
  modelInfo,
  parseOrThrow,
} from '@beacon/protocol';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Caller } from '../auth/principal.ts';
import type { DbOrTx } from '../db/client.ts';
import { clientBlacklist, devices } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { selectDevices } from '../devices/row.ts';
import type { CommandActor, CommandScope } from '../gateway/commands.ts';
import { loadProjectAccess, requireWritable } from '../projects/access.ts';
import { type WriteCaller, withProjectWrite } from '../projects/write.ts';
import { setBlacklistSection } from './deliver.ts';
import { dropClient, ensureClientPartitions } from './ingest.ts';
import { SAMPLE_MS } from './upkeep.ts';

/** Online clients, their statistics, force offline and the blacklist (decision 0035). */

type Paged<T> = { items: T[]; total: number; page: number; pageSize: number };

const SORT_SQL: Record<ClientListQuery['sort'], string> = {
  name: 'oc.name',
  ip: 'oc.ip',
  mac: 'oc.mac',
  ssid: 'oc.ssid',
  band: 'oc.band',
  rssi: 'oc.rssi',
  txBytes: 'oc.tx_bytes',
  rxBytes: 'oc.rx_bytes',
  txRate: 'oc.tx_rate',
  rxRate: 'oc.rx_rate',
  // Online longest first = joined earliest.
  onlineSeconds: 'oc.joined_at',
  device: 'd.name',
  kind: 'oc.kind',
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
  total: string | number;
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export async function listClients(
  deps: Deps,
  caller: Caller,
  projectId: number,
  input: z.input<typeof ClientListQuery>,
): Promise<Paged<ClientView>> {
  const q = parseOrThrow(ClientListQuery, input);
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const where = [sql`oc.project_id = ${projectId}`, sql`ds.status not in (0, 9)`];
  if (q.q) {
    const p = like(q.q);
    where.push(sql`(oc.name ilike ${p} or oc.ip ilike ${p} or oc.mac ilike ${p})`);
  }
  if (q.ip) where.push(sql`oc.ip ilike ${like(q.ip)}`);
  if (q.mac) where.push(sql`oc.mac ilike ${like(q.mac)}`);
  if (q.name) where.push(sql`oc.name ilike ${like(q.name)}`);
  if (q.model) where.push(sql`d.model ilike ${like(q.model)}`);
  if (q.vlan !== undefined) where.push(sql`oc.vlan = ${q.vlan}`);
  if (q.ssid) where.push(sql`oc.ssid = ${q.ssid}`);
  if (q.band) where.push(sql`oc.band = ${q.band}`);
  if (q.kind) where.push(sql`oc.kind = ${q.kind}`);
  if (q.sn) where.push(sql`oc.sn = ${q.sn.toUpperCase()}`);
  if (q.wired) where.push(sql`oc.wired = ${q.wired === 'true'}`);
  // onlineSeconds sorts by joined_at the other way round.
  const dir = (q.sort === 'onlineSeconds' ? q.order === 'asc' : q.order === 'desc') ? 'desc' : 'asc';
  const order = sql.raw(`${SORT_SQL[q.sort]} ${dir} nulls last, oc.mac asc`);
  const { rows } = await db.execute<ClientRow>(sql`
    select oc.*, d.name as device_name, d.model as device_model, count(*) over () as total
      from online_clients oc
      join devices d on d.sn = oc.sn
      join device_state ds on ds.sn = oc.sn
     where ${sql.join(where, sql` and `)}
     order by ${order}
     limit ${q.pageSize} offset ${(q.page - 1) * q.pageSize}`);
  const now = deps.now().getTime();
  let total = rows.length ? Number(rows[0].total) : 0;
  if (!rows.length && q.page > 1) {
    const { rows: c } = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from online_clients oc join devices d on d.sn = oc.sn
        join device_state ds on ds.sn = oc.sn where ${sql.join(where, sql` and `)}`);
    total = c[0].n;
  }
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
      onlineSeconds: Math.max(0, Math.round((now - new Date(r.joined_at).getTime()) / 1000)),
      offlineSeconds: null,
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
    for (const r of rows) {
      const m = byKey.get(r.k) ?? new Map<number, number>();
      m.set(Number(r.b), r.n);
      byKey.set(r.k, m);
    }
    // Every bucket of the range is a point (0 when no client was sampled in it).
    const times: number[] = [];
    for (let t = from; t < to; t += bucket) times.push(t);
    return [...byKey]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, m]) => ({ key, points: times.map((t) => [t, m.get(t) ?? 0] as [number, number]) }));
  };
  const [byBand, bySsid, total] = await Promise.all([seriesBy('band'), seriesBy('ssid'), seriesBy('total')]);
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
  const { rows: online } = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from online_clients oc join device_state ds on ds.sn = oc.sn
     where oc.project_id = ${projectId} and ds.status not in (0, 9)`);
  const totalSeries = total[0]?.points ?? [];
  return {
    range: q.range,
    from: fromIso,
    to: toIso,
    bucketSeconds: bucket / 1000,
    total: totalSeries.length ? totalSeries : (await seriesTimes(from, to, bucket)).map((t) => [t, 0]),
    byBand,
    bySsid,
    days: q.days,
    pies: { band, ssid, kind },
    online: online[0]?.n ?? 0,
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
