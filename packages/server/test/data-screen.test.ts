import type { DataScreenMapView, OnlineSeriesView } from '@beacon/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectMembers, projects } from '../src/db/schema.ts';
import { countryOfLocation } from '../src/overview/data-screen.ts';
import { maintainPartitions } from '../src/stats/rollup.ts';
import { insertDevice, testSn } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * The data screen's map and its devices-online chart (docs/decisions/0045): each chosen country
 * with the devices of the viewer's projects located there; devices online per bucket from the
 * stored statistics.
 */

let server: TestServer;
let owner: TestAccount;
let other: TestAccount;
const ids = { berlin: 0, munich: 0, lyon: 0, tokyo: 0, foreign: 0 };

async function project(ownerId: number, name: string, location: string): Promise<number> {
  const [row] = await server.database.db
    .insert(projects)
    .values({ ownerId, name, scenario: 'hotel', location })
    .returning({ id: projects.id });
  return row.id;
}

async function devicesIn(projectId: number, online: number, offline: number): Promise<void> {
  const seen = server.clock.now();
  for (let i = 0; i < online + offline; i++) {
    await insertDevice(server.database, {
      sn: testSn('D'),
      projectId,
      model: 'BA-W1200C',
      type: 'ap',
      status: i < online ? 1 : 0,
      firstSeenAt: seen,
      lastSeenAt: seen,
    });
  }
}

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0' });
  owner = await createAccount(server);
  other = await createAccount(server);
  ids.berlin = await project(owner.id, 'Berlin hotel', 'Berlin, Germany');
  ids.munich = await project(owner.id, 'Munich hotel', 'München, DE');
  ids.lyon = await project(owner.id, 'Lyon hotel', 'Lyon');
  ids.tokyo = await project(other.id, 'Tokyo hotel', 'Tokyo, Japan');
  // Another account's project in Germany: not counted for the owner.
  ids.foreign = await project(other.id, 'Hamburg', 'Hamburg, Germany');
  await devicesIn(ids.berlin, 2, 1);
  await devicesIn(ids.munich, 1, 0);
  await devicesIn(ids.lyon, 0, 2);
  await devicesIn(ids.tokyo, 1, 1);
  await devicesIn(ids.foreign, 5, 0);
  // The owner sees Tokyo through a share.
  await server.database.db
    .insert(projectMembers)
    .values({ projectId: ids.tokyo, accountId: owner.id, permission: 'r', acceptedAt: server.clock.now() });
});

afterAll(async () => {
  await server?.close();
});

describe('data screen map', () => {
  it('reads the country of a project location', () => {
    expect(countryOfLocation('Shenzhen, China')).toBe('CN');
    expect(countryOfLocation('München, DE')).toBe('DE');
    expect(countryOfLocation('Austin, TX, USA')).toBe('US');
    expect(countryOfLocation('  japan ')).toBe('JP');
    expect(countryOfLocation('Lyon')).toBeNull();
    expect(countryOfLocation('')).toBeNull();
  });

  it('counts, per chosen country, the devices of the projects the viewer sees located there', async () => {
    const put = await owner.client.request('PUT', `/projects/${ids.berlin}/data-screen`, {
      title: 'Hotels',
      subtitle: '',
      countries: ['DE', 'JP', 'FR'],
    });
    expect(put.body.code, JSON.stringify(put.body)).toBe(0);
    const map = await owner.client.get<DataScreenMapView>(`/projects/${ids.berlin}/data-screen/map`);
    expect(map.body.code, JSON.stringify(map.body)).toBe(0);
    expect(map.body.data).toEqual({
      countries: [
        { code: 'DE', projects: 2, devices: 4, online: 3 },
        { code: 'JP', projects: 1, devices: 2, online: 1 },
        { code: 'FR', projects: 0, devices: 0, online: 0 },
      ],
      unplaced: 2,
    });
    // Another account's view of its own projects.
    const theirs = await other.client.get<DataScreenMapView>(`/projects/${ids.tokyo}/data-screen/map`);
    expect(theirs.body.data).toEqual({ countries: [], unplaced: 0 });
    // A project the caller cannot see.
    const refused = await other.client.get(`/projects/${ids.berlin}/data-screen/map`);
    expect(refused.body.code).toBe(30);
  });
});

describe('devices online over time', () => {
  it('answers, per 5-minute bucket, the devices that reported in it, and null where none did', async () => {
    // The partitions the rollup job makes; the rows are what it would write.
    await maintainPartitions(server.database, server.clock.now());
    const now = server.clock.now().getTime();
    const bucket = (minutesAgo: number) =>
      new Date(Math.floor((now - minutesAgo * 60_000) / 300_000) * 300_000);
    for (const [minutes, devices] of [
      [60, 3],
      [30, 2],
      [5, 4],
    ] as const) {
      await server.database.pool.query(
        `insert into stats_project_5m (bucket, project_id, devices, cpu_avg, memory_avg, clients, rx_bytes, tx_bytes)
         values ($1, $2, $3, 10, 20, 0, 0, 0)`,
        [bucket(minutes), ids.berlin, devices],
      );
    }
    const res = await owner.client.get<OnlineSeriesView>(
      `/projects/${ids.berlin}/data-screen/online?range=12h`,
    );
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    const { points, bucketSeconds, range } = res.body.data;
    expect(range).toBe('12h');
    expect(bucketSeconds).toBe(300);
    expect(points.length).toBeGreaterThanOrEqual(144);
    expect(points.length).toBeLessThanOrEqual(145);
    const byAt = new Map(points.map((p) => [p.at, p.online]));
    expect(byAt.get(bucket(60).toISOString())).toBe(3);
    expect(byAt.get(bucket(30).toISOString())).toBe(2);
    expect(byAt.get(bucket(5).toISOString())).toBe(4);
    expect(points.filter((p) => p.online !== null)).toHaveLength(3);
    // 24 h by default; an unknown range is refused.
    const day = await owner.client.get<OnlineSeriesView>(`/projects/${ids.berlin}/data-screen/online`);
    expect(day.body.data.range).toBe('24h');
    const bad = await owner.client.get(`/projects/${ids.berlin}/data-screen/online?range=2h`);
    expect(bad.status).toBe(400);
  });
});
