import { type SimulatedDevice, startDevice } from '@beacon/agent';
import {
  type DeviceStatsView,
  type ProjectStatsView,
  STATS_RANGE_MS,
  STATS_RANGES,
  STATS_SSID_SERIES_MAX,
  type StatsRange,
  type StatusSummaryView,
  type Telemetry,
  type TelemetryClient,
  upTopic,
} from '@beacon/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPartitions } from '../src/db/partitions.ts';
import { devices } from '../src/db/schema.ts';
import { maintainPartitions, rollUp, topWindow } from '../src/stats/rollup.ts';
import { deviceRow, EventCollector, insertProject, simulate, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, signInAgain, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Device statistics (docs/monitoring-storage.md): telemetry of simulated devices lands in the
 * partitioned tables, the rollup job folds it into 5-minute, hourly and daily rows, and the API
 * answers, for every range, what the raw rows say (computed here from the rows themselves).
 * The server clock (deps.now) is moved: samples 20 hours before the end and 2 hours before it, so
 * the 12-hour range sees only the recent ones; then 10 days on, retention drops whole partitions.
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
const running: SimulatedDevice[] = [];
const query = async <T>(text: string, params: unknown[] = []): Promise<T[]> =>
  (await server.database.pool.query(text, params)).rows as T[];

beforeAll(async () => {
  // Jobs run only when the test ticks them.
  server = await startTestServer({ JOB_POLL_MS: '0' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

async function get<T>(path: string): Promise<T> {
  let res = await owner.client.get<T>(path);
  if (res.body.code === 10) {
    // The clock moved past the session's lifetime: a new sign-in, as a user would.
    await signInAgain(server, owner);
    res = await owner.client.get<T>(path);
  }
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data;
}

/** Runs the rollups until every level has caught up with the clock (each run handles a bounded span). */
async function rollUpAll(): Promise<void> {
  for (let i = 0; i < 60; i++) {
    const marks = await server.database.db.transaction((tx) => rollUp(tx, server.clock.now()));
    if (
      marks['5m'].getTime() >= server.clock.now().getTime() - 600_000 &&
      marks['1d'].getTime() >= marks['1h'].getTime() - 86_400_000
    )
      return;
  }
  throw new Error('rollups did not catch up');
}

describe('telemetry of simulated devices', () => {
  it('lands in the raw tables: device rows with byte deltas, per port, radio and SSID rows', async () => {
    const gw = testSn('S');
    const ap = testSn('A');
    for (const [sn, model] of [
      [gw, 'BS-S1008P'],
      [ap, 'BA-W1200C'],
    ]) {
      await server.database.db
        .insert(devices)
        .values({ sn, model, type: 'router', projectId })
        .onConflictDoNothing();
      running.push(await simulate(server, sn, { model }));
    }
    // The switch's port counters move between telemetries: a positive delta is stored.
    await waitFor(
      async () =>
        (
          await query<{ n: number }>(
            `select count(*)::int as n from stats_device where sn = $1 and rx_bytes > 0 and wan_rx_bytes is null`,
            [gw],
          )
        )[0].n > 0,
      'a switch sample with port bytes',
      20_000,
    );
    await waitFor(
      async () =>
        (
          await query<{ n: number }>(
            `select count(*)::int as n from stats_dim where sn = $1 and kind = 'radio'`,
            [ap],
          )
        )[0].n >= 2,
      'radio samples of the AP',
      20_000,
    );
    const ports = await query<{ key: string }>(
      `select distinct key from stats_dim where sn = $1 and kind = 'port'`,
      [gw],
    );
    expect(ports.length).toBeGreaterThan(1);
    const [row] = await query<{ project_id: number; seconds: number }>(
      `select project_id, seconds from stats_device where sn = $1 order by at desc limit 1`,
      [gw],
    );
    expect(Number(row.project_id)).toBe(projectId);
    expect(row.seconds).toBeGreaterThan(0);
    await Promise.all(running.splice(0).map((d) => d.stop()));
  });

  it('sends one stats.updated per project at most every 10 s, after the batch commits', async () => {
    const sn = testSn('E');
    await server.database.db
      .insert(devices)
      .values({ sn, model: 'BA-W1200C', type: 'ap', projectId })
      .onConflictDoNothing();
    const collector = await EventCollector.start(server);
    try {
      const device = await simulate(server, sn);
      running.push(device);
      await waitFor(
        () => collector.events.some((e) => e.type === 'stats.updated' && e.projectId === projectId),
        'stats.updated',
        20_000,
      );
      await new Promise((r) => setTimeout(r, 3000));
      const seen = collector.events.filter((e) => e.type === 'stats.updated' && e.projectId === projectId);
      // Telemetry every 500 ms (written at most once a second) for 3 s: still one event.
      expect(seen.length).toBe(1);
      await device.stop();
      running.splice(running.indexOf(device), 1);
    } finally {
      await collector.stop();
    }
  });
});

// --- Aggregates for every range, checked against the raw rows -------------------------------------

const SSIDS = ['Staff', 'Guest'];

function clientsOf(n: number, i: number): TelemetryClient[] {
  return Array.from({ length: n }, (_, k) => ({
    mac: `02:00:00:00:${String(i % 100).padStart(2, '0')}:${String(k).padStart(2, '0')}`,
    name: `c${k}`,
    ip: `10.0.0.${k + 2}`,
    kind: 'phone',
    wired: false,
    ssid: SSIDS[k % 2],
    band: k % 2 ? '5G' : '2.4G',
    rssi: -50,
    txRate: 1000,
    rxRate: 2000,
    txBytes: 0,
    rxBytes: 0,
    onlineSeconds: 10,
    vlan: null,
  }));
}

/** The i-th controlled telemetry of the AP (radios move bytes) or the gateway (its WAN does). */
function telemetryOf(kind: 'ap' | 'gw', i: number): Telemetry {
  const n = (i % 3) + 1 + (kind === 'gw' ? 2 : 0);
  const clients = clientsOf(n, i);
  const base: Telemetry = {
    ts: Date.now(),
    uptime: 100_000 + i * 30,
    cpu: kind === 'ap' ? 10 + i : 50 + (i % 4),
    memory: kind === 'ap' ? 40 + i : 30,
    clientCount: n,
    clients,
    led: true,
    locating: false,
  };
  if (kind === 'ap') {
    base.radios = ['2.4G', '5G'].map((band, b) => ({
      band: band as '2.4G',
      channel: b ? 36 : 1,
      power: 20,
      utilisation: 10,
      noise: -90,
      clients: clients.filter((c) => c.band === band).length,
      rxBytes: (i + 1) * 1_000_000 * (b + 1),
      txBytes: (i + 1) * 3_000_000 * (b + 1),
    }));
  } else {
    base.wan = {
      online: true,
      ip: '203.0.113.9',
      rxRate: 1000,
      txRate: 100,
      rxBytes: (i + 1) * 7_000_000 + i * i * 10_000,
      txBytes: (i + 1) * 2_000_000,
    };
  }
  return base;
}

interface Raw {
  sn: string;
  at: Date;
  cpu: number;
  memory: number;
  clients: number;
  rx: number;
  tx: number;
  wanRx: number | null;
  wanTx: number | null;
}

describe('aggregates per range', () => {
  // A project of its own: the samples above (at real time) stay out of its sums.
  let projectId: number;
  let ap: string;
  let gw: string;
  let end = 0;
  let start = 0;
  let raw: Raw[] = [];
  const sims: Record<string, SimulatedDevice> = {};

  /** Moves the server clock to `at` (ms) and sends both devices' i-th telemetry, written before it returns. */
  async function sendAt(at: number, i: number, sims: Record<string, SimulatedDevice>): Promise<void> {
    server.clock.offsetMs = at - Date.now();
    for (const [sn, kind] of [
      [ap, 'ap'],
      [gw, 'gw'],
    ] as const) {
      await sims[sn].publishRaw(upTopic(sn, 'telemetry'), JSON.stringify(telemetryOf(kind, i)));
    }
    // Accepted at PUBACK; drain writes what is pending now (not at the end of the 1 s window).
    await waitFor(async () => {
      await server.gateway.ingest.drain();
      const [{ n }] = await query<{ n: number }>(
        `select count(*)::int as n from stats_device where sn = any($1) and at >= $2`,
        [[ap, gw], new Date(at - 5_000)],
      );
      return n >= 2;
    }, `sample ${i}`);
  }

  beforeAll(async () => {
    projectId = await insertProject(server, owner.id);
    ap = testSn('P');
    gw = testSn('W');
    for (const [sn, model, type] of [
      [ap, 'BA-W1200C', 'ap'],
      [gw, 'BG-R1200', 'router'],
    ]) {
      await server.database.db.insert(devices).values({ sn, model, type, projectId }).onConflictDoNothing();
      const device = await startDevice({
        url: server.gateway.brokerUrl,
        sn,
        model,
        factoryKey: server.config.factoryKey,
        timeScale: 0.01,
        telemetryMs: 3_600_000,
        backoffMinMs: 100,
        backoffMaxMs: 400,
        keepalive: 5,
        clientEvents: false,
      });
      running.push(device);
      sims[sn] = device;
      await waitFor(async () => (await deviceRow(server, sn))?.telemetryAt, `${sn} first telemetry`);
    }
    start = Date.now() + 3_600_000;
    end = start + 20 * 3_600_000;
    // Old samples (20 h before the end), then recent ones (2 h before it), 30 s apart.
    let i = 0;
    for (let k = 0; k < 3; k++) await sendAt(start + k * 30_000, i++, sims);
    for (let k = 0; k < 6; k++) await sendAt(start + 18 * 3_600_000 + k * 30_000, i++, sims);
    server.clock.offsetMs = end - Date.now();
    raw = (
      await query<Record<string, unknown>>(
        `select sn, at, cpu, memory, clients, rx_bytes, tx_bytes, wan_rx_bytes, wan_tx_bytes from stats_device
          where sn = any($1) order by at`,
        [[ap, gw]],
      )
    ).map((r) => ({
      sn: String(r.sn),
      at: new Date(r.at as string),
      cpu: Number(r.cpu),
      memory: Number(r.memory),
      clients: Number(r.clients),
      rx: Number(r.rx_bytes),
      tx: Number(r.tx_bytes),
      wanRx: r.wan_rx_bytes === null ? null : Number(r.wan_rx_bytes),
      wanTx: r.wan_tx_bytes === null ? null : Number(r.wan_tx_bytes),
    }));
    // Jobs first (the rollup chain runs once through the runner), then every level caught up.
    await server.jobs.tick();
    await rollUpAll();
  }, 120_000);

  it('stores byte deltas: what the counters moved between two telemetries 30 s apart, nothing across a gap', () => {
    // The rows of the controlled telemetries (the devices' first one, at connection, is before them).
    const mine = raw.filter((r) => r.at.getTime() >= start - 5_000);
    const apRows = mine.filter((r) => r.sn === ap);
    expect(apRows).toHaveLength(9);
    // Samples 0 and 3 follow a gap (first of a group): no delta. The others: radios moved
    // 1 MB + 2 MB received and 3 MB + 6 MB sent per step.
    expect(apRows.map((r) => r.rx)).toEqual([0, 3e6, 3e6, 0, 3e6, 3e6, 3e6, 3e6, 3e6]);
    expect(apRows.map((r) => r.tx)).toEqual([0, 9e6, 9e6, 0, 9e6, 9e6, 9e6, 9e6, 9e6]);
    const gwRows = mine.filter((r) => r.sn === gw);
    expect(gwRows.map((r) => r.wanTx)).toEqual([0, 2e6, 2e6, 0, 2e6, 2e6, 2e6, 2e6, 2e6]);
    expect(gwRows.every((r) => r.rx === r.wanRx)).toBe(true);
  });

  const inRange = (range: StatsRange) => raw.filter((r) => r.at.getTime() >= end - STATS_RANGE_MS[range]);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const mean = (xs: number[]) => sum(xs) / xs.length;

  it.each(STATS_RANGES)(
    'answers the raw rows of %s: status, project charts, top lists, one device',
    async (range) => {
      const rows = inRange(range);
      const ofAp = rows.filter((r) => r.sn === ap);
      const ofGw = rows.filter((r) => r.sn === gw);
      // 12 h: the recent six; longer: the old three and the connection's telemetry too.
      expect(ofAp.length).toBe(range === '12h' ? 6 : raw.filter((r) => r.sn === ap).length);
      expect(raw.filter((r) => r.sn === ap).length).toBeGreaterThanOrEqual(10);

      const status = await get<StatusSummaryView>(`/projects/${projectId}/stats/status?range=${range}`);
      expect(status.range).toBe(range);
      const wanBytes = sum(status.wan.map((p) => (p.rxBps * status.bucketSeconds) / 8));
      expect(Math.abs(wanBytes - sum(ofGw.map((r) => r.wanRx ?? 0)))).toBeLessThan(status.bucketSeconds);
      expect(status.topByClients.map((t) => t.sn)).toEqual([ap]); // the gateway is no AP
      expect(status.topByClients[0].clients).toBeCloseTo(mean(ofAp.map((r) => r.clients)), 1);
      expect(status.topByThroughput[0].bytes).toBe(sum(ofAp.map((r) => r.rx + r.tx)));
      expect(status.devices.byType).toEqual(
        expect.arrayContaining([expect.objectContaining({ type: 'ap', online: expect.any(Number) })]),
      );

      const project = await get<ProjectStatsView>(`/projects/${projectId}/stats/devices?range=${range}`);
      const traffic = new Map(project.top.traffic.map((t) => [t.sn, t.bytes]));
      expect(traffic.get(ap)).toBe(sum(ofAp.map((r) => r.rx + r.tx)));
      expect(traffic.get(gw)).toBe(sum(ofGw.map((r) => r.rx + r.tx)));
      const cpu = new Map(project.top.cpu.map((t) => [t.sn, t.value]));
      expect(cpu.get(ap)).toBeCloseTo(mean(ofAp.map((r) => r.cpu)), 1);
      expect(cpu.get(gw)).toBeCloseTo(mean(ofGw.map((r) => r.cpu)), 1);
      const memory = new Map(project.top.memory.map((t) => [t.sn, t.value]));
      expect(memory.get(ap)).toBeCloseTo(mean(ofAp.map((r) => r.memory)), 1);
      // The chart: bytes over its buckets add up to the raw rows of the project's devices in range.
      const chartRx = sum(project.points.map((p) => ((p.rxBps ?? 0) * project.bucketSeconds) / 8));
      const mine = sum(rows.map((r) => r.rx));
      expect(Math.abs(chartRx - mine)).toBeLessThan(project.bucketSeconds * 2);
      expect(project.bands.map((b) => b.key)).toEqual(['2.4G', '5G']);
      expect(project.ssids.map((b) => b.key).sort()).toEqual(['Guest', 'Staff']);

      const one = await get<DeviceStatsView>(`/projects/${projectId}/stats/devices/${ap}?range=${range}`);
      const deviceTx = sum(one.points.map((p) => ((p.txBps ?? 0) * one.bucketSeconds) / 8));
      expect(Math.abs(deviceTx - sum(ofAp.map((r) => r.tx)))).toBeLessThan(one.bucketSeconds);
      const cpuPoints = one.points.filter((p) => p.cpu !== null);
      expect(cpuPoints.length).toBeGreaterThan(0);
      expect(one.radios.map((r) => r.key)).toEqual(['2.4G', '5G']);
      const radio5 = one.radios.find((r) => r.key === '5G')!;
      const radioRx = sum(radio5.points.map((p) => ((p.rxBps ?? 0) * one.bucketSeconds) / 8));
      // The 5G radio moved 2 MB received per counted step.
      expect(Math.abs(radioRx - 2e6 * ofAp.filter((r) => r.rx > 0).length)).toBeLessThan(one.bucketSeconds);
    },
  );

  it('measures the bytes a sample takes (docs/monitoring-storage.md)', async () => {
    const size = async (table: string) =>
      (
        await query<{ avg: number; n: number }>(
          `select avg(pg_column_size(t.*))::float as avg, count(*)::int as n from ${table} t where sn = any($1)`,
          [[ap, gw]],
        )
      )[0];
    const sizes = {
      device: await size('stats_device'),
      dim: await size('stats_dim'),
      device5m: await size('stats_device_5m'),
      dim5m: await size('stats_dim_5m'),
    };
    console.info(
      'stats row sizes (bytes, tuple data without the 24-byte header and index entries):',
      JSON.stringify(sizes),
    );
    // A raw device row stays small: no JSON, fixed-width columns and the serial number.
    expect(sizes.device.avg).toBeLessThan(120);
    expect(sizes.dim.avg).toBeLessThan(100);
  });

  it.each(STATS_RANGES)(
    'answers the same top lists of %s from the rollup job as computed at the request (decision 0044)',
    async (range) => {
      // The job ranked this window: the routes read its lists.
      const [state] = await query<{ computed_at: Date; top_start: Date }>(
        'select computed_at, top_start from stats_top_state where range = $1',
        [range],
      );
      expect(new Date(state.top_start).getTime()).toBe(topWindow(range, server.clock.now().getTime()).start);
      const [{ n }] = await query<{ n: number }>(
        'select count(*)::int as n from stats_top where range = $1 and project_id = $2',
        [range, projectId],
      );
      expect(n).toBeGreaterThan(0);
      const kept = {
        status: await get<StatusSummaryView>(`/projects/${projectId}/stats/status?range=${range}`),
        project: await get<ProjectStatsView>(`/projects/${projectId}/stats/devices?range=${range}`),
      };
      // Without the job's lists (stale): computed from the rollups at the request, the same answer.
      await query(
        `update stats_top_state set computed_at = computed_at - interval '1 day' where range = $1`,
        [range],
      );
      try {
        const status = await get<StatusSummaryView>(`/projects/${projectId}/stats/status?range=${range}`);
        const project = await get<ProjectStatsView>(`/projects/${projectId}/stats/devices?range=${range}`);
        expect(kept.status.topByClients).toEqual(status.topByClients);
        expect(kept.status.topByThroughput).toEqual(status.topByThroughput);
        expect(kept.project.top).toEqual(project.top);
        expect(kept.project.top.cpu.length).toBe(2);
      } finally {
        await query(`update stats_top_state set computed_at = $2 where range = $1`, [
          range,
          state.computed_at,
        ]);
      }
    },
  );

  it('recomputing the rollups (twice, two instances at once) changes nothing', async () => {
    const before = await get<ProjectStatsView>(`/projects/${projectId}/stats/devices?range=7d`);
    await Promise.all([
      server.database.db.transaction((tx) => rollUp(tx, server.clock.now())),
      server.database.db.transaction((tx) => rollUp(tx, server.clock.now())),
    ]);
    const after = await get<ProjectStatsView>(`/projects/${projectId}/stats/devices?range=7d`);
    expect(after.top).toEqual(before.top);
    expect(after.points.filter((p) => p.cpu !== null)).toEqual(before.points.filter((p) => p.cpu !== null));
  });

  it('folds each final bucket once, as the job does past a small fleet: the rows a recompute from every sample gives (decision 0075)', async () => {
    // cheapRows 0: recomputing the open buckets is never cheap, so the hourly and daily levels fold.
    const job = () =>
      server.database.db.transaction((tx) => rollUp(tx, server.clock.now(), { cheapRows: 0 }));
    const marks = async () =>
      Object.fromEntries(
        (
          await query<{ level: string; folded_until: Date | null; open: boolean }>(
            'select level, folded_until, open from stats_watermarks',
          )
        ).map((r) => [r.level, r]),
      );
    const rowsOf = async () => {
      const out: Record<string, Record<string, unknown>[]> = {};
      for (const table of [
        'stats_device_1h',
        'stats_dim_1h',
        'stats_device_1d',
        'stats_dim_1d',
        'stats_project_1h',
        'stats_project_1d',
        'stats_project_dim_1h',
        'stats_project_dim_1d',
      ]) {
        out[table] = await query<Record<string, unknown>>(
          `select * from ${table} where project_id = $1 order by ${table.includes('project_dim') ? 'bucket, kind, key' : table.includes('project') ? 'bucket' : table.includes('dim') ? 'sn, kind, key, bucket' : 'sn, bucket'}`,
          [projectId],
        );
      }
      return out;
    };
    await job();
    expect((await marks())['1h'].open).toBe(false);
    // A sample a minute across an hour's end, the job running after each, as the server runs it.
    const hour = Math.ceil(server.clock.now().getTime() / 3_600_000) * 3_600_000 + 3_600_000;
    let i = 20;
    let during: Record<string, Record<string, unknown>[]> | null = null;
    let whole: Record<string, Record<string, unknown>[]> | null = null;
    const foldedUntil: number[] = [];
    for (let m = -12; m < 12; m++) {
      await sendAt(hour + m * 60_000, i++, sims);
      await job();
      foldedUntil.push(new Date((await marks())['1h'].folded_until ?? 0).getTime());
      if (m === 0) during = await rowsOf();
      if (m === 3) whole = await rowsOf();
    }
    // The hourly level took its final buckets 15 minutes at a time, or up to an hour's end.
    const folds = foldedUntil.slice(1).flatMap((t, k) => (t > foldedUntil[k] ? [[foldedUntil[k], t]] : []));
    expect(folds.length).toBeGreaterThanOrEqual(1);
    for (const [from, to] of folds)
      expect(
        to - from >= 15 * 60_000 || to % 3_600_000 === 0,
        `${new Date(from).toISOString()} to ${new Date(to).toISOString()}`,
      ).toBe(true);
    const lastHourOf = (rows: Record<string, Record<string, unknown>[]> | null) =>
      (rows?.stats_device_1h ?? []).find(
        (r) => r.sn === ap && new Date(r.bucket as string).getTime() === hour - 3_600_000,
      );
    const [{ n: lastHourSamples }] = await query<{ n: number }>(
      `select count(*)::int as n from stats_device where sn = $1 and at >= $2 and at < $3`,
      [ap, new Date(hour - 3_600_000), new Date(hour)],
    );
    // While it folds, the hour's row holds the final 5-minute buckets it has taken so far, 15 minutes
    // of them at a time (decision 0077): at the hour's first minute, not the whole previous hour.
    expect(Number(lastHourOf(during)?.samples ?? 0)).toBeLessThan(lastHourSamples);
    // Once its last bucket is final (2 minutes past the hour), the hour is folded whole at once.
    expect(Number(lastHourOf(whole)?.samples)).toBe(lastHourSamples);
    // Ten minutes on, every bucket is final and folded; more runs with nothing new change nothing.
    server.clock.offsetMs = hour + 22 * 60_000 - Date.now();
    for (let k = 0; k < 3; k++) await job();
    const folded = await rowsOf();
    expect(
      folded.stats_device_1h.find(
        (r) => r.sn === ap && new Date(r.bucket as string).getTime() === hour - 3_600_000,
      )?.samples,
    ).toBe(lastHourSamples);
    expect((await marks())['1h'].open).toBe(false);
    // Recomputed from every sample (the levels' marks gone: the next run starts at the oldest row).
    await query(`delete from stats_watermarks where level in ('1h', '1d')`);
    await job();
    // Averages are real: a weighted mean of means and a mean of every sample differ in the last bits.
    const close = (rows: Record<string, unknown>[]) =>
      rows.map((r) =>
        Object.fromEntries(
          Object.entries(r).map(([k, v]) => [
            k,
            typeof v === 'number' && !Number.isInteger(v) ? expect.closeTo(v, 3) : v,
          ]),
        ),
      );
    const recomputed = await rowsOf();
    for (const [table, rows] of Object.entries(folded)) {
      expect(rows.length, table).toBeGreaterThan(0);
      expect(recomputed[table], table).toEqual(close(rows));
    }
    // A fleet this small costs little to recompute: the job's next run goes back to every minute,
    // the open hour and day included (the tests below compare with the charts of now).
    await server.database.db.transaction((tx) => rollUp(tx, server.clock.now()));
    expect((await marks())['1h'].open).toBe(true);
  });

  it('drops whole partitions past retention and still answers 30 days from the rollups', async () => {
    const before = await get<ProjectStatsView>(`/projects/${projectId}/stats/devices?range=30d`);
    server.clock.offsetMs = end + 10 * 86_400_000 - Date.now();
    const { dropped } = await maintainPartitions(server.database, server.clock.now());
    expect(dropped.some((n) => n.startsWith('stats_device_p'))).toBe(true);
    // The next run (a minute later) neither makes nor drops a partition again.
    expect((await maintainPartitions(server.database, server.clock.now())).dropped).toEqual([]);
    const oldest = (await listPartitions(server.database.pool, 'stats_device'))[0];
    // Raw samples are kept 3 days: nothing older than that is left, and its rows went with it.
    expect(oldest.from.getTime()).toBeGreaterThanOrEqual(server.clock.now().getTime() - 4 * 86_400_000);
    const [{ n }] = await query<{ n: number }>(
      `select count(*)::int as n from stats_device where sn = any($1)`,
      [[ap, gw]],
    );
    expect(n).toBe(0);
    expect(
      (await listPartitions(server.database.pool, 'stats_device_5m'))[0].from.getTime(),
    ).toBeGreaterThanOrEqual(server.clock.now().getTime() - 9 * 86_400_000);
    await rollUpAll();
    const after = await get<ProjectStatsView>(`/projects/${projectId}/stats/devices?range=30d`);
    expect(after.top.traffic).toEqual(before.top.traffic);
    const twelve = await get<ProjectStatsView>(`/projects/${projectId}/stats/devices?range=12h`);
    expect(twelve.points.every((p) => p.cpu === null)).toBe(true);
    expect(twelve.top.traffic).toEqual([]);
  });

  it('answers at most 38 SSID series, those with the most clients, and counts the others', async () => {
    // A new project of unconfigured APs: a factory SSID each (here 45, on the project's daily rollup).
    const many = await insertProject(server, owner.id);
    const day = Math.floor(server.clock.now().getTime() / 86_400_000) * 86_400_000;
    const keys = Array.from(
      { length: STATS_SSID_SERIES_MAX + 7 },
      (_, i) => `Beacon-${String(i).padStart(4, '0')}`,
    );
    for (const [i, key] of keys.entries()) {
      for (const d of [1, 2]) {
        await server.database.pool.query(
          `insert into stats_project_dim_1d (bucket, project_id, kind, key, clients, rx_bytes, tx_bytes)
           values ($1, $2, 'ssid', $3, $4, 0, 0)`,
          [new Date(day - d * 86_400_000), many, key, i],
        );
      }
    }
    const chart = await get<ProjectStatsView>(`/projects/${many}/stats/devices?range=30d`);
    expect(chart.ssids).toHaveLength(STATS_SSID_SERIES_MAX);
    expect(chart.ssidsOmitted).toBe(7);
    // The seven with the fewest clients (0 to 6) are the ones left out.
    expect(chart.ssids.map((x) => x.key).sort()).toEqual(keys.slice(7));
    // A project with fewer keeps them all.
    expect((await get<ProjectStatsView>(`/projects/${projectId}/stats/devices?range=30d`)).ssidsOmitted).toBe(
      0,
    );
  });

  it('answers 410 for a device of another project and 16 for an unknown range', async () => {
    await get(`/projects/${projectId}/stats/status`);
    const res = await owner.client.get(`/projects/${projectId}/stats/devices/NOTMINE000000001?range=24h`);
    expect(res.body.code).toBe(410);
    const bad = await owner.client.get(`/projects/${projectId}/stats/status?range=2h`);
    expect(bad.status).toBe(400);
  });
});
