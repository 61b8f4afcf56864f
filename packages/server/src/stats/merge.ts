/**
 * How a rollup row takes more samples (docs/decisions/0075): the ON CONFLICT clauses of the
 * additive upserts that keep the 5-minute rows at ingest (stats/ingest.ts) and fold each final
 * bucket once into the hourly and daily rows (stats/rollup.ts). Counts and bytes add, maxima take
 * the greater, averages are weighted by their sample counts — the same figures a recompute from
 * every sample gives (in double precision, stored as real). The target is aliased `t`.
 */

const weighted = (column: string) =>
  `${column} = (t.${column}::float8 * t.samples + excluded.${column}::float8 * excluded.samples) / (t.samples + excluded.samples)`;
const added = (column: string) => `${column} = t.${column} + excluded.${column}`;
/** A column null in rows that never had it (the WAN bytes of a device without a WAN). */
const addedNullable = (column: string) =>
  `${column} = coalesce(t.${column} + excluded.${column}, t.${column}, excluded.${column})`;
const greatest = (column: string) => `${column} = greatest(t.${column}, excluded.${column})`;

export const DEVICE_MERGE = `on conflict (project_id, sn, bucket) do update set samples = t.samples + excluded.samples,
  ${weighted('cpu_avg')}, ${greatest('cpu_max')}, ${weighted('memory_avg')}, ${greatest('memory_max')},
  ${weighted('clients_avg')}, ${greatest('clients_max')}, ${added('rx_bytes')}, ${added('tx_bytes')},
  ${addedNullable('wan_rx_bytes')}, ${addedNullable('wan_tx_bytes')}`;

/** Dimension rows: ports have no client count (null), radios and SSIDs always one. */
export const DIM_MERGE = `on conflict (project_id, sn, kind, key, bucket) do update set samples = t.samples + excluded.samples,
  clients_avg = coalesce((t.clients_avg::float8 * t.samples + excluded.clients_avg::float8 * excluded.samples)
    / (t.samples + excluded.samples), t.clients_avg, excluded.clients_avg),
  ${greatest('clients_max')}, ${added('rx_bytes')}, ${added('tx_bytes')}`;

export const DEVICE_ROLLUP_COLUMNS = `bucket, project_id, sn, samples, cpu_avg, cpu_max, memory_avg, memory_max,
  clients_avg, clients_max, rx_bytes, tx_bytes, wan_rx_bytes, wan_tx_bytes`;
export const DIM_ROLLUP_COLUMNS =
  'bucket, project_id, sn, kind, key, samples, clients_avg, clients_max, rx_bytes, tx_bytes';

/** A timestamp column floored to `seconds` (UTC). */
export const bucketOf = (column: string, seconds: number) =>
  `to_timestamp(floor(extract(epoch from ${column}) / ${seconds}) * ${seconds})`;

/** Raw samples (`from` holds stats_device's columns) as 5-minute rows, in key order. */
export const deviceFromRaw = (from: string) =>
  `select ${bucketOf('at', 300)} as b, project_id, sn, count(*), avg(cpu), max(cpu), avg(memory), max(memory),
     avg(clients), max(clients), sum(rx_bytes), sum(tx_bytes), sum(wan_rx_bytes), sum(wan_tx_bytes)
   from ${from} group by 1, 2, 3 order by 2, 3, 1`;

export const dimFromRaw = (from: string) =>
  `select ${bucketOf('at', 300)} as b, project_id, sn, kind, key, count(*), avg(clients), max(clients),
     sum(rx_bytes), sum(tx_bytes)
   from ${from} group by 1, 2, 3, 4, 5 order by 2, 3, 4, 5, 1`;
