import { type SimulatedDevice, startDevice } from '@beacon/agent';
import { type AlarmView, type ProjectStatsView, upTopic } from '@beacon/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPartitions } from '../src/db/partitions.ts';
import { alarms, devices } from '../src/db/schema.ts';
import { rollUp } from '../src/stats/rollup.ts';
import { deviceRow, insertProject, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, signInAgain, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Retention of statistics and alarms per project (docs/monitoring-storage.md "Retention",
 * docs/decisions/0045), in simulated time: three projects choose 7 days, nothing (30) and 90 days;
 * each has a device whose telemetry is rolled up and an ended alarm. The clock then moves 8, 31 and
 * 91 days on and the hourly log-retention job runs (through the job runner): each project loses its
 * statistics and ended alarms when its own choice says so, and the hourly partitions go whole once
 * past the longest choice.
 */

const DAY = 86_400_000;
let server: TestServer;
let owner: TestAccount;
const running: SimulatedDevice[] = [];
const projects: Record<'week' | 'month' | 'quarter', { id: number; sn: string }> = {} as never;
const query = async <T>(text: string, params: unknown[] = []): Promise<T[]> =>
  (await server.database.pool.query(text, params)).rows as T[];

async function get<T>(path: string): Promise<T> {
  let res = await owner.client.get<T>(path);
  if (res.body.code === 10) {
    await signInAgain(server, owner);
    res = await owner.client.get<T>(path);
  }
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data;
}

/** Rows a project still has in each statistics table. */
async function rowsOf(projectId: number): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const table of [
    'stats_device_5m',
    'stats_project_5m',
    'stats_device_1h',
    'stats_dim_1h',
    'stats_project_1h',
    'stats_device_1d',
    'stats_dim_1d',
    'stats_project_1d',
  ]) {
    const [{ n }] = await query<{ n: number }>(
      `select count(*)::int as n from ${table} where project_id = $1`,
      [projectId],
    );
    out[table] = n;
  }
  return out;
}
const total = (rows: Record<string, number>) => Object.values(rows).reduce((a, b) => a + b, 0);

/** Moves the clock `days` on and runs what is due (the hourly retention chain among them). */
async function daysLater(days: number): Promise<void> {
  server.clock.advance(days * DAY);
  await server.jobs.tick();
}

const endedAlarms = async (projectId: number) =>
  (await get<{ items: AlarmView[] }>(`/projects/${projectId}/alarms?pageSize=100`)).items;

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0' });
  owner = await createAccount(server);
  for (const [key, days] of [
    ['week', 7],
    ['month', null],
    ['quarter', 90],
  ] as const) {
    const id = await insertProject(server, owner.id);
    if (days !== null) {
      const put = await owner.client.request('PUT', `/projects/${id}/logs/settings`, { retentionDays: days });
      expect(put.body.code, JSON.stringify(put.body)).toBe(0);
    }
    const sn = testSn(key[0].toUpperCase());
    await server.database.db.insert(devices).values({ sn, model: 'BA-W1200C', type: 'ap', projectId: id });
    projects[key] = { id, sn };
  }
  // A real device per project over MQTT, telemetry sent by the test 30 s apart (simulated).
  for (const { sn } of Object.values(projects)) {
    const device = await startDevice({
      url: server.gateway.brokerUrl,
      sn,
      model: 'BA-W1200C',
      factoryKey: server.config.factoryKey,
      telemetryMs: 3_600_000,
      backoffMinMs: 100,
      backoffMaxMs: 400,
      keepalive: 5,
      clientEvents: false,
    });
    running.push(device);
    await waitFor(async () => (await deviceRow(server, sn))?.telemetryAt, `${sn} first telemetry`);
  }
  for (let i = 0; i < 4; i++) {
    server.clock.advance(30_000);
    const at = server.clock.now().getTime();
    for (const [k, d] of running.entries()) {
      const sn = Object.values(projects)[k].sn;
      const telemetry = {
        ts: Date.now(),
        uptime: 1000 + i * 30,
        cpu: 20 + i,
        memory: 40,
        clientCount: 0,
        clients: [],
        led: true,
        locating: false,
        radios: [
          {
            band: '2.4G',
            channel: 1,
            power: 20,
            utilisation: 10,
            noise: -90,
            clients: 0,
            rxBytes: i * 1e6,
            txBytes: i * 2e6,
          },
        ],
      };
      await d.publishRaw(upTopic(sn, 'telemetry'), JSON.stringify(telemetry));
    }
    await waitFor(async () => {
      await server.gateway.ingest.drain();
      const [{ n }] = await query<{ n: number }>(
        'select count(*)::int as n from stats_device where at >= $1',
        [new Date(at - 1000)],
      );
      return n >= 3;
    }, `samples ${i}`);
  }
  // Rolled up to every level (each run handles a bounded span; a few runs catch up).
  server.clock.advance(10 * 60_000);
  // The jobs first (the rollup job makes the rollups' partitions), then every level caught up.
  await server.jobs.tick();
  for (let i = 0; i < 5; i++) await server.database.db.transaction((tx) => rollUp(tx, server.clock.now()));
  // One ended alarm per project, raised and cleared now.
  const now = server.clock.now();
  await server.database.db.insert(alarms).values(
    Object.values(projects).map(({ id, sn }) => ({
      projectId: id,
      sn,
      kind: 'reboot',
      level: 'warning',
      message: 'Restarted on its own',
      raisedAt: now,
      lastAt: now,
      clearedAt: now,
    })),
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

describe('statistics and alarms follow each project’s log retention', () => {
  it('has rolled-up statistics and an alarm in every project to begin with', async () => {
    for (const { id } of Object.values(projects)) {
      const rows = await rowsOf(id);
      expect(rows.stats_device_5m, JSON.stringify(rows)).toBeGreaterThan(0);
      expect(rows.stats_dim_1h).toBeGreaterThan(0);
      expect(rows.stats_project_1d).toBeGreaterThan(0);
      expect(await endedAlarms(id)).toHaveLength(1);
    }
  });

  it('8 days on: the 7-day project has lost its statistics and ended alarm, the others keep theirs', async () => {
    await daysLater(8);
    expect(total(await rowsOf(projects.week.id))).toBe(0);
    expect(await endedAlarms(projects.week.id)).toEqual([]);
    const chart = (id: number) => get<ProjectStatsView>(`/projects/${id}/stats/devices?range=30d`);
    expect((await chart(projects.week.id)).points.filter((p) => p.cpu !== null)).toEqual([]);
    for (const key of ['month', 'quarter'] as const) {
      expect((await chart(projects[key].id)).points.filter((p) => p.cpu !== null).length).toBeGreaterThan(0);
      expect((await rowsOf(projects[key].id)).stats_device_1d).toBeGreaterThan(0);
      expect(await endedAlarms(projects[key].id)).toHaveLength(1);
    }
  });

  it('31 days on: the default (30 days) goes by row; the hourly partitions stay for the 90-day project', async () => {
    const firstHourly = (await listPartitions(server.database.pool, 'stats_device_1h'))[0];
    await daysLater(23);
    expect(total(await rowsOf(projects.month.id))).toBe(0);
    expect(await endedAlarms(projects.month.id)).toEqual([]);
    const quarter = await rowsOf(projects.quarter.id);
    expect(quarter.stats_device_1h).toBeGreaterThan(0);
    expect(quarter.stats_device_1d).toBeGreaterThan(0);
    expect(await endedAlarms(projects.quarter.id)).toHaveLength(1);
    expect((await listPartitions(server.database.pool, 'stats_device_1h'))[0].name).toBe(firstHourly.name);
  });

  it('91 days on: the 90-day project’s rows go, and the hourly partitions past 90 days are dropped whole', async () => {
    await daysLater(60);
    expect(total(await rowsOf(projects.quarter.id))).toBe(0);
    expect(await endedAlarms(projects.quarter.id)).toEqual([]);
    const oldest = (await listPartitions(server.database.pool, 'stats_device_1h'))[0];
    expect(oldest.to.getTime()).toBeGreaterThan(server.clock.now().getTime() - 90 * DAY);
  });
});
