import { z } from 'zod';

/**
 * Device statistics (SPEC.md §2 /manage/status and /manage/devsrunstat, §9 "status charts 12 h,
 * 24 h, 72 h, 7 d, 30 d; top 10 lists"). Every number comes from telemetry devices reported and the
 * server stored (docs/monitoring-storage.md); the server picks the rollup a range reads.
 */

export const STATS_RANGES = ['12h', '24h', '72h', '7d', '30d'] as const;
export type StatsRange = (typeof STATS_RANGES)[number];
export const StatsRangeSchema = z.enum(STATS_RANGES);

/** Length of each range in ms. */
export const STATS_RANGE_MS: Record<StatsRange, number> = {
  '12h': 12 * 3_600_000,
  '24h': 24 * 3_600_000,
  '72h': 72 * 3_600_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

/**
 * Which stored series a range reads, and its bucket (docs/decisions/0034): a project chart of 12 h
 * to 72 h reads the 5-minute rollup (at most 864 points), 7 d and 30 d the hourly one (at most 720
 * points), so a 30-day chart of 10,000 devices never reads raw rows. A single device's 12 h chart
 * reads its raw samples bucketed to 5 minutes.
 */
export const STATS_RANGE_LEVEL: Record<StatsRange, { level: '5m' | '1h'; bucketMs: number }> = {
  '12h': { level: '5m', bucketMs: 300_000 },
  '24h': { level: '5m', bucketMs: 300_000 },
  '72h': { level: '5m', bucketMs: 300_000 },
  '7d': { level: '1h', bucketMs: 3_600_000 },
  '30d': { level: '1h', bucketMs: 3_600_000 },
};

/** Top lists are at most this long (SPEC.md §9 top 10; the status screen shows the first 5). */
export const STATS_TOP = 10;
/**
 * The most SSID series a project chart answers: as many Wi-Fi networks as a project can have
 * (SPEC.md §5: 7 all-device, 30 specified-device, 1 guest). Unconfigured APs each broadcast a factory
 * SSID of their own, so a new project of thousands of APs has thousands of SSIDs; the series with
 * the most clients over the range are kept, the others counted in `ssidsOmitted`.
 */
export const STATS_SSID_SERIES_MAX = 38;

export const StatsQuery = z.object({ range: StatsRangeSchema.default('24h') });
export type StatsQuery = z.infer<typeof StatsQuery>;

/** One point of a chart: the bucket's start (ISO) and its values (null: nothing reported then). */
export const StatsPoint = z.object({
  at: z.string(),
  /** Average CPU and memory percent over the devices (or the device) that reported in the bucket. */
  cpu: z.number().nullable(),
  memory: z.number().nullable(),
  /** Clients: the sum over devices of each device's average in the bucket. */
  clients: z.number().nullable(),
  /** Traffic in bits per second over the bucket (received, sent). */
  rxBps: z.number().nullable(),
  txBps: z.number().nullable(),
});
export type StatsPoint = z.infer<typeof StatsPoint>;

/** One point of the WAN series (gateways): bits per second down and up. */
export const WanPoint = z.object({ at: z.string(), rxBps: z.number(), txBps: z.number() });
export type WanPoint = z.infer<typeof WanPoint>;

export const TopDevice = z.object({
  sn: z.string(),
  name: z.string(),
  model: z.string(),
  type: z.string(),
  /** Average clients over the range (by users) or bytes moved (by throughput). */
  clients: z.number(),
  bytes: z.number(),
});
export type TopDevice = z.infer<typeof TopDevice>;

export const TypeCount = z.object({ type: z.string(), online: z.number().int(), offline: z.number().int() });

/** GET /projects/:id/stats/status: the Status screen. */
export const StatusSummaryView = z.object({
  range: StatsRangeSchema,
  from: z.string(),
  to: z.string(),
  bucketSeconds: z.number().int(),
  devices: z.object({
    online: z.number().int(),
    offline: z.number().int(),
    byType: z.array(TypeCount),
  }),
  /** Clients the devices report now (latest telemetry of online devices). */
  clientsNow: z.number().int(),
  wan: z.array(WanPoint),
  topByClients: z.array(TopDevice),
  topByThroughput: z.array(TopDevice),
});
export type StatusSummaryView = z.infer<typeof StatusSummaryView>;

/** A named series (per port, per radio band, per SSID). */
export const NamedSeries = z.object({
  key: z.string(),
  points: z.array(
    z.object({
      at: z.string(),
      clients: z.number().nullable(),
      rxBps: z.number().nullable(),
      txBps: z.number().nullable(),
    }),
  ),
});
export type NamedSeries = z.infer<typeof NamedSeries>;

/** GET /projects/:id/stats/devices: the Device data screen, project-wide. */
export const ProjectStatsView = z.object({
  range: StatsRangeSchema,
  from: z.string(),
  to: z.string(),
  bucketSeconds: z.number().int(),
  points: z.array(StatsPoint),
  /** Top 10 devices by CPU, memory (average over the range), clients and traffic. */
  top: z.object({
    cpu: z.array(TopDevice.extend({ value: z.number() })),
    memory: z.array(TopDevice.extend({ value: z.number() })),
    clients: z.array(TopDevice),
    traffic: z.array(TopDevice),
  }),
  /** Clients per band and per SSID over the range, in buckets of `seriesBucketSeconds` (1 h up to 72 h, 1 day beyond). */
  seriesBucketSeconds: z.number().int(),
  bands: z.array(NamedSeries),
  /** At most STATS_SSID_SERIES_MAX: the SSIDs with the most clients over the range. */
  ssids: z.array(NamedSeries),
  /** SSIDs of the range not in `ssids` (beyond STATS_SSID_SERIES_MAX). */
  ssidsOmitted: z.number().int(),
});
export type ProjectStatsView = z.infer<typeof ProjectStatsView>;

/** GET /projects/:id/stats/devices/:sn: one device's charts. */
export const DeviceStatsView = z.object({
  sn: z.string(),
  range: StatsRangeSchema,
  from: z.string(),
  to: z.string(),
  bucketSeconds: z.number().int(),
  points: z.array(StatsPoint),
  /** Per port (key = port id), per radio (key = band) and per SSID. */
  ports: z.array(NamedSeries),
  radios: z.array(NamedSeries),
  ssids: z.array(NamedSeries),
});
export type DeviceStatsView = z.infer<typeof DeviceStatsView>;
