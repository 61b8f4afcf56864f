/**
 * bench/ingest — telemetry ingest of N simulated APs with 20 clients each (issue 9, "Tests and figures").
 *
 *   npm run bench:ingest -w @beacon/bench -- 1000 [--runs 3] [--window 120] [--clients 20]
 *        [--telemetry-ms 30000] [--backfill-days 30] [--api-workers 2] [--api-interval-ms 250] [--ramp 500]
 *        [--mqtt-url mqtt://127.0.0.1:1883] [--link lean|mqtt] [--statements] [--no-analyze-wait]
 *
 * At 100,000 (issue 16): `npm run bench:ingest -w @beacon/bench -- 100000 --mqtt-url mqtt://127.0.0.1:1883
 * --ramp 1000 --window 120` (the machine's Mosquitto; its open-file limit must exceed N, see
 * bench/RESULTS.md). `--mqtt-url` makes the server and the devices use that broker (the server as
 * one more client, MQTT_URL, with a shared-subscription group of its own; devices under an SN prefix
 * of their own, their retained states cleared at the end); without it the server's embedded Aedes.
 * `--link lean` (default) runs the devices on packages/agent's lean MQTT link (one socket each, ~25 MB
 * per 1,000 devices), `--link mqtt` on mqtt.js. BENCH_CPU_PROF=<dir> makes the server child write a
 * V8 CPU profile there when it exits (where the per-message time goes).
 *
 * Each run:
 * 1. starts the server as a child process (its own embedded PostgreSQL in a temporary DATA_DIR on a
 *    known port, embedded Aedes broker, DEMO=0), signs up, creates a WLAN project and pre-provisions
 *    the N serial numbers by batch import (xlsx, 500 rows a file), as bench/fleet.ts does;
 * 2. backfills `--backfill-days` of daily device and dimension rollups (and, where the server keeps
 *    it, the project's daily band/SSID rollup made from them) and hourly project rollups before today (what a 30-day chart reads: stats/service.ts), so that the 30-day chart is timed
 *    over a full month of N devices, not over the few minutes of the run;
 * 3. starts N simulated APs in this process (packages/agent startDevice, each with its own client
 *    world of `--clients` stations all online: `clients: { population, onlineShare: 1 }`), one MQTT
 *    connection each, telemetry every `--telemetry-ms`; waits until the server has them all online and
 *    one full telemetry period more (the join burst settles), then until autovacuum has analysed
 *    online_clients at its full size (what a running system has; `analyzeWaitMs`);
 * 4. measures over `--window` seconds of steady load:
 *    - messages per second sustained: `stats_device` rows (one per written telemetry) whose `at` falls
 *      in the window, divided by its length; next to it the rate the devices offered;
 *    - ingest lag: device timestamp (`ts` of the telemetry the device published, recorded here as it
 *      leaves the device) to the moment its `stats_device` row is visible to another connection (the
 *      last commit of the write path: gateway/ingest.ts writes device_state and online clients first,
 *      the statistics after). The row is matched to the newest telemetry the device sent before the
 *      row's `at` (the server's receive time). Rows are polled every 250 ms (`--poll-ms`), so each lag is an upper
 *      bound with 250 ms resolution; the poller runs on for its 10 s look-back after the window; rows
 *      first seen by the final sweep after that are counted as `late` with their lag at the sweep;
 *    - server and PostgreSQL CPU seconds (user + system, exited children included) and RSS from /proc;
 *    - bytes stored per device per day: growth of pg_total_relation_size over every partition of the
 *      stats_* tables, online_clients, client_sessions, client_counts and device_events during the
 *      window, divided by N and scaled from the window to 24 h (rollup rows of the current bucket are
 *      updated in place, so hourly and daily rollups are under-counted by a short window: they are
 *      small next to the raw rows);
 *    - API latency during the load: `--api-workers` concurrent loops (each starting a request every
 *      `--api-interval-ms`, like users with open screens, not a saturating load) calling in turn the
 *      status route (STATS_ROUTES.status, range 24h) and the client list (CLIENT_ROUTES.list, 20 a
 *      page), timed with performance.now() around the whole HTTP call (no load-tool dependency); the 30-day project chart
 *      (STATS_ROUTES.devices, range 30d) every 5 s.
 * Prints each run and the median and spread (min–max) of the runs as JSON (bench/RESULTS.md).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearRetained, fleetSn, type SimulatedDevice, startDevice } from '@beacon/agent';
import { CLIENT_ROUTES, modelsOfType, STATS_ROUTES } from '@beacon/protocol';
import pg from 'pg';
import { freePort } from '../packages/server/src/db/embedded.ts';
import { ensureDailyPartitions } from '../packages/server/src/db/partitions.ts';
import { opt } from './args.ts';
import { checkOpenFiles } from './broker.ts';
import { apiCaller, jobSeconds, jobsBetween, signUpWithProject, waitForHealth } from './http.ts';

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 1000);
const RUNS = Number(opt('runs', '1'));
const WINDOW_S = Number(opt('window', '120'));
const CLIENTS = Number(opt('clients', '20'));
const TELEMETRY_MS = Number(opt('telemetry-ms', '30000'));
const BACKFILL_DAYS = Number(opt('backfill-days', '30'));
const API_WORKERS = Number(opt('api-workers', '2'));
const API_INTERVAL_MS = Number(opt('api-interval-ms', '250'));
const RAMP = Number(opt('ramp', '500'));
const MQTT_URL = opt('mqtt-url', '');
const LINK = opt('link', 'lean') as 'lean' | 'mqtt';
/** `--statements`: pg_stat_statements in the embedded PostgreSQL; prints where its time went. */
const STATEMENTS = args.includes('--statements');
const ANALYZE_WAIT = !args.includes('--no-analyze-wait');
const root = path.resolve(import.meta.dirname, '..');
const TICK = 100;
const DAY_MS = 86_400_000;
const POLL_MS = Number(opt('poll-ms', '250'));
const LOOKBACK_S = 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Tables whose growth is "bytes stored" (each summed over its partitions). */
const STORED = ['online_clients', 'client_sessions', 'client_counts', 'device_events'];

/** Waits until autovacuum has analysed online_clients with at least `rows` in it (3 minutes at most). */
async function waitForAnalyze(pool: pg.Pool, rows: number): Promise<number> {
  const t = Date.now();
  while (Date.now() - t < 180_000) {
    const { rows: r } = await pool.query<{ tuples: number }>(
      "select reltuples::float8 as tuples from pg_class where relname = 'online_clients'",
    );
    if ((r[0]?.tuples ?? 0) >= rows) break;
    await sleep(1000);
  }
  return Date.now() - t;
}

/** The statements that took the most of PostgreSQL's time since the reset (wall time inside it). */
async function topStatements(pool: pg.Pool) {
  const { rows } = await pool.query<{ query: string; calls: string; ms: number; mean: number; rows: string }>(
    `select regexp_replace(left(query, 90), '\\s+', ' ', 'g') as query, calls, round(total_exec_time) as ms,
            round(mean_exec_time::numeric, 2) as mean, rows
       from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
      order by total_exec_time desc limit 15`,
  );
  return rows.map((r) => ({
    ms: Number(r.ms),
    calls: Number(r.calls),
    meanMs: Number(r.mean),
    rows: Number(r.rows),
    query: r.query,
  }));
}

/** Rows written so far per table (PostgreSQL's cumulative statistics, flushed about once a second). */
async function tableWrites(pool: pg.Pool) {
  const { rows } = await pool.query<{ relname: string; ins: string; upd: string; hot: string; del: string }>(
    `select relname, n_tup_ins as ins, n_tup_upd as upd, n_tup_hot_upd as hot, n_tup_del as del
     from pg_stat_user_tables where relname in ('online_clients', 'device_state', 'devices')`,
  );
  return Object.fromEntries(
    rows.map((r) => [
      r.relname,
      { ins: Number(r.ins), upd: Number(r.upd), hot: Number(r.hot), del: Number(r.del) },
    ]),
  );
}

function procTree(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const s = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(e)]);
    } catch {}
  }
  return children;
}

function isPostgres(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('postgres');
  } catch {
    return false;
  }
}

/** Own ticks (with exited children: cutime/cstime) and RSS of one process. */
function proc(pid: number): { ticks: number; rssKb: number } {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return {
      ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]),
      rssKb: Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0),
    };
  } catch {
    return { ticks: 0, rssKb: 0 };
  }
}

interface Usage {
  serverCpu: number;
  serverRssMb: number;
  postgresCpu: number;
  postgresRssMb: number;
  benchCpu: number;
}

/**
 * CPU seconds and RSS of the server (node and any non-PostgreSQL children) and of its PostgreSQL
 * (postmaster and backends; the postmaster's cutime holds its exited backends). PostgreSQL RSS sums
 * the processes' RSS, so shared buffers touched by several backends count more than once.
 */
function usage(serverPid: number): Usage {
  const tree = procTree();
  let server = proc(serverPid);
  let pgTicks = 0;
  let pgRss = 0;
  const walk = (p: number, inPg: boolean) => {
    for (const c of tree.get(p) ?? []) {
      const u = proc(c);
      const pgChild = inPg || isPostgres(c);
      if (pgChild) {
        pgTicks += u.ticks;
        pgRss += u.rssKb;
      } else server = { ticks: server.ticks + u.ticks, rssKb: server.rssKb + u.rssKb };
      walk(c, pgChild);
    }
  };
  walk(serverPid, false);
  // The server's cutime would hold PostgreSQL only after it exits; it is alive during the window.
  const bench = process.cpuUsage();
  return {
    serverCpu: server.ticks / TICK,
    serverRssMb: Math.round(server.rssKb / 1024),
    postgresCpu: pgTicks / TICK,
    postgresRssMb: Math.round(pgRss / 1024),
    benchCpu: (bench.user + bench.system) / 1e6,
  };
}

function pct(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return +sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)].toFixed(1);
}

function dist(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: pct(s, 50),
    p99: pct(s, 99),
    max: s.length ? +s[s.length - 1].toFixed(1) : null,
  };
}

async function storedBytes(pool: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ name: string }>(
    `select c.relname as name from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relispartition
        and (c.relname like 'stats\\_%' or c.relname = any($1))`,
    [STORED],
  );
  const out: Record<string, number> = {};
  for (const { name } of rows) {
    const r = await pool.query<{ bytes: string | null }>(
      'select sum(pg_total_relation_size(relid))::bigint as bytes from pg_partition_tree($1::regclass)',
      [name],
    );
    out[name] = Number(r.rows[0].bytes ?? 0);
  }
  return out;
}

/**
 * A month of rollups before today for the project's devices: one daily device row and five daily
 * dimension rows (two radios, three SSIDs, as docs/monitoring-storage.md sizes an AP) per device and day, one hourly project row per hour.
 */
async function backfill(pool: pg.Pool, projectId: number, sns: string[], days: number): Promise<number> {
  if (days <= 0) return 0;
  const t0 = Date.now();
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const from = new Date(today - days * DAY_MS);
  await ensureDailyPartitions(pool, 'stats_project_1h', from, new Date(today));
  const snJson = JSON.stringify(sns);
  await pool.query(
    `insert into stats_device_1d (bucket, project_id, sn, samples, cpu_avg, cpu_max, memory_avg, memory_max,
        clients_avg, clients_max, rx_bytes, tx_bytes, wan_rx_bytes, wan_tx_bytes)
     select d, $1, sn, 2880, 10 + random() * 30, 60 + random() * 30, 30 + random() * 30, 70 + random() * 20,
        $4::int, $4::int + 5, (random() * 5e10)::bigint, (random() * 1e10)::bigint, null, null
       from jsonb_array_elements_text($2::jsonb) sn,
            generate_series($3::timestamptz, $3::timestamptz + ($5::int - 1) * interval '1 day', interval '1 day') d`,
    [projectId, snJson, from.toISOString(), CLIENTS, days],
  );
  await pool.query(
    `insert into stats_dim_1d (bucket, project_id, sn, kind, key, samples, clients_avg, clients_max, rx_bytes, tx_bytes)
     select d, $1, sn, k.kind, k.key, 2880, $4::int / 2.0, $4::int, (random() * 2e10)::bigint, (random() * 5e9)::bigint
       from jsonb_array_elements_text($2::jsonb) sn,
            generate_series($3::timestamptz, $3::timestamptz + ($5::int - 1) * interval '1 day', interval '1 day') d,
            (values ('radio', '2.4G'), ('radio', '5G'), ('ssid', 'Bench'), ('ssid', 'Guest'), ('ssid', 'IoT')) k(kind, key)`,
    [projectId, snJson, from.toISOString(), CLIENTS, days],
  );
  await pool.query(
    `insert into stats_project_1h (bucket, project_id, devices, cpu_avg, memory_avg, clients, rx_bytes, tx_bytes,
        wan_rx_bytes, wan_tx_bytes)
     select h, $1, $2::int, 25, 45, $2::int * $4::int, (random() * 1e12)::bigint, (random() * 2e11)::bigint, null, null
       from generate_series($3::timestamptz, $3::timestamptz + ($5::int * 24 - 1) * interval '1 hour', interval '1 hour') h`,
    [projectId, sns.length, from.toISOString(), CLIENTS, days],
  );
  // What the rollup job keeps per project from the daily dimension rows (decision 0044), when this
  // version of the server has the table (migration 0015 fills it from existing rows the same way).
  const { rows: dimTable } = await pool.query(`select to_regclass('stats_project_dim_1d') as t`);
  if (dimTable[0].t !== null) {
    await pool.query(
      `insert into stats_project_dim_1d (bucket, project_id, kind, key, clients, rx_bytes, tx_bytes)
       select bucket, project_id, kind, key, sum(clients_avg), sum(rx_bytes), sum(tx_bytes) from stats_dim_1d
        where project_id = $1 group by 1, 2, 3, 4
       on conflict (project_id, bucket, kind, key) do update set clients = excluded.clients,
         rx_bytes = excluded.rx_bytes, tx_bytes = excluded.tx_bytes`,
      [projectId],
    );
  }
  await pool.query('analyze stats_device_1d; analyze stats_dim_1d; analyze stats_project_1h');
  return Date.now() - t0;
}

async function run() {
  checkOpenFiles(N);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-bench-ingest-'));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const mqttPort = await freePort();
  const pgPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF]
    : [];
  // On a shared broker: serial numbers and a subscription group of this run's own.
  const tag = MQTT_URL ? (Date.now() % 46_656).toString(36).toUpperCase().padStart(3, '0') : '';
  const brokerUrl = MQTT_URL || `mqtt://127.0.0.1:${mqttPort}`;
  const server = spawn(process.execPath, [...profile, '--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      MQTT_URL,
      MQTT_SHARE_GROUP: `bench${tag}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      EMBEDDED_PG_PORT: String(pgPort),
      DATA_DIR: dataDir,
      DEMO: '0',
      DEV_OUTBOX: '1',
      LOG_LEVEL: 'warn',
      EMBEDDED_PG_SETTINGS: STATEMENTS ? 'shared_preload_libraries=pg_stat_statements' : '',
      AUTH_RATE_LIMIT: '100000',
      PUBLIC_URL: base,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const serverPid = server.pid!;
  const devices: SimulatedDevice[] = [];
  let pool: pg.Pool | null = null;
  try {
    await waitForHealth(base);
    pool = new pg.Pool({
      connectionString: `postgresql://postgres:beacon@127.0.0.1:${pgPort}/beacon`,
      max: 2,
    });
    const call = apiCaller(base);
    const project = await signUpWithProject(call, `Ingest${N}`);

    // APs only: they are the devices with clients. Models in turn.
    const models = modelsOfType('ap');
    const plan = Array.from({ length: N }, (_, i) => ({
      sn: fleetSn(`B${tag}`, 'ap', i + 1),
      model: models[i % models.length].model,
    }));
    const XLSX = await import('@e965/xlsx');
    for (let i = 0; i < plan.length; i += 500) {
      const rows = plan.slice(i, i + 500).map((d) => [d.sn, d.model]);
      const sheet = XLSX.utils.aoa_to_sheet([['Serial number', 'Model'], ...rows]);
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, sheet, 'Devices');
      const form = new FormData();
      form.append(
        'file',
        new Blob([new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }))]),
        'fleet.xlsx',
      );
      const result = await call<{ added: number }>('POST', `/projects/${project.id}/devices/import`, form);
      if (result.added !== rows.length) throw new Error(`import added ${result.added} of ${rows.length}`);
    }
    const backfillMs = await backfill(
      pool,
      project.id,
      plan.map((d) => d.sn),
      BACKFILL_DAYS,
    );

    // What each device published: its telemetry timestamps (the lag's start), newest last.
    const sent = new Map<string, number[]>();
    let published = 0;
    const record = (sn: string, ts: number) => {
      published++;
      const list = sent.get(sn) ?? [];
      list.push(ts);
      if (list.length > 8) list.shift();
      sent.set(sn, list);
    };
    const tStart = Date.now();
    for (let i = 0; i < plan.length; i += 50) {
      const batch = plan.slice(i, i + 50);
      const started = await Promise.all(
        batch.map((p) =>
          startDevice({
            url: brokerUrl,
            link: LINK,
            // Loopback: ~28,000 ephemeral ports per source address (packages/agent fleet.ts).
            localAddress:
              N > 20_000 ? `127.0.0.${1 + Math.floor((i + batch.indexOf(p)) / 20_000)}` : undefined,
            sn: p.sn,
            model: p.model,
            telemetryMs: TELEMETRY_MS,
            clients: { population: CLIENTS, onlineShare: 1 },
            clientEvents: false,
            keepalive: 60,
          }),
        ),
      );
      for (const d of started) {
        const link = d.link as unknown as { publish: (kind: string, payload: object) => void };
        const original = link.publish.bind(link);
        link.publish = (kind, payload) => {
          if (kind === 'telemetry') record(d.sn, (payload as { ts?: number }).ts ?? Date.now());
          original(kind, payload);
        };
        devices.push(d);
      }
      if (i + 50 < plan.length) await sleep((1000 * batch.length) / RAMP);
    }
    const online = async () =>
      (await call<{ total: number }>('GET', `/projects/${project.id}/devices?status=1&pageSize=1`)).total;
    while ((await online()) < N) {
      if (Date.now() - tStart > 15 * 60_000) throw new Error(`not all ${N} online after 15 minutes`);
      await sleep(500);
    }
    const allOnlineMs = Date.now() - tStart;
    // One telemetry period more: every device has reported its clients, the join burst is written.
    await sleep(TELEMETRY_MS + 5000);
    // Steady state also means statistics: until autovacuum has analysed the client table at its
    // full size, the planner takes it for empty and the client list's pages cost ~1 s instead of
    // ~10 ms (2026-11-28). Waited for (at most 3 minutes, `--no-analyze-wait` to skip), and reported.
    const analyzeWaitMs = ANALYZE_WAIT ? await waitForAnalyze(pool, N * CLIENTS * 0.9) : null;

    // ---- the measured window ----
    const sizes0 = await storedBytes(pool);
    const writes0 = await tableWrites(pool);
    const jobs0 = await jobSeconds(base);
    if (STATEMENTS) {
      await pool.query('create extension if not exists pg_stat_statements');
      await pool.query('select pg_stat_statements_reset()');
    }
    const u0 = usage(serverPid);
    const peak = { serverRssMb: u0.serverRssMb, postgresRssMb: u0.postgresRssMb };
    const sampler = setInterval(() => {
      const u = usage(serverPid);
      peak.serverRssMb = Math.max(peak.serverRssMb, u.serverRssMb);
      peak.postgresRssMb = Math.max(peak.postgresRssMb, u.postgresRssMb);
    }, 1000);
    const published0 = published;
    const w0 = new Date();
    const end = w0.getTime() + WINDOW_S * 1000;

    // Lags with the row's time: rows of the window only are counted (the poller runs on after it).
    const lags: { at: number; lag: number }[] = [];
    const seen = new Set<string>();
    let unmatched = 0;
    const observe = (rows: { sn: string; at: Date }[], observedAt: number) => {
      let fresh = 0;
      for (const r of rows) {
        const key = `${r.sn}|${r.at.getTime()}`;
        if (seen.has(key)) continue;
        seen.add(key);
        fresh++;
        const ts = (sent.get(r.sn) ?? []).filter((t) => t <= r.at.getTime()).pop();
        if (ts === undefined) unmatched++;
        else lags.push({ at: r.at.getTime(), lag: observedAt - ts });
      }
      return fresh;
    };
    // The poller goes on for its look-back after the window, so that the window's last rows are seen
    // as they commit rather than by the final sweep.
    const pollEnd = end + LOOKBACK_S * 1000;
    const poller = (async () => {
      while (Date.now() < pollEnd) {
        const t = Date.now();
        const since = new Date(Math.max(w0.getTime(), t - LOOKBACK_S * 1000));
        const { rows } = await pool!.query<{ sn: string; at: Date }>(
          'select sn, at from stats_device where at >= $1',
          [since],
        );
        observe(rows, Date.now());
        await sleep(Math.max(0, POLL_MS - (Date.now() - t)));
      }
    })();

    const api: Record<'status' | 'clients' | 'chart30d', number[]> = {
      status: [],
      clients: [],
      chart30d: [],
    };
    const errors: string[] = [];
    // The slowest calls with when they started (seconds into the window), to set beside the jobs.
    const slow: { name: string; at: number; ms: number }[] = [];
    const timed = async (name: keyof typeof api, p: string) => {
      const t = performance.now();
      const startedAt = Date.now();
      try {
        await call('GET', p);
        const ms = performance.now() - t;
        api[name].push(ms);
        if (ms > 250)
          slow.push({ name, at: +((startedAt - w0.getTime()) / 1000).toFixed(1), ms: Math.round(ms) });
      } catch (err) {
        if (errors.length < 5) errors.push(`${name}: ${(err as Error).message}`);
      }
    };
    const at = (route: { path: string }) => `${route.path.replace(':id', String(project.id))}`;
    const workers = Array.from({ length: API_WORKERS }, async (_, w) => {
      await sleep((API_INTERVAL_MS * w) / API_WORKERS);
      for (let i = w; Date.now() < end; i++) {
        const t = Date.now();
        if (i % 2 === 0) await timed('status', `${at(STATS_ROUTES.status)}?range=24h`);
        else await timed('clients', `${at(CLIENT_ROUTES.list)}?page=${1 + (i % 5)}&pageSize=20`);
        await sleep(Math.max(0, API_INTERVAL_MS - (Date.now() - t)));
      }
    });
    const chart = (async () => {
      while (Date.now() < end) {
        const t = Date.now();
        await timed('chart30d', `${at(STATS_ROUTES.devices)}?range=30d`);
        await sleep(Math.max(0, 5000 - (Date.now() - t)));
      }
    })();
    await Promise.all([chart, ...workers]);
    const w1 = new Date();
    const u1 = usage(serverPid);
    clearInterval(sampler);
    const publishedInWindow = published - published0;
    // Let the last messages of the window land, then sweep what the poller did not see in time.
    await poller;
    const { rows: inWindow } = await pool.query<{ sn: string; at: Date }>(
      'select sn, at from stats_device where at >= $1 and at < $2',
      [w0, w1],
    );
    const late = observe(inWindow, Date.now());
    const sizes1 = await storedBytes(pool);
    const writes1 = await tableWrites(pool);
    const jobs1 = await jobSeconds(base);
    const statements = STATEMENTS ? await topStatements(pool) : undefined;
    // Deadlocks PostgreSQL broke since it started (batches rerun them; decision 0044 counts them).
    const { rows: dl } = await pool.query<{ deadlocks: string }>(
      'select deadlocks from pg_stat_database where datname = current_database()',
    );
    const seconds = (w1.getTime() - w0.getTime()) / 1000;
    const perDeviceDay: Record<string, number> = {};
    let total = 0;
    let history = 0;
    for (const [name, bytes] of Object.entries(sizes1)) {
      const growth = bytes - (sizes0[name] ?? 0);
      if (growth === 0) continue;
      const v = Math.round(((growth / N) * 86_400) / seconds);
      perDeviceDay[name] = v;
      total += v;
      // online_clients holds the clients online now (rows replaced, not kept): its growth is churn
      // that vacuum reuses, not history.
      if (name !== 'online_clients') history += v;
    }
    const cpu = (a: number, b: number) => +(b - a).toFixed(1);
    return {
      devices: N,
      clientsPerDevice: CLIENTS,
      telemetryMs: TELEMETRY_MS,
      windowSeconds: +seconds.toFixed(1),
      allOnlineMs,
      analyzeWaitMs,
      backfillMs,
      messagesPerSecond: {
        offered: +(publishedInWindow / seconds).toFixed(1),
        committed: +(inWindow.length / seconds).toFixed(1),
      },
      ingestLagMs: {
        ...dist(lags.filter((l) => l.at < w1.getTime()).map((l) => l.lag)),
        late,
        unmatched,
      },
      cpuSeconds: {
        server: cpu(u0.serverCpu, u1.serverCpu),
        postgres: cpu(u0.postgresCpu, u1.postgresCpu),
        benchProcess: cpu(u0.benchCpu, u1.benchCpu),
      },
      cpuShareOfOneCore: {
        server: +((u1.serverCpu - u0.serverCpu) / seconds).toFixed(2),
        postgres: +((u1.postgresCpu - u0.postgresCpu) / seconds).toFixed(2),
        benchProcess: +((u1.benchCpu - u0.benchCpu) / seconds).toFixed(2),
      },
      rssMb: {
        server: u1.serverRssMb,
        serverPeak: peak.serverRssMb,
        postgres: u1.postgresRssMb,
        postgresPeak: peak.postgresRssMb,
        benchProcess: Math.round(process.memoryUsage().rss / 2 ** 20),
      },
      bytesPerDevicePerDay: { total, history, ...perDeviceDay },
      apiLatencyMs: {
        status: dist(api.status),
        clientList: dist(api.clients),
        chart30d: dist(api.chart30d),
      },
      apiErrors: errors,
      apiCallsOver250Ms: slow.sort((a, b) => b.ms - a.ms).slice(0, 12),
      cpuMsPerMessage: {
        server: +(((u1.serverCpu - u0.serverCpu) * 1000) / Math.max(1, inWindow.length)).toFixed(2),
        postgres: +(((u1.postgresCpu - u0.postgresCpu) * 1000) / Math.max(1, inWindow.length)).toFixed(2),
      },
      // Row writes per second of the window: how many of the updates were HOT (no index touched).
      rowWritesPerSecond: Object.fromEntries(
        Object.entries(writes1).map(([name, w]) => {
          const d = (k: keyof typeof w) => Math.round((w[k] - (writes0[name]?.[k] ?? 0)) / seconds);
          return [name, { ins: d('ins'), upd: d('upd'), hot: d('hot'), del: d('del') }];
        }),
      ),
      // The durable jobs that ran in the window (the statistics rollup above all): runs and seconds.
      jobsInWindow: jobsBetween(jobs0, jobs1),
      statements,
      deadlocksSinceStart: Number(dl[0]?.deadlocks ?? 0),
    };
  } finally {
    await Promise.all(devices.map((d) => d.stop().catch(() => {})));
    await pool?.end().catch(() => {});
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    // Retained states the devices left on the shared broker, once the server no longer listens.
    if (MQTT_URL)
      await clearRetained(
        MQTT_URL,
        devices.map((d) => d.sn),
      );
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

type Run = Awaited<ReturnType<typeof run>>;
const runs: Run[] = [];
for (let i = 0; i < RUNS; i++) {
  const r = await run();
  console.log(JSON.stringify(r));
  runs.push(r);
}
const spread = (f: (r: Run) => number | null) => {
  const v = runs
    .map(f)
    .filter((x): x is number => x !== null)
    .sort((a, b) => a - b);
  return v.length ? { median: v[Math.floor(v.length / 2)], min: v[0], max: v[v.length - 1] } : null;
};
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, Node ${process.version}`,
      loadAverageAtEnd: os.loadavg().map((l) => +l.toFixed(2)),
      devices: N,
      runs: RUNS,
      summary: {
        committedPerSecond: spread((r) => r.messagesPerSecond.committed),
        offeredPerSecond: spread((r) => r.messagesPerSecond.offered),
        lagP50Ms: spread((r) => r.ingestLagMs.p50),
        lagP99Ms: spread((r) => r.ingestLagMs.p99),
        serverCpuShare: spread((r) => r.cpuShareOfOneCore.server),
        postgresCpuShare: spread((r) => r.cpuShareOfOneCore.postgres),
        serverRssPeakMb: spread((r) => r.rssMb.serverPeak),
        postgresRssPeakMb: spread((r) => r.rssMb.postgresPeak),
        bytesPerDevicePerDay: spread((r) => r.bytesPerDevicePerDay.total),
        historyBytesPerDevicePerDay: spread((r) => r.bytesPerDevicePerDay.history),
        statusP50Ms: spread((r) => r.apiLatencyMs.status.p50),
        statusP99Ms: spread((r) => r.apiLatencyMs.status.p99),
        clientListP50Ms: spread((r) => r.apiLatencyMs.clientList.p50),
        clientListP99Ms: spread((r) => r.apiLatencyMs.clientList.p99),
        chart30dP50Ms: spread((r) => r.apiLatencyMs.chart30d.p50),
        chart30dMaxMs: spread((r) => r.apiLatencyMs.chart30d.max),
      },
    },
    null,
    2,
  ),
);
process.exit(0);
