import { createHash } from 'node:crypto';
import type { LinkNeighbour, Telemetry } from '@beacon/protocol';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { textArray } from '../db/text-array.ts';
import type { BusEvent } from '../events/bus.ts';

/**
 * Link reports from device telemetry (topology, docs/decisions/0050), inside the ingest's telemetry
 * batch transaction: each device's `links` and `internet` replace what it reported before
 * (`device_links`). The row is rewritten when the links change, or once a minute for fresh signal
 * figures; a project whose links changed gets one `topology.changed` event naming the devices.
 */

/** How stale the stored signal and PoE figures may get while the links stay the same. */
const REFRESH_SECONDS = 60;

export interface LinkReport {
  sn: string;
  message: Telemetry;
  now: Date;
}

/** What makes a link the same link: everything but the signal, which moves all the time. */
export function linksHash(links: readonly LinkNeighbour[], internet: Telemetry['internet']): string {
  const keyed = links
    .map((l) =>
      [
        l.port ?? '',
        l.mac.toUpperCase(),
        l.sn ?? '',
        l.remotePort ?? '',
        l.medium,
        l.speed,
        l.vlan ?? '',
        l.role,
      ].join('|'),
    )
    .sort();
  const net = internet ? `${internet.up}|${internet.port ?? ''}|${internet.speed}` : '';
  return createHash('sha256')
    .update(JSON.stringify([keyed, net]))
    .digest('base64url');
}

export async function storeLinks(tx: DbOrTx, items: readonly LinkReport[]): Promise<BusEvent[]> {
  const rows = items
    .filter((i) => i.message.links !== undefined || i.message.internet !== undefined)
    .map((i) => {
      const links = (i.message.links ?? []).map((l) => ({ ...l, mac: l.mac.toUpperCase() }));
      const internet = i.message.internet ?? null;
      return {
        sn: i.sn,
        links,
        internet,
        hash: linksHash(links, i.message.internet),
        at: i.now.toISOString(),
      };
    });
  if (rows.length === 0) return [];
  // `old` reads the rows as they were before this statement's upsert (one snapshot for the statement).
  // The rows' SNs also as a text[] (`= any`): PostgreSQL then knows how many devices the batch
  // names and probes the primary keys; joined only to the recordset (a guessed 100 rows) it hashed
  // a scan of every device and every link row on each batch (decision 0071).
  const sns = textArray(rows.map((r) => r.sn));
  const result = await tx.execute<{ sn: string; project_id: number | string | null }>(sql`
    with v as (
      select * from json_to_recordset(${JSON.stringify(rows)}::json)
        as v(sn text, links jsonb, internet jsonb, hash text, at timestamptz)
    ),
    d as (select sn, project_id from devices where sn = any(${sns}::text[])),
    old as (select l.sn, l.hash from device_links l where l.sn = any(${sns}::text[])),
    up as (
      insert into device_links (sn, links, internet, hash, reported_at)
      select v.sn, v.links, v.internet, v.hash, v.at from v join d on d.sn = v.sn
      on conflict (sn) do update
        set links = excluded.links, internet = excluded.internet, hash = excluded.hash,
          reported_at = excluded.reported_at
        where device_links.hash is distinct from excluded.hash
          or device_links.reported_at < excluded.reported_at - make_interval(secs => ${REFRESH_SECONDS})
    )
    select v.sn, d.project_id from v join d on d.sn = v.sn left join old on old.sn = v.sn
      where old.hash is distinct from v.hash and d.project_id is not null`);
  const byProject = new Map<number, string[]>();
  for (const r of (result as unknown as { rows: { sn: string; project_id: number | string }[] }).rows) {
    const id = Number(r.project_id);
    byProject.set(id, [...(byProject.get(id) ?? []), r.sn]);
  }
  const at = items[0].now.toISOString();
  // A notification carries at most 8000 bytes: a mass change names no devices (the screen reloads).
  return [...byProject].map(([projectId, sns]) => ({
    type: 'topology.changed',
    projectId,
    sns: sns.length > 100 ? [] : sns,
    at,
  }));
}
