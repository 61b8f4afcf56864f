import { bigint, boolean, integer, pgTable, real, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns.ts';

// Device statistics time series (src/stats/, migration 0009, docs/monitoring-storage.md). The tables
// are partitioned by UTC day in SQL (drizzle does not express it); rollups (`*_5m`, `*_1h`, `*_1d`,
// `stats_project_*`) are written by the rollup job with SQL of their own (stats/rollup.ts).

/** One row per device per telemetry: byte columns are deltas since the device's previous telemetry. */
export const statsDevice = pgTable('stats_device', {
  at: tstz('at').notNull(),
  projectId: bigint('project_id', { mode: 'number' }).notNull(),
  sn: text('sn').notNull(),
  cpu: real('cpu').notNull(),
  memory: real('memory').notNull(),
  clients: integer('clients').notNull(),
  rxBytes: bigint('rx_bytes', { mode: 'number' }).notNull(),
  txBytes: bigint('tx_bytes', { mode: 'number' }).notNull(),
  wanRxBytes: bigint('wan_rx_bytes', { mode: 'number' }),
  wanTxBytes: bigint('wan_tx_bytes', { mode: 'number' }),
  /** Seconds the byte deltas cover (since the previous telemetry, at most 600). */
  seconds: real('seconds').notNull(),
});

/** Per port (kind 'port', key = port id), radio (kind 'radio', key = band) and SSID (kind 'ssid'). */
export const statsDim = pgTable('stats_dim', {
  at: tstz('at').notNull(),
  projectId: bigint('project_id', { mode: 'number' }).notNull(),
  sn: text('sn').notNull(),
  kind: text('kind').notNull(),
  key: text('key').notNull(),
  clients: integer('clients'),
  rxBytes: bigint('rx_bytes', { mode: 'number' }).notNull(),
  txBytes: bigint('tx_bytes', { mode: 'number' }).notNull(),
});

/** How far each rollup level is final. */
export const statsWatermarks = pgTable('stats_watermarks', {
  level: text('level').primaryKey(),
  doneUntil: tstz('done_until').notNull(),
  /** When the rollup job last computed this level (stats/rollup.ts). */
  ranAt: tstz('ran_at'),
  /** How long the level's last run took (ms). */
  tookMs: integer('took_ms'),
  /** Rows its open buckets hold (last recompute or fold): under 10,000 it recomputes, else folds. */
  openRows: integer('open_rows'),
  /** How far the level has added its source's final buckets (migration 0035); null: not yet. */
  foldedUntil: tstz('folded_until'),
  /** Its rows hold source buckets that were not final yet (recomputed before the next fold). */
  open: boolean('open').notNull().default(false),
});
