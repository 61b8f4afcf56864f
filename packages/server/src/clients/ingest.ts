import type { Telemetry } from '@beacon/protocol';
import { and, sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/client.ts';
import { ensureDailyPartitions } from '../db/partitions.ts';
import { clientSessions, onlineClients } from '../db/schema.ts';
import { inTexts, textArray } from '../db/text-array.ts';
import type { BusEvent } from '../events/bus.ts';

/**
 * Online clients from device telemetry (docs/decisions/0035-online-clients.md), inside the ingest's
 * telemetry batch transaction: each device's list replaces what it listed before. A client a
 * device no longer lists (and no device of the batch lists) left: its row goes and its session is
 * written; a client listed by another device of its project roamed (its row moves, the session
 * goes on). A project whose set of clients changed gets one `clients.changed` event.
 */

export const SESSION_TABLE = 'client_sessions';
export const COUNT_TABLE = 'client_counts';
const DAY_MS = 86_400_000;
const CHUNK = 1000;
const UPSERT_CHUNK = 5000;
/**
 * A device reports how long a client has been online in whole seconds, and the server takes the
 * receive time as now: the start it derives moves by a second or two from one telemetry to the next.
 * Within this many seconds it is the same session start (decision 0044).
 */
const JOINED_JITTER_S = 10;

type OnlineRow = typeof onlineClients.$inferSelect;
type SessionRow = typeof clientSessions.$inferInsert;
/** Which client row is which, and on which device. */
type ClientKey = { projectId: number; mac: string; sn: string };
/** A listed client as the upsert's JSON parameter carries it. */
type ListedRow = {
  project_id: number;
  mac: string;
  sn: string;
  name: string;
  ip: string;
  kind: string;
  wired: boolean;
  ssid: string | null;
  band: string | null;
  rssi: number | null;
  tx_rate: number;
  rx_rate: number;
  tx_bytes: number;
  rx_bytes: number;
  vlan: number | null;
  online_s: number;
  seen_at: string;
};

/** Days whose partitions this process has made sure of, per database (one catalogue look a day). */
const ensuredDays = new WeakMap<Database, Set<number>>();

/** Makes sure the day of `now` and the next have partitions for sessions and counts. */
export async function ensureClientPartitions(database: Database, now: Date): Promise<void> {
  const day = Math.floor(now.getTime() / DAY_MS);
  const ensured = ensuredDays.get(database) ?? new Set<number>();
  ensuredDays.set(database, ensured);
  if (ensured.has(day)) return;
  const to = new Date((day + 2) * DAY_MS);
  await ensureDailyPartitions(database.pool, SESSION_TABLE, now, to);
  await ensureDailyPartitions(database.pool, COUNT_TABLE, now, to);
  if (ensured.size > 64) ensured.clear();
  ensured.add(day);
}

export const sessionOf = (r: OnlineRow, endedAt: Date, reason: string): SessionRow => ({
  projectId: r.projectId,
  mac: r.mac,
  sn: r.sn,
  name: r.name,
  ip: r.ip,
  kind: r.kind,
  ssid: r.ssid,
  band: r.band,
  txBytes: r.txBytes,
  rxBytes: r.rxBytes,
  startedAt: r.joinedAt,
  endedAt,
  reason,
});

export async function insertSessions(tx: DbOrTx, rows: SessionRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await tx.insert(clientSessions).values(rows.slice(i, i + CHUNK));
  }
}

const key = (projectId: number, mac: string) => `${projectId}|${mac}`;

/** Rows in (project, MAC) order: the primary key's, the order batches lock them in. */
const byKey = (
  a: { projectId?: number | null; mac: string },
  b: { projectId?: number | null; mac: string },
) => (a.projectId ?? 0) - (b.projectId ?? 0) || (a.mac < b.mac ? -1 : a.mac > b.mac ? 1 : 0);

/**
 * The clients taken offline by force (session reason `forced`) since the oldest message of a batch
 * arrived, by project, MAC and device: when each was dropped (ms). A telemetry its device sent before
 * it dropped the client can be written after the drop (telemetry is batched, the kick's outcome is
 * not); it must not list the client again. Read through a partial index (drizzle/0036): force offline
 * is rare, so this is a few index entries a batch.
 */
async function forcedSince(
  tx: DbOrTx,
  items: readonly { message: Telemetry; now: Date }[],
): Promise<Map<string, number>> {
  if (!items.some((i) => i.message.clients.length > 0)) return new Map();
  const since = items.reduce((m, i) => Math.min(m, i.now.getTime()), Number.POSITIVE_INFINITY);
  type Row = { project_id: string; mac: string; sn: string; at: string | Date };
  const read = await tx.execute<Row>(sql`
    select project_id, mac, sn, max(ended_at) as at from client_sessions
     where reason = 'forced' and ended_at > ${new Date(since).toISOString()}::timestamptz
     group by 1, 2, 3`);
  return new Map(
    (read as unknown as { rows: Row[] }).rows.map((r) => [
      `${key(Number(r.project_id), r.mac)}|${r.sn}`,
      new Date(r.at).getTime(),
    ]),
  );
}

export async function syncOnlineClients(
  tx: DbOrTx,
  items: readonly { sn: string; message: Telemetry; now: Date }[],
): Promise<BusEvent[]> {
  if (items.length === 0) return [];
  // One statement reads each device's project and the clients it listed before (a left join from
  // the batch's SNs), in plain SQL: this runs for every telemetry batch, and two statements built by
  // the query builder with one mapped object per client cost more than the work (decision 0069).
  // Each device's clients are read through its SN index entry (a lateral subquery that `offset 0`
  // keeps from being flattened into a join): planned as a join, PostgreSQL hashed a scan of every
  // online client whenever its statistics lagged behind the table (a new or fast-growing fleet:
  // 30 ms instead of 1.5 ms a batch at 6,000 APs), a cost that grew with the fleet (decision 0071).
  //
  // Only the clients' keys are read: what a client left is written from the delete's own rows, and
  // the upsert compares in SQL. Reading whole rows back (every listed client, every batch) cost
  // PostgreSQL their output and the server their parsing, ~15 % of its ingest time at 1,000 messages
  // a second (bench/RESULTS.md, 2026-11-30).
  const owners = new Map<string, number | null>();
  const existing: ClientKey[] = [];
  const read = await tx.execute<Record<string, unknown>>(sql`
    select d.sn as owner, d.project_id as owner_project, c.project_id, c.mac, c.sn
    from devices d
    left join lateral (select o.project_id, o.mac, o.sn from online_clients o where o.sn = d.sn offset 0) c on true
    where d.sn = any(${textArray(items.map((i) => i.sn))}::text[])`);
  for (const r of (read as unknown as { rows: Record<string, unknown>[] }).rows) {
    owners.set(r.owner as string, r.owner_project === null ? null : Number(r.owner_project));
    if (r.mac === null) continue;
    existing.push({ projectId: Number(r.project_id), mac: r.mac as string, sn: r.sn as string });
  }
  const forced = await forcedSince(tx, items);
  // The upsert's rows, made once from the message (snake case, as json_to_recordset reads them);
  // the session start is the receive time less the client's seconds online, worked out in SQL.
  // By project, then MAC: string keys made per client (`${project}|${mac}`) cost a new string and
  // its hash at every lookup, and this runs for every client of every telemetry (decision 0069).
  const listed = new Map<number, Map<string, ListedRow>>();
  for (const { sn, message: t, now } of items) {
    const projectId = owners.get(sn);
    if (projectId == null) continue;
    const seenAt = now.toISOString();
    const inProject = listed.get(projectId) ?? new Map<string, ListedRow>();
    listed.set(projectId, inProject);
    for (const c of t.clients) {
      const mac = c.mac.toUpperCase();
      // Taken offline by force after this telemetry arrived: the device listed it before the kick.
      if (forced.size > 0 && (forced.get(`${key(projectId, mac)}|${sn}`) ?? 0) > now.getTime()) continue;
      inProject.set(mac, {
        project_id: projectId,
        mac,
        sn,
        name: c.name,
        ip: c.ip,
        kind: c.kind,
        wired: c.wired,
        ssid: c.ssid,
        band: c.band,
        rssi: c.rssi,
        tx_rate: c.txRate,
        rx_rate: c.rxRate,
        tx_bytes: c.txBytes,
        rx_bytes: c.rxBytes,
        vlan: c.vlan,
        online_s: c.onlineSeconds,
        seen_at: seenAt,
      });
    }
  }
  const now = items[0].now;
  const changed = new Map<number, Set<string>>();
  const mark = (projectId: number, sn: string) => {
    const set = changed.get(projectId) ?? new Set<string>();
    set.add(sn);
    changed.set(projectId, set);
  };
  // A client left when its device no longer lists it (or the device left the project); a listed
  // client is news when it was not on the same device before (new, or roamed here).
  const left: ClientKey[] = [];
  const stayed = new Set<ListedRow>();
  for (const r of existing) {
    const still = listed.get(r.projectId)?.get(r.mac);
    if (!still || owners.get(r.sn) !== r.projectId) left.push(r);
    else if (still.sn === r.sn) stayed.add(still);
  }
  for (const r of left) mark(r.projectId, r.sn);
  const rows: ListedRow[] = [];
  for (const inProject of listed.values()) {
    for (const row of inProject.values()) {
      rows.push(row);
      if (!stayed.has(row)) mark(row.project_id, row.sn);
    }
  }
  // One JSON parameter per chunk (json_to_recordset), not 17 bind parameters per row: a fleet's
  // batch upserts thousands of clients, and parsing the parameters was most of the statement's cost.
  // In key order, so that two batches that list the same clients (one roaming between two APs of
  // two batches) lock their rows in the same order and do not deadlock.
  rows.sort((a, b) => a.project_id - b.project_id || (a.mac < b.mac ? -1 : a.mac > b.mac ? 1 : 0));
  for (let i = 0; i < rows.length; i += UPSERT_CHUNK) {
    await tx.execute(sql`
      insert into online_clients (project_id, mac, sn, name, ip, kind, wired, ssid, band, rssi, tx_rate,
                                  rx_rate, tx_bytes, rx_bytes, vlan, joined_at, seen_at)
      select project_id, mac, sn, name, ip, kind, wired, ssid, band, rssi, tx_rate, rx_rate, tx_bytes,
             rx_bytes, vlan, seen_at - online_s * interval '1 second', seen_at
      from json_to_recordset(${JSON.stringify(rows.slice(i, i + UPSERT_CHUNK))}::json) as r(
        project_id bigint, mac text, sn text, name text, ip text, kind text, wired boolean, ssid text,
        band text, rssi smallint, tx_rate real, rx_rate real, tx_bytes bigint, rx_bytes bigint,
        vlan integer, online_s double precision, seen_at timestamptz)
      on conflict (project_id, mac) do update set
        name = excluded.name, ip = excluded.ip, kind = excluded.kind, wired = excluded.wired,
        ssid = excluded.ssid, band = excluded.band, rssi = excluded.rssi, tx_rate = excluded.tx_rate,
        rx_rate = excluded.rx_rate, tx_bytes = excluded.tx_bytes, rx_bytes = excluded.rx_bytes,
        vlan = excluded.vlan,
        -- A roamed client keeps its session's start; on the same device the device's count holds,
        -- but the same start reported again (now minus whole seconds online, receive jitter) is
        -- not rewritten: joined_at is indexed, and an unchanged indexed column keeps the update HOT.
        joined_at = case when online_clients.sn = excluded.sn
                          and abs(extract(epoch from excluded.joined_at - online_clients.joined_at)) > ${JOINED_JITTER_S}
                         then excluded.joined_at else online_clients.joined_at end,
        sn = excluded.sn, seen_at = excluded.seen_at
      -- A client the device reports unchanged is not rewritten (the list reads when it was seen from
      -- its device's latest telemetry).
      where (online_clients.sn, online_clients.name, online_clients.ip, online_clients.kind,
             online_clients.wired, online_clients.ssid, online_clients.band, online_clients.rssi,
             online_clients.tx_rate, online_clients.rx_rate, online_clients.tx_bytes,
             online_clients.rx_bytes, online_clients.vlan)
            is distinct from
            (excluded.sn, excluded.name, excluded.ip, excluded.kind, excluded.wired, excluded.ssid,
             excluded.band, excluded.rssi, excluded.tx_rate, excluded.rx_rate, excluded.tx_bytes,
             excluded.rx_bytes, excluded.vlan)
         or (online_clients.sn = excluded.sn
             and abs(extract(epoch from excluded.joined_at - online_clients.joined_at)) > ${JOINED_JITTER_S})`);
  }
  // The clients that left, after the upsert: its rows are locked in key order, and a delete before
  // it locked rows out of that order (a client listed by two devices of two batches, a roam or a
  // simulator's colliding MACs, deadlocked the batches 64 times in a 100,000 reconnect storm). This
  // delete waits for nobody, so after it the batch waits for no other batch's client rows.
  if (left.length) {
    // Only rows still on this batch's device, and none another batch has locked (skip locked): that
    // batch is moving the client to its own device (a roam), or deletes it itself.
    left.sort(byKey);
    const gone: OnlineRow[] = [];
    for (let i = 0; i < left.length; i += CHUNK) {
      const chunk = left.slice(i, i + CHUNK);
      gone.push(
        ...(await tx
          .delete(onlineClients)
          .where(
            sql`ctid in (select ctid from online_clients where (project_id, mac, sn) in (${sql.join(
              chunk.map((r) => sql`(${r.projectId}::bigint, ${r.mac}, ${r.sn})`),
              sql`, `,
            )}) for update skip locked)`,
          )
          .returning()),
      );
    }
    await insertSessions(
      tx,
      gone.map((r) => sessionOf(r, now, 'left')),
    );
  }
  return [...changed].map(([projectId, set]) => ({
    type: 'clients.changed' as const,
    projectId,
    sns: [...set].slice(0, 100),
    at: now.toISOString(),
  }));
}

/**
 * Devices that went offline: their clients leave with them (sessions ended, reason offline).
 *
 * `stale` (the clients upkeep, which holds no device row): only clients whose device is still
 * offline or in another project when the rows are locked, and none a telemetry batch holds now —
 * that device is back, and its batch decides about its clients. The ingest's own callers hold the
 * devices' state rows already, so a batch of the same device waits for them before any client row.
 */
export async function dropClientsOf(
  tx: DbOrTx,
  sns: readonly string[],
  now: Date,
  options: { stale?: boolean } = {},
): Promise<BusEvent[]> {
  if (sns.length === 0) return [];
  const stillStale = options.stale
    ? sql` and not exists (select 1 from device_state ds join devices d on d.sn = ds.sn
          where ds.sn = online_clients.sn and ds.status not in (0, 9) and d.project_id = online_clients.project_id)`
    : sql``;
  // Locked in (project, MAC) order first, as the telemetry batches lock the rows they upsert: in a
  // reconnect storm a device's clients leave here while another batch moves or refreshes some of
  // them, and two orders would deadlock.
  const gone = await tx
    .delete(onlineClients)
    .where(
      sql`ctid = any(array(select ctid from online_clients where ${inTexts(onlineClients.sn, [...sns])}${stillStale}
            order by project_id, mac collate "C" for update${options.stale ? sql` skip locked` : sql``}))`,
    )
    .returning();
  if (gone.length === 0) return [];
  await insertSessions(
    tx,
    gone.map((r) => sessionOf(r, now, 'offline')),
  );
  const byProject = new Map<number, Set<string>>();
  for (const r of gone) byProject.set(r.projectId, (byProject.get(r.projectId) ?? new Set()).add(r.sn));
  return [...byProject].map(([projectId, set]) => ({
    type: 'clients.changed' as const,
    projectId,
    sns: [...set].slice(0, 100),
    at: now.toISOString(),
  }));
}

/** One client removed (force offline): its session ends with reason forced. */
export async function dropClient(
  tx: DbOrTx,
  projectId: number,
  sn: string,
  mac: string,
  now: Date,
): Promise<boolean> {
  const gone = await tx
    .delete(onlineClients)
    .where(
      and(
        sql`${onlineClients.projectId} = ${projectId}`,
        sql`${onlineClients.mac} = ${mac.toUpperCase()}`,
        sql`${onlineClients.sn} = ${sn}`,
      ),
    )
    .returning();
  await insertSessions(
    tx,
    gone.map((r) => sessionOf(r, now, 'forced')),
  );
  return gone.length > 0;
}
