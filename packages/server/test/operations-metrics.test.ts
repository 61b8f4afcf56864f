import type { SimulatedDevice } from '@beacon/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../src/gateway/commands.ts';
import { scheduleJob } from '../src/jobs/runner.ts';
import { insertProject, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { createAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

// Operations (issue 16, docs/operations-metrics.md, docs/decisions/0064): /metrics, /healthz and
// /readyz, read through HTTP while simulated devices talk to the server.

/** One sample of the Prometheus text: `name{labels} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parse(text: string): Sample[] {
  const out: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = line.match(/^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v;
    out.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return out;
}

/** The value of the one sample named so whose labels include `labels` (undefined when none). */
function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} samples`);
  return found[0]?.value;
}

async function scrape(server: TestServer, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/metrics`, { headers });
  const text = await res.text();
  return { status: res.status, text, type: res.headers.get('content-type') };
}

async function samples(server: TestServer): Promise<Sample[]> {
  const res = await scrape(server);
  expect(res.status).toBe(200);
  return parse(res.text);
}

describe('metrics without METRICS_TOKEN (loopback only)', () => {
  let server: TestServer;
  const devices: SimulatedDevice[] = [];

  beforeAll(async () => {
    server = await startTestServer({ METRICS_CACHE_SECONDS: '0' });
  });
  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop().catch(() => {})));
    await server?.close();
  });

  it('counts devices online, messages by kind, commands by outcome, ingest lag and HTTP by route pattern', async () => {
    const owner = await createAccount(server);
    const projectId = await insertProject(server, owner.id);
    const sns = [testSn('M'), testSn('M'), testSn('M')];
    for (const sn of sns) devices.push(await simulateOnline(server, sn));
    for (const sn of sns)
      expect((await owner.client.post(`/projects/${projectId}/devices`, { sn })).body.code).toBe(0);

    // Telemetry every 500 ms (devices.helpers simulate): wait until some is committed.
    await waitFor(
      async () =>
        (value(await samples(server), 'beacon_ingest_lag_seconds_count', { kind: 'telemetry' }) ?? 0) > 0,
      'telemetry committed',
    );

    expect((await server.gateway.commands.send(sns[0], 'reboot', {}, SYSTEM_ACTOR)).state).toBe('success');
    devices[1].pauseListening();
    const timedOut = await server.gateway.commands.send(sns[1], 'locate', { seconds: 10 }, SYSTEM_ACTOR, {
      timeoutMs: 300,
    });
    expect(timedOut.state).toBe('timeout');
    devices[1].resumeListening();
    // Back online after the reboot (8, then 1).
    await waitFor(
      async () => value(await samples(server), 'beacon_devices_online') === 3,
      '3 devices online',
    );

    // A durable job that takes ~60 ms: its run is counted and timed by kind.
    server.jobs.register('metrics-test-timed', async () => {
      await new Promise((r) => setTimeout(r, 60));
    });
    await scheduleJob(server.database.db, { kind: 'metrics-test-timed', runAt: new Date(0) });
    await waitFor(
      async () =>
        value(await samples(server), 'beacon_jobs_run_total', {
          kind: 'metrics-test-timed',
          result: 'ok',
        }) === 1,
      'the timed job ran',
    );

    // A route with an id in its path, and a path no route has.
    expect((await owner.client.get(`/projects/${projectId}/devices`)).status).toBe(200);
    expect((await fetch(`${server.url}/api/v1/no-such-thing/12345`)).status).toBe(404);

    const res = await scrape(server);
    expect(res.status).toBe(200);
    expect(res.type).toContain('text/plain');
    const s = parse(res.text);
    expect(value(s, 'beacon_devices_online')).toBe(3);
    // By status: the three devices, each under the status it reports now (1, or 7 once it has applied
    // a change, …), which the online gauge above counts as online.
    expect(s.filter((x) => x.name === 'beacon_devices').reduce((sum, x) => sum + x.value, 0)).toBe(3);
    expect(value(s, 'beacon_mqtt_messages_in_total', { kind: 'hello' })).toBeGreaterThanOrEqual(3);
    expect(value(s, 'beacon_mqtt_messages_in_total', { kind: 'telemetry' })).toBeGreaterThan(0);
    expect(value(s, 'beacon_mqtt_messages_in_total', { kind: 'reply' })).toBeGreaterThanOrEqual(1);
    expect(value(s, 'beacon_mqtt_messages_out_total', { kind: 'command' })).toBeGreaterThanOrEqual(2);
    expect(value(s, 'beacon_commands_total', { name: 'reboot', outcome: 'success' })).toBe(1);
    expect(value(s, 'beacon_commands_total', { name: 'locate', outcome: 'timeout' })).toBe(1);
    expect(value(s, 'beacon_ingest_batch_size_count', { kind: 'hello' })).toBeGreaterThan(0);
    expect(value(s, 'beacon_ingest_lag_seconds_count', { kind: 'hello' })).toBeGreaterThanOrEqual(3);
    expect(value(s, 'beacon_mqtt_link_up')).toBe(1);
    expect(value(s, 'beacon_job_duration_seconds_count', { kind: 'metrics-test-timed' })).toBe(1);
    expect(
      value(s, 'beacon_job_duration_seconds_sum', { kind: 'metrics-test-timed' }),
    ).toBeGreaterThanOrEqual(0.05);
    expect(value(s, 'beacon_db_pool_total')).toBeGreaterThan(0);
    expect(value(s, 'beacon_process_resident_memory_bytes')).toBeGreaterThan(0);

    // HTTP by route pattern, never by the raw URL.
    const route = `/api/v1/projects/:id/devices`;
    expect(
      value(s, 'beacon_http_request_duration_seconds_count', { method: 'GET', route, status: '2xx' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      value(s, 'beacon_http_request_duration_seconds_count', {
        method: 'GET',
        route: 'unmatched',
        status: '4xx',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(res.text).not.toContain(`/projects/${projectId}/`);
    expect(res.text).not.toContain('12345');
    for (const sn of sns) expect(res.text).not.toContain(sn);
  });

  it('answers loopback callers only, and nobody whose request came through a proxy', async () => {
    expect((await scrape(server)).status).toBe(200);
    expect((await scrape(server, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(404);
    expect((await scrape(server, { 'x-forwarded-for': '127.0.0.1' })).status).toBe(404);
    expect((await scrape(server, { forwarded: 'for=203.0.113.9' })).status).toBe(404);
    // Another machine (an injected request from a documentation address: no traffic leaves the host).
    const remote = await server.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '192.0.2.7' });
    expect(remote.statusCode).toBe(404);
    expect(remote.body).not.toContain('beacon_');
    // A Bearer header is not taken for an API key here: still the loopback rule.
    expect((await scrape(server, { authorization: 'Bearer whatever' })).status).toBe(200);
  });

  it('/healthz and /readyz answer without an account', async () => {
    const healthz = await fetch(`${server.url}/healthz`);
    expect(healthz.status).toBe(200);
    expect(await healthz.json()).toEqual({ status: 'ok' });
    const readyz = await fetch(`${server.url}/readyz`);
    expect(readyz.status).toBe(200);
    expect(await readyz.json()).toEqual({ status: 'ready', database: 'up', broker: 'up', events: 'up' });
  });
});

describe('the ingest backlog gauge', () => {
  let server: TestServer;
  let device: SimulatedDevice | undefined;

  beforeAll(async () => {
    server = await startTestServer({ METRICS_CACHE_SECONDS: '0' });
  });
  afterAll(async () => {
    await device?.stop().catch(() => {});
    await server?.close();
  });

  it('counts the device messages received and not yet written (beacon_ingest_waiting)', async () => {
    device = await simulateOnline(server, testSn('W'));
    await waitFor(
      async () => value(await samples(server), 'beacon_ingest_waiting') === 0,
      'nothing waiting before the lock',
    );
    // Telemetry (every 500 ms) writes device_state: while a transaction holds it, the device's
    // telemetry stays received and unwritten — in a batch whose statement waits (one device's
    // telemetry is never queued behind its own: a newer one replaces the waiting one).
    const holder = await server.database.pool.connect();
    try {
      await holder.query('begin');
      await holder.query('lock table device_state in exclusive mode');
      await waitFor(
        async () => (value(await samples(server), 'beacon_ingest_waiting') ?? 0) >= 1,
        'telemetry waiting behind the lock',
      );
      await holder.query('commit');
    } finally {
      holder.release();
    }
    await waitFor(
      async () => value(await samples(server), 'beacon_ingest_waiting') === 0,
      'written once the lock is gone',
    );
  });
});

describe('metrics with METRICS_TOKEN', () => {
  let server: TestServer;
  let closed = false;
  const token = 'metrics-token-for-tests';

  beforeAll(async () => {
    server = await startTestServer({ METRICS_TOKEN: token });
  });
  afterAll(async () => {
    if (!closed) await server?.close();
  });

  it('needs the token (401 without it or with another), from anywhere', async () => {
    expect((await scrape(server)).status).toBe(401);
    expect((await scrape(server, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await scrape(server, { authorization: `Bearer ${token}x` })).status).toBe(401);
    expect((await scrape(server, { authorization: `Basic ${token}` })).status).toBe(401);
    const ok = await scrape(server, { authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('beacon_devices_online');
    const remote = await server.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '192.0.2.7',
      headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '198.51.100.1' },
    });
    expect(remote.statusCode).toBe(200);
  });

  it('reads the database for the devices and jobs gauges at most once per cache period', async () => {
    const reads = async () =>
      value(
        parse((await scrape(server, { authorization: `Bearer ${token}` })).text),
        'beacon_metrics_database_reads_total',
      );
    const first = await reads();
    expect(first).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 5; i++) expect(await reads()).toBe(first);
  });

  it('/readyz answers 503 as soon as shutdown begins, while HTTP still serves', async () => {
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    // A job in progress holds the shutdown at its first step (the job runner stops first), so
    // HTTP is certainly still open when /readyz is asked.
    let started!: () => void;
    let release!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.jobs.register('metrics-test-hold', async () => {
      started();
      await held;
    });
    await scheduleJob(server.database.db, { kind: 'metrics-test-hold', runAt: new Date(0) });
    await running;
    closed = true;
    const closing = server.close();
    const readyz = await fetch(`${server.url}/readyz`);
    expect(readyz.status).toBe(503);
    expect(await readyz.json()).toEqual({ status: 'stopping' });
    // Liveness is not readiness: the process still answers.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    release();
    await closing;
  });
});
