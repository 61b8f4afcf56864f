import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { IngestStats } from '../gateway/ingest.ts';

/**
 * Prometheus metrics of one server instance (docs/operations-metrics.md, docs/decisions/0064).
 *
 * One registry per instance, never prom-client's global one: tests run several servers in one
 * process. Every label takes values from a closed set (route patterns, message kinds, command
 * names, outcomes, job kinds, status codes of SPEC.md §4): never a serial number, an id or a raw URL.
 *
 * The hot paths (a device message, a batch, a lag observation) increment a child bound once to its
 * label value: no object or string is built per message. What needs the database (devices by status,
 * jobs by kind and state) is read by one pair of queries at most every `cacheMs`, however often
 * and by however many scrapers the instance is scraped.
 */

export const METRICS_PATH = '/metrics';
export const HEALTHZ_PATH = '/healthz';
export const READYZ_PATH = '/readyz';
/** Outside /api/v1 and without an account: the principal hook leaves them alone. */
export const OPERATIONS_PATHS: ReadonlySet<string> = new Set([METRICS_PATH, HEALTHZ_PATH, READYZ_PATH]);

/** The label of requests no route matched (404s of arbitrary paths, the web app's own paths). */
export const UNMATCHED_ROUTE = 'unmatched';

/** How long a database read of the metrics may take before the scrape answers the last values. */
const DATABASE_WAIT_MS = 1000;

/** What the database-backed gauges read, supplied once the server's parts exist (attach). */
export interface MetricSources {
  pool: pg.Pool;
  /** The ingest's own counts (gateway/ingest.ts stats()). */
  ingest?: () => IngestStats;
  /** Open WebSocket connections. */
  webSockets?: () => number;
  /** The server's MQTT link is connected. */
  brokerUp?: () => boolean;
  /** The live-event listener (PostgreSQL LISTEN) runs. */
  eventsUp?: () => boolean;
}

interface Bindable {
  labels(...values: string[]): { inc?(n?: number): void; observe?(v: number): void };
}

/** A child per label value, made once: the hot path does a map lookup and an increment. */
function bound<C>(metric: Bindable): (value: string) => C {
  const children = new Map<string, C>();
  return (value) => {
    let child = children.get(value);
    if (child === undefined) {
      child = metric.labels(value) as C;
      children.set(value, child);
    }
    return child;
  };
}

type CounterChild = { inc(n?: number): void };
type HistogramChild = { observe(v: number): void };

interface Snapshot {
  devices: { status: number; n: number }[];
  jobs: { kind: string; state: string; n: number }[];
}

export class Metrics {
  readonly registry = new Registry();
  /** Shutdown has begun (server.ts close()): /readyz answers 503 so that a load balancer drains. */
  draining = false;
  private sources: MetricSources | null = null;
  private snapshot: Snapshot | null = null;
  private fetchedAt = 0;
  private refreshing: Promise<void> | null = null;
  /** Database reads of the metrics done (one per cache period at most); tests check the cache with it. */
  private readonly refreshes: Counter;

  private readonly http: Histogram<'method' | 'route' | 'status'>;
  private readonly inKind: (kind: string) => CounterChild;
  private readonly outKind: (kind: string) => CounterChild;
  private readonly batchKind: (kind: string) => HistogramChild;
  private readonly lagKind: (kind: string) => HistogramChild;
  private readonly outcomes: Counter<'name' | 'outcome'>;
  private readonly jobsRun: Counter<'kind' | 'result'>;
  private readonly jobSeconds: Histogram<'kind'>;
  private readonly lastWills: Counter;

  constructor(private readonly options: { cacheMs: number }) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'beacon_' });
    const self = this;

    this.http = new Histogram({
      name: 'beacon_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern (never the raw URL) and status class',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    const mqttIn = new Counter({
      name: 'beacon_mqtt_messages_in_total',
      help: 'Device messages received on the server link, by kind (hello, state, telemetry, event, reply)',
      labelNames: ['kind'],
      registers,
    });
    this.inKind = bound(mqttIn);
    this.lastWills = new Counter({
      name: 'beacon_mqtt_last_wills_total',
      help: "Devices' last wills received (state messages the broker published for a lost device)",
      registers,
    });
    const mqttOut = new Counter({
      name: 'beacon_mqtt_messages_out_total',
      help: 'Messages the server published to devices, by kind (command, tunnel)',
      labelNames: ['kind'],
      registers,
    });
    this.outKind = bound(mqttOut);
    const batch = new Histogram({
      name: 'beacon_ingest_batch_size',
      help: 'Device messages written per database statement batch, by kind',
      labelNames: ['kind'],
      buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500],
      registers,
    });
    this.batchKind = bound(batch);
    const lag = new Histogram({
      name: 'beacon_ingest_lag_seconds',
      help: "From the device's own timestamp to the commit of its message, by kind (a device clock ahead counts as 0)",
      labelNames: ['kind'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    });
    this.lagKind = bound(lag);
    this.outcomes = new Counter({
      name: 'beacon_commands_total',
      help: 'Command outcomes recorded by this instance, by command name and outcome (success, failed, timeout)',
      labelNames: ['name', 'outcome'],
      registers,
    });
    this.jobsRun = new Counter({
      name: 'beacon_jobs_run_total',
      help: 'Durable jobs run by this instance, by kind and result (ok, failed)',
      labelNames: ['kind', 'result'],
      registers,
    });
    this.jobSeconds = new Histogram({
      name: 'beacon_job_duration_seconds',
      help: 'Time a durable job took on this instance, by kind (from its claim to the end of its work; an instance runs one job at a time)',
      labelNames: ['kind'],
      buckets: [0.01, 0.05, 0.25, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    });
    this.refreshes = new Counter({
      name: 'beacon_metrics_database_reads_total',
      help: 'Database reads made for the devices and jobs gauges (at most one per METRICS_CACHE_MS)',
      registers,
    });

    new Gauge({
      name: 'beacon_devices_online',
      help: 'Devices whose status is anything but offline (0, 9), from device_state; cached METRICS_CACHE_MS',
      registers,
      async collect() {
        const snap = await self.fresh();
        if (snap)
          this.set(snap.devices.reduce((n, d) => (d.status === 0 || d.status === 9 ? n : n + d.n), 0));
      },
    });
    new Gauge({
      name: 'beacon_devices',
      help: 'Devices by status code (SPEC.md §4), from device_state; cached METRICS_CACHE_MS',
      labelNames: ['status'],
      registers,
      async collect() {
        const snap = await self.fresh();
        if (!snap) return;
        this.reset();
        for (const d of snap.devices) this.set({ status: String(d.status) }, d.n);
      },
    });
    new Gauge({
      name: 'beacon_jobs',
      help: 'Durable jobs by kind and state (due, scheduled, parked), from the jobs table; cached METRICS_CACHE_MS',
      labelNames: ['kind', 'state'],
      registers,
      async collect() {
        const snap = await self.fresh();
        if (!snap) return;
        this.reset();
        for (const j of snap.jobs) this.set({ kind: j.kind, state: j.state }, j.n);
      },
    });
    const pool = (read: (p: pg.Pool) => number) =>
      function (this: Gauge) {
        if (self.sources) this.set(read(self.sources.pool));
      };
    new Gauge({
      name: 'beacon_db_pool_total',
      help: 'Connections the PostgreSQL pool holds',
      registers,
      collect: pool((p) => p.totalCount),
    });
    new Gauge({
      name: 'beacon_db_pool_idle',
      help: 'Idle connections of the PostgreSQL pool',
      registers,
      collect: pool((p) => p.idleCount),
    });
    new Gauge({
      name: 'beacon_db_pool_waiting',
      help: 'Queries waiting for a PostgreSQL pool connection',
      registers,
      collect: pool((p) => p.waitingCount),
    });
    new Gauge({
      name: 'beacon_db_pool_max',
      help: 'Size limit of the PostgreSQL pool',
      registers,
      collect: pool((p) => p.options.max ?? 10),
    });
    new Gauge({
      name: 'beacon_websocket_connections',
      help: 'Open WebSocket connections (live events)',
      registers,
      collect() {
        const count = self.sources?.webSockets;
        if (count) this.set(count());
      },
    });
    new Gauge({
      name: 'beacon_mqtt_link_up',
      help: "1 when the server's own MQTT link to the broker is connected",
      registers,
      collect() {
        const up = self.sources?.brokerUp;
        if (up) this.set(up() ? 1 : 0);
      },
    });
    new Gauge({
      name: 'beacon_events_listener_up',
      help: '1 when the live-event listener (PostgreSQL LISTEN) runs',
      registers,
      collect() {
        const up = self.sources?.eventsUp;
        if (up) this.set(up() ? 1 : 0);
      },
    });
    const ingest = (
      help: string,
      name: string,
      read: (s: ReturnType<NonNullable<MetricSources['ingest']>>) => number,
    ) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const stats = self.sources?.ingest;
          if (stats) this.set(read(stats()));
        },
      });
    ingest('Devices with messages waiting or being written', 'beacon_ingest_devices_busy', (s) => s.devices);
    ingest('Messages kept for a database that is unavailable', 'beacon_ingest_retrying', (s) => s.retrying);
    ingest(
      'Device messages received and not yet written (the intake and the batches waiting for a write)',
      'beacon_ingest_waiting',
      (s) => s.waiting,
    );
    new Counter({
      name: 'beacon_ingest_dropped_total',
      help: 'Device messages refused (invalid, too large, over the rate or queue limit) or given up',
      registers,
      collect() {
        const stats = self.sources?.ingest;
        if (!stats) return;
        this.reset();
        this.inc(stats().dropped);
      },
    });
    new Counter({
      name: 'beacon_ingest_stale_total',
      help: 'States and telemetry ignored as older (device ts) than one of their kind already written in the same connection',
      registers,
      collect() {
        const stats = self.sources?.ingest;
        if (!stats) return;
        this.reset();
        this.inc(stats().stale);
      },
    });
    new Counter({
      name: 'beacon_ingest_coalesced_total',
      help: 'Telemetry replaced by a newer one of the same device before it was written',
      registers,
      collect() {
        const stats = self.sources?.ingest;
        if (!stats) return;
        this.reset();
        this.inc(stats().coalesced);
      },
    });
  }

  /** The parts of the running server the gauges read (server.ts, once they exist). */
  attach(sources: MetricSources): void {
    this.sources = sources;
  }

  httpRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    this.http.observe(
      { method, route: route ?? UNMATCHED_ROUTE, status: `${Math.floor(status / 100)}xx` },
      seconds,
    );
  }

  /** One device message received (its kind comes from a topic that parsed: a closed set). */
  received(kind: string): void {
    this.inKind(kind).inc();
  }

  lastWill(): void {
    this.lastWills.inc();
  }

  published(kind: 'command' | 'tunnel'): void {
    this.outKind(kind).inc();
  }

  batch(kind: string, size: number): void {
    this.batchKind(kind).observe(size);
  }

  /** A device message committed: `deviceTs` is the device's own time (ms). */
  committed(kind: string, deviceTs: number): void {
    this.lagKind(kind).observe(Math.max(0, Date.now() - deviceTs) / 1000);
  }

  /** Command outcomes recorded (the rows a write changed: each command counts once). */
  commandOutcomes(rows: readonly { name: string; state: string }[]): void {
    for (const row of rows) this.outcomes.inc({ name: row.name, outcome: row.state });
  }

  jobRun(kind: string, ok: boolean, seconds?: number): void {
    this.jobsRun.inc({ kind, result: ok ? 'ok' : 'failed' });
    if (seconds !== undefined) this.jobSeconds.observe({ kind }, seconds);
  }

  /** The Prometheus text exposition. */
  async expose(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /**
   * The devices and jobs counts, read at most once per cacheMs (one read shared by the gauges of a
   * scrape and by concurrent scrapes). A read slower than DATABASE_WAIT_MS, or failing (the
   * database is away), leaves the last values: a scrape never hangs on the database.
   */
  private async fresh(): Promise<Snapshot | null> {
    if (!this.sources) return null;
    if (this.snapshot && Date.now() - this.fetchedAt < this.options.cacheMs) return this.snapshot;
    this.refreshing ??= this.refresh(this.sources.pool).finally(() => {
      this.refreshing = null;
    });
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.refreshing,
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, DATABASE_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    return this.snapshot;
  }

  private async refresh(pool: pg.Pool): Promise<void> {
    try {
      this.refreshes.inc();
      const [devices, jobs] = await Promise.all([
        pool.query<{ status: number; n: number }>(
          'select status, count(*)::int as n from device_state group by status',
        ),
        pool.query<{ kind: string; state: string; n: number }>(
          `select kind,
                  case when failed_at is not null then 'parked'
                       when run_at <= now() then 'due' else 'scheduled' end as state,
                  count(*)::int as n
             from jobs group by 1, 2`,
        ),
      ]);
      this.snapshot = { devices: devices.rows, jobs: jobs.rows };
      this.fetchedAt = Date.now();
    } catch {
      // The database is away: the last values stay (readiness says the database is down).
    }
  }
}
