import type { Telemetry } from '@beacon/protocol';
import { sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../db/client.ts';
import { ensureDailyPartitions } from '../db/partitions.ts';
import { textArray } from '../db/text-array.ts';
import { type BusEvent, EVENT_CHANNEL } from '../events/bus.ts';
import {
  DEVICE_MERGE,
  DEVICE_ROLLUP_COLUMNS,
  DIM_MERGE,
  DIM_ROLLUP_COLUMNS,
  deviceFromRaw,
  dimFromRaw,
} from './merge.ts';
import { type DeviceSampleRow, type DimSampleRow, type PreviousSample, samplesOf } from './samples.ts';

/**
 * The telemetry batch's statistics (gateway/ingest.ts writeTelemetry): the previous telemetry of
 * each device is read under the same row lock the state update takes, and the batch's sample rows
 * go in two multi-row INSERTs after the state commit (and are added to their 5-minute rows in the
 * same statement, decision 0075), with at most one `stats.updated` live event per project every
 * STATS_EVENT_MIN_INTERVAL_MS (never one notification per message).
 */

export const STATS_EVENT_MIN_INTERVAL_MS = 10_000;

/** Locks the devices' state rows in SN order and answers what their previous telemetry said. */
export async function lockPrevious(db: DbOrTx, sns: string[]): Promise<Map<string, PreviousSample>> {
  const map = new Map<string, PreviousSample>();
  if (sns.length === 0) return map;
  const result = await db.execute<{
    sn: string;
    project_id: number | null;
    telemetry_at: string | Date | null;
    uptime: number | null;
    wan: PreviousSample['wan'];
    ports: PreviousSample['ports'];
    radios: PreviousSample['radios'];
  }>(sql`select s.sn, d.project_id, s.telemetry_at, (s.telemetry->>'uptime')::bigint as uptime,
      s.telemetry->'wan' as wan, s.telemetry->'ports' as ports, s.telemetry->'radios' as radios
    from device_state s join devices d on d.sn = s.sn
    where s.sn = any(${textArray(sns)}::text[]) order by s.sn for update of s`);
  for (const r of (result as unknown as { rows: (typeof result.rows)[number][] }).rows) {
    map.set(r.sn, {
      projectId: r.project_id === null ? null : Number(r.project_id),
      at: r.telemetry_at === null ? null : new Date(r.telemetry_at),
      uptime: r.uptime === null ? null : Number(r.uptime),
      wan: r.wan,
      ports: Array.isArray(r.ports) ? r.ports : null,
      radios: Array.isArray(r.radios) ? r.radios : null,
    });
  }
  return map;
}

export function sampleBatch(
  items: { sn: string; message: Telemetry; now: Date }[],
  previous: Map<string, PreviousSample>,
): { devices: DeviceSampleRow[]; dims: DimSampleRow[] } {
  const devices: DeviceSampleRow[] = [];
  const dims: DimSampleRow[] = [];
  for (const { sn, message, now } of items) {
    const prev = previous.get(sn);
    if (!prev) continue;
    const s = samplesOf(sn, message, now, prev);
    if (!s) continue;
    devices.push(s.device);
    dims.push(...s.dims);
  }
  return { devices, dims };
}

const NO_PARTITION = '23514';
/** Two batches adding to the same rows wait on each other in key order; a deadlock is retried anyway. */
const DEADLOCK = '40P01';

export class StatsWriter {
  private readonly lastEvent = new Map<number, number>();

  constructor(private readonly database: Database) {}

  /**
   * Writes a batch's samples. A day without its partition (the rollup job makes them ahead; a
   * server clock moved in a test, a job that has not run yet) is made and the write tried once more;
   * statistics that still fail are logged and dropped — the device's state is already stored.
   */
  async write(batch: { devices: DeviceSampleRow[]; dims: DimSampleRow[] }, now: Date): Promise<void> {
    if (batch.devices.length === 0) return;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.insert(batch, now);
        return;
      } catch (err) {
        const code =
          (err as { cause?: { code?: string }; code?: string }).cause?.code ??
          (err as { code?: string }).code;
        if (code === NO_PARTITION && attempt === 1) {
          const times = batch.devices.map((d) => Date.parse(d.at));
          const from = new Date(Math.min(...times));
          const to = new Date(Math.max(...times));
          for (const table of ['stats_device', 'stats_dim', 'stats_device_5m', 'stats_dim_5m'])
            await ensureDailyPartitions(this.database.pool, table, from, to);
          continue;
        }
        if (code === DEADLOCK && attempt < 3) continue;
        throw err;
      }
    }
  }

  private async insert(
    batch: { devices: DeviceSampleRow[]; dims: DimSampleRow[] },
    now: Date,
  ): Promise<void> {
    const events: BusEvent[] = [];
    const real = Date.now();
    for (const projectId of new Set(batch.devices.map((d) => d.projectId))) {
      if (real - (this.lastEvent.get(projectId) ?? 0) < STATS_EVENT_MIN_INTERVAL_MS) continue;
      events.push({ type: 'stats.updated', projectId, at: now.toISOString() });
    }
    // One statement, no transaction around it (a statement is atomic): both inserts and the live
    // event as data-modifying CTEs. A batch used to cost begin, two inserts, the notify and commit
    // (decision 0069); the notification is still sent only if the rows commit.
    const deviceRows = JSON.stringify(
      batch.devices.map((d) => ({
        at: d.at,
        project_id: d.projectId,
        sn: d.sn,
        cpu: d.cpu,
        memory: d.memory,
        clients: d.clients,
        rx_bytes: d.rxBytes,
        tx_bytes: d.txBytes,
        wan_rx_bytes: d.wanRxBytes ?? null,
        wan_tx_bytes: d.wanTxBytes ?? null,
        seconds: d.seconds,
      })),
    );
    const dimRows = JSON.stringify(
      batch.dims.map((d) => ({
        at: d.at,
        project_id: d.projectId,
        sn: d.sn,
        kind: d.kind,
        key: d.key,
        clients: d.clients ?? null,
        rx_bytes: d.rxBytes,
        tx_bytes: d.txBytes,
      })),
    );
    // The 5-minute rows take the batch's samples in the same statement (decision 0075): each sample
    // is added once, where the rollup job used to recompute every open bucket from the raw rows
    // each minute. Rows go in key order, so two statements touching the same devices wait rather
    // than deadlock.
    await this.database.db.execute(sql`
      with v as materialized (
        select * from json_to_recordset(${deviceRows}::json) as v(at timestamptz, project_id bigint,
          sn text, cpu real, memory real, clients integer, rx_bytes bigint, tx_bytes bigint,
          wan_rx_bytes bigint, wan_tx_bytes bigint, seconds real)
      ), dev as (
        insert into stats_device (at, project_id, sn, cpu, memory, clients, rx_bytes, tx_bytes,
                                  wan_rx_bytes, wan_tx_bytes, seconds)
        select * from v
      ), dev5 as (
        insert into stats_device_5m as t (${sql.raw(DEVICE_ROLLUP_COLUMNS)}) ${sql.raw(deviceFromRaw('v'))}
        ${sql.raw(DEVICE_MERGE)}
      ), w as materialized (
        select * from json_to_recordset(${dimRows}::json) as v(at timestamptz, project_id bigint,
          sn text, kind text, key text, clients integer, rx_bytes bigint, tx_bytes bigint)
      ), dim as (
        insert into stats_dim (at, project_id, sn, kind, key, clients, rx_bytes, tx_bytes)
        select * from w
      ), dim5 as (
        insert into stats_dim_5m as t (${sql.raw(DIM_ROLLUP_COLUMNS)}) ${sql.raw(dimFromRaw('w'))}
        ${sql.raw(DIM_MERGE)}
      )
      select pg_notify(${EVENT_CHANNEL}, t.p)
      from jsonb_array_elements_text(${JSON.stringify(events.map((e) => JSON.stringify(e)))}::jsonb)
        with ordinality as t(p, n) order by t.n`);
    for (const e of events) this.lastEvent.set(e.projectId, real);
  }
}
