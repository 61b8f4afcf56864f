import type { SimulatedDevice } from '@beacon/agent';
import type { StatusSummaryView } from '@beacon/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDevice, insertProject, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * The Status summary's device counts by type come from kept counts (decision 0069, migration 0030):
 * after every change of a device — added, online, offline, client count, type, unbound, moved to
 * another project, deleted — the route answers what a count over devices ⋈ device_state says.
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
let otherProject: number;
const running: SimulatedDevice[] = [];

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
  otherProject = await insertProject(server, owner.id);
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

interface Counts {
  byType: { type: string; online: number; offline: number }[];
  online: number;
  offline: number;
  clients: number;
}

/** What the route answered before the kept counts: a count over the project's devices. */
async function computed(project: number): Promise<Counts> {
  const { rows } = await server.database.pool.query<{
    type: string;
    online: number;
    offline: number;
    clients: number;
  }>(
    `select d.type,
        count(*) filter (where not (s.status = any(array[0, 9])))::int as online,
        count(*) filter (where s.status = any(array[0, 9]))::int as offline,
        coalesce(sum(s.client_count) filter (where not (s.status = any(array[0, 9]))), 0)::int as clients
      from devices d join device_state s on s.sn = d.sn
      where d.project_id = $1 group by d.type order by d.type`,
    [project],
  );
  return {
    byType: rows.map((r) => ({ type: r.type, online: r.online, offline: r.offline })),
    online: rows.reduce((a, r) => a + r.online, 0),
    offline: rows.reduce((a, r) => a + r.offline, 0),
    clients: rows.reduce((a, r) => a + r.clients, 0),
  };
}

async function answered(project: number): Promise<Counts> {
  const res = await owner.client.get<StatusSummaryView>(`/projects/${project}/stats/status?range=24h`);
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  const s = res.body.data;
  return {
    byType: s.devices.byType,
    online: s.devices.online,
    offline: s.devices.offline,
    clients: s.clientsNow,
  };
}

async function matches(project = projectId): Promise<Counts> {
  const want = await computed(project);
  expect(await answered(project)).toEqual(want);
  return want;
}

const exec = (text: string, params: unknown[]) => server.database.pool.query(text, params);

describe('Status device counts by type (kept)', () => {
  const ap1 = testSn('A');
  const ap2 = testSn('A');
  const sw = testSn('S');

  it('count devices added, online, offline and their clients', async () => {
    expect(await matches()).toEqual({ byType: [], online: 0, offline: 0, clients: 0 });
    await insertDevice(server.database, { sn: ap1, model: 'BA-W1200C', type: 'ap', projectId });
    await insertDevice(server.database, { sn: sw, model: 'BS-S1008P', type: 'switch', projectId });
    await insertDevice(server.database, {
      sn: ap2,
      model: 'BA-W1200C',
      type: 'ap',
      projectId,
      status: 1,
      clientCount: 7,
    });
    let c = await matches();
    expect(c.byType).toEqual([
      { type: 'ap', online: 1, offline: 1 },
      { type: 'switch', online: 0, offline: 1 },
    ]);
    expect(c.clients).toBe(7);
    // Status and client count changes (one statement for two rows, as a telemetry batch writes).
    await exec(
      `update device_state set status = v.status, client_count = v.clients
         from (values ($1, 1, 3), ($2, 9, 11)) as v(sn, status, clients) where device_state.sn = v.sn`,
      [ap1, ap2],
    );
    c = await matches();
    expect(c).toMatchObject({ online: 1, offline: 2, clients: 3 });
    // Busy (upgrading) counts as online, as before.
    await exec(`update device_state set status = 3 where sn = $1`, [sw]);
    await exec(`update device_state set client_count = 5 where sn = $1`, [ap1]);
    c = await matches();
    expect(c).toMatchObject({ online: 2, offline: 1, clients: 5 });
  });

  it('follow a type change, a move to another project, an unbind and a delete', async () => {
    await exec(`update devices set type = 'router' where sn = $1`, [sw]);
    await matches();
    await exec(`update devices set project_id = $2 where sn = $1`, [ap1, otherProject]);
    expect((await matches()).byType.map((t) => t.type)).toEqual(['ap', 'router']);
    expect((await matches(otherProject)).byType).toEqual([{ type: 'ap', online: 1, offline: 0 }]);
    // Unbound through the API (the project's device list loses it; the device row stays).
    const unbind = await owner.client.delete(`/projects/${otherProject}/devices/${ap1}?mode=unbind`);
    expect(unbind.body.code, JSON.stringify(unbind.body)).toBe(0);
    expect(await matches(otherProject)).toEqual({ byType: [], online: 0, offline: 0, clients: 0 });
    // Deleted through the API.
    const del = await owner.client.delete(`/projects/${projectId}/devices/${sw}?mode=delete`);
    expect(del.body.code, JSON.stringify(del.body)).toBe(0);
    expect((await matches()).byType).toEqual([{ type: 'ap', online: 0, offline: 1 }]);
    // And a device row deleted outright (its state row goes by the cascade).
    await exec(`delete from devices where sn = $1`, [ap2]);
    expect(await matches()).toEqual({ byType: [], online: 0, offline: 0, clients: 0 });
  });

  it('follow a real device through the link, and the upkeep heals a count set wrong', async () => {
    const ap = testSn('A');
    await insertDevice(server.database, { sn: ap, model: 'BA-W1200C', type: 'ap', projectId });
    running.push(await simulateOnline(server, ap, { model: 'BA-W1200C' }));
    await waitFor(
      async () => ((await answered(projectId)).online === 1 ? true : null),
      'the device online in Status',
      20_000,
    );
    await matches();
    // A drift (e.g. a race between a move and a status change) is set right by the upkeep.
    await exec(
      `insert into device_count_deltas (project_id, type, online, offline, clients) values ($1, 'ap', 5, 0, 0)`,
      [projectId],
    );
    expect((await answered(projectId)).online).toBe(6);
    // The clients upkeep job (every 5 minutes) folds and recounts: move the clock to its next slot.
    server.clock.advance(5 * 60_000);
    await waitFor(async () => (await server.jobs.tick()) > 0 || null, 'the upkeep job');
    await matches();
    await running.pop()!.stop();
  });
});
