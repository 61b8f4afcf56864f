import type { SimulatedDevice } from '@beacon/agent';
import type { ConfigDiffView, ConfigRevisionList, DeviceConfigView } from '@beacon/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/db/embedded.ts';
import { auditLog, configRevisions, deviceCommands, devices } from '../src/db/schema.ts';
import { selectDevices } from '../src/devices/row.ts';
import { startServer } from '../src/server.ts';
import {
  deviceRow,
  EXTERNAL_BROKER,
  insertProject,
  simulate,
  simulateOnline,
  testSn,
  waitFor,
} from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { HttpClient, startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * The configuration domain (issue 8): revisions with an expected-revision check, rollback, compare,
 * sealed secrets, and durable convergence — offline devices, drift and timed-out pushes — across a
 * server restart. Simulated devices at a time scale of 0.01 (a 12 s save takes 0.12 s).
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
const running: SimulatedDevice[] = [];

beforeAll(async () => {
  // Short command deadlines: a push nobody answers times out in about 3 s.
  // The embedded broker on a fixed port, so devices find the restarted server where they left it.
  server = await startTestServer({
    JOB_POLL_MS: '0',
    COMMAND_TIMEOUT_MS: '1500',
    MQTT_PORT: String(await freePort()),
  });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

async function device(model = 'BA-W1200C', on: TestServer = server): Promise<SimulatedDevice> {
  const sn = testSn('C');
  const d = await simulateOnline(on, sn, { model });
  running.push(d);
  await on.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
  return d;
}

const base = (sn: string) => `/projects/${projectId}/devices/${sn}/config`;

async function save(
  sn: string,
  expectedRevision: number,
  document: Record<string, unknown>,
  client = owner.client,
) {
  return client.request<DeviceConfigView>('PUT', base(sn), { expectedRevision, document, reason: 'test' });
}

const applied = (on: TestServer, sn: string, revision: number) =>
  waitFor(async () => {
    const row = await deviceRow(on, sn);
    return row?.configStatus === 'applied' && row.reportedRevision === revision;
  }, `revision ${revision} applied`);

/** The same database, a new server process state: the first one is closed, a second one started. */
async function restart(from: TestServer): Promise<TestServer> {
  const { config, clock } = from;
  await from.close();
  const next = await startServer(config, { now: clock.now });
  // The same session, at the new address.
  const client = new HttpClient(next.url);
  client.setCookie('token', owner.client.cookieToken!);
  owner = { ...owner, client };
  return { ...next, clock, config, client: () => new HttpClient(next.url) };
}

describe('revisions', () => {
  it('a save based on a stale revision is refused with 5120 and nothing is merged', async () => {
    const ap = await device();
    const first = await save(ap.sn, 0, { name: 'first' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ revision: 1, status: 'pending' });
    // A second administrator still on revision 0.
    const stale = await save(ap.sn, 0, { name: 'second' });
    expect({ status: stale.status, code: stale.body.code }).toEqual({ status: 409, code: 5120 });
    const rows = await server.database.db.select().from(configRevisions).where(eq(configRevisions.sn, ap.sn));
    expect(rows.map((r) => r.revision)).toEqual([1]);
    await applied(server, ap.sn, 1);
    expect(ap.document).toMatchObject({ name: 'first' });
    const view = await owner.client.get<DeviceConfigView>(base(ap.sn));
    expect(view.body.data).toMatchObject({
      revision: 1,
      status: 'applied',
      reportedRevision: 1,
      drift: false,
    });
    expect(view.body.data.reportedHash).toBe(view.body.data.hash);
  });

  it('lists, compares and rolls back; the rollback reaches the device; secrets are sealed and never shown', async () => {
    const ap = await device();
    const wifi = [
      {
        name: 'w',
        ssid: 'office',
        encryption: 2,
        cipher: 'aes',
        password: 'pppoe-Secret-1',
        bands: ['2.4G'],
      },
    ];
    expect((await save(ap.sn, 0, { name: 'one', wifi })).body.code).toBe(0);
    await applied(server, ap.sn, 1);
    // The client got the secret masked and sends it back masked: the stored one is kept.
    const shown = await owner.client.get<DeviceConfigView>(base(ap.sn));
    expect(JSON.stringify(shown.body)).not.toContain('pppoe-Secret-1');
    expect((await save(ap.sn, 1, { ...shown.body.data.document, name: 'two' })).body.code).toBe(0);
    await applied(server, ap.sn, 2);
    expect(ap.document).toMatchObject({ name: 'two', wifi: [{ password: 'pppoe-Secret-1' }] });

    const list = await owner.client.get<ConfigRevisionList>(`${base(ap.sn)}/revisions`);
    expect(list.body.data.items.map((r) => r.revision)).toEqual([2, 1]);
    expect(list.body.data.total).toBe(2);
    const diff = await owner.client.get<ConfigDiffView>(`${base(ap.sn)}/diff?from=1&to=2`);
    expect(diff.body.data.changes).toEqual([{ path: 'name', before: 'one', after: 'two' }]);

    const stale = await owner.client.post(`${base(ap.sn)}/rollback`, { revision: 1, expectedRevision: 1 });
    expect(stale.body.code).toBe(5120);
    const back = await owner.client.post<DeviceConfigView>(`${base(ap.sn)}/rollback`, {
      revision: 1,
      expectedRevision: 2,
    });
    expect(back.body.data).toMatchObject({ revision: 3 });
    await applied(server, ap.sn, 3);
    expect(ap.document).toMatchObject({ name: 'one', wifi: [{ password: 'pppoe-Secret-1' }] });

    // Sealed at rest; never in revisions, the device row, command history or audit rows.
    const { db } = server.database;
    const stored = JSON.stringify([
      await db.select().from(configRevisions).where(eq(configRevisions.sn, ap.sn)),
      await selectDevices(db).where(eq(devices.sn, ap.sn)),
      await db.select().from(deviceCommands).where(eq(deviceCommands.sn, ap.sn)),
      await db.select().from(auditLog).where(eq(auditLog.entityId, ap.sn)),
    ]);
    expect(stored).not.toContain('pppoe-Secret-1');
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, ap.sn), eq(auditLog.entity, 'device-config')));
    expect(audits.map((a) => a.action)).toEqual(['config-save', 'config-save', 'config-rollback']);
  });

  it('copy configuration takes the sealed secrets along, opened only for the receiving device', async () => {
    const [source, target] = [await device('BG-R1200'), await device('BG-R1200')];
    const wan = { type: 'pppoe', username: 'isp', password: 'pppoe-Secret-2' };
    expect((await save(source.sn, 0, { name: 'gw', wan })).body.code).toBe(0);
    await applied(server, source.sn, 1);
    const copy = await owner.client.post(`/projects/${projectId}/devices/${source.sn}/actions/copy-config`, {
      targets: [target.sn],
    });
    expect(copy.body.code, JSON.stringify(copy.body)).toBe(0);
    await applied(server, target.sn, 1);
    expect(target.document).toMatchObject({ wan: { password: 'pppoe-Secret-2' } });
    const rows = await server.database.db
      .select()
      .from(configRevisions)
      .where(eq(configRevisions.sn, target.sn));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain('pppoe-Secret-2');
  });

  it('a read-only member can read but not save (5032)', async () => {
    const ap = await device();
    const { projectMembers } = await import('../src/db/schema.ts');
    const reader = await createAccount(server);
    await server.database.db
      .insert(projectMembers)
      .values({ projectId, accountId: reader.id, permission: 'r', acceptedAt: new Date() });
    expect((await reader.client.get(base(ap.sn))).body.code).toBe(0);
    const res = await save(ap.sn, 0, { name: 'x' }, reader.client);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 5032 });
  });
});

describe("the project's own configuration", () => {
  it('keeps revisions of its own, refuses a stale save, compares and rolls back', async () => {
    const path = `/projects/${projectId}/config`;
    expect((await owner.client.get(path)).body.data).toEqual({ revision: 0, hash: null, document: {} });
    const one = await owner.client.request('PUT', path, {
      expectedRevision: 0,
      document: { name: 'site-a' },
    });
    expect(one.body.data).toMatchObject({ revision: 1, document: { name: 'site-a' } });
    const stale = await owner.client.request('PUT', path, {
      expectedRevision: 0,
      document: { name: 'site-b' },
    });
    expect(stale.body.code).toBe(5120);
    expect(
      (await owner.client.request('PUT', path, { expectedRevision: 1, document: { name: 'site-b' } })).body
        .code,
    ).toBe(0);
    const diff = await owner.client.get<ConfigDiffView>(`${path}/diff?from=1&to=2`);
    expect(diff.body.data.changes).toEqual([{ path: 'name', before: 'site-a', after: 'site-b' }]);
    const back = await owner.client.post(`${path}/rollback`, { revision: 1, expectedRevision: 2 });
    expect(back.body.data).toMatchObject({ revision: 3, document: { name: 'site-a' } });
    const list = await owner.client.get<ConfigRevisionList>(`${path}/revisions`);
    expect(list.body.data.items.map((r) => [r.revision, r.reason])).toEqual([
      [3, 'Rollback to revision 1'],
      [2, ''],
      [1, ''],
    ]);
  });
});

describe('convergence, with the server restarted in between', () => {
  it('a device offline during a change gets it when it is back', async () => {
    const sn = testSn('O');
    const ap = await simulateOnline(server, sn);
    await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
    await ap.stop();
    await waitFor(async () => (await deviceRow(server, sn))?.status === 0, 'offline');
    const res = await save(sn, 0, { name: 'while-away' });
    expect(res.body.data).toMatchObject({ revision: 1, status: 'pending' });

    server = await restart(server);
    const back = await simulate(server, sn);
    running.push(back);
    await applied(server, sn, 1);
    expect(back.document).toMatchObject({ name: 'while-away' });
  });

  it('a drifted device is brought back to its revision', async () => {
    const ap = await device();
    expect((await save(ap.sn, 0, { name: 'desired' })).body.code).toBe(0);
    await applied(server, ap.sn, 1);
    const desired = (await deviceRow(server, ap.sn))!.desiredHash;
    expect(ap.configHash).toBe(desired);
    server = await restart(server);
    await waitFor(async () => (await deviceRow(server, ap.sn))?.status === 1 && ap.connected, 'back');

    // Someone changes the device locally: same revision, other content.
    await ap.drift({ name: 'changed-on-the-device' });
    await waitFor(() => ap.document.name === 'desired' && ap.configHash === desired, 'drift repaired');
    await applied(server, ap.sn, 1);
    expect((await deviceRow(server, ap.sn))!.reportedHash).toBe(desired);
  });

  it('a timed-out push is retried by the convergence job', async () => {
    const ap = await device();
    ap.pauseListening();
    const res = await save(ap.sn, 0, { name: 'retried' });
    expect(res.body.code).toBe(0);
    const timedOut = await waitFor(async () => {
      const [row] = await server.database.db
        .select()
        .from(deviceCommands)
        .where(and(eq(deviceCommands.sn, ap.sn), eq(deviceCommands.name, 'apply-config')));
      return row?.state === 'timeout' ? row : null;
    }, 'push timed out');
    expect(timedOut.code).toBe(5025);
    const row = (await deviceRow(server, ap.sn))!;
    expect(row.configStatus).toBe('pending');
    expect(row.configRetryAt).not.toBeNull();
    server = await restart(server);
    // Back on the restarted server, the device says hello and gets the revision again — and,
    // still not listening, lets that push time out too.
    let seen = '';
    await waitFor(
      async () => {
        const rows = await server.database.db
          .select()
          .from(deviceCommands)
          .where(and(eq(deviceCommands.sn, ap.sn), eq(deviceCommands.name, 'apply-config')));
        seen = JSON.stringify(rows.map((r) => r.state));
        return rows.length === 2 && rows.every((r) => r.state === 'timeout');
      },
      // A loaded runner: the restart, the hello and a 1.5 s deadline can take more than 10 s.
      () => `the push after hello timed out too (commands: ${seen})`,
      30_000,
    );
    ap.resumeListening();
    expect((await deviceRow(server, ap.sn))!.configStatus).toBe('pending');
    // Nothing else happens now: the convergence job, once the retry is due, sends it again.
    server.clock.advance(3_600_000);
    expect(await server.jobs.tick()).toBeGreaterThanOrEqual(1);
    await applied(server, ap.sn, 1);
    expect(ap.document).toMatchObject({ name: 'retried' });
  });
});

// Several instances share one external broker (shared subscription) and one database; an embedded
// broker belongs to one instance.
describe.runIf(EXTERNAL_BROKER)('two server instances', () => {
  it('push a due revision once between them', async () => {
    const ap = await device();
    ap.pauseListening();
    expect((await save(ap.sn, 0, { name: 'once' })).body.code).toBe(0);
    await waitFor(async () => {
      const [row] = await server.database.db
        .select()
        .from(deviceCommands)
        .where(and(eq(deviceCommands.sn, ap.sn), eq(deviceCommands.name, 'apply-config')));
      return row?.state === 'timeout';
    }, 'push timed out');
    ap.resumeListening();
    // The retry falls due (an hour on) before the second instance starts, while no push is in
    // flight. A push's deadline (expires_at) is on this clock too: moved past it while a push is in
    // flight, the push counts as ended — a claim on the other instance no longer waits for it, the
    // sweeper records it as a timeout — and the test, not the server, pushes twice (once in CI:
    // success, success, timeout).
    server.clock.advance(3_600_000);
    const second = await startServer({ ...server.config, port: 0 }, { now: server.clock.now });
    try {
      // Three ways to push the revision race: the second instance's re-send after the device's
      // retained state (Mosquitto gives a new shared subscription the retained messages; commands.ts
      // afterState), and both instances' jobs (one claims the device, the other finds nothing due).
      // Whichever claims first, the others wait for its push under the device's lock and then find
      // the revision applied: one push between them.
      await Promise.all([server.jobs.tick(), second.jobs.tick()]);
      await applied(server, ap.sn, 1);
      const pushes = await server.database.db
        .select()
        .from(deviceCommands)
        .where(and(eq(deviceCommands.sn, ap.sn), eq(deviceCommands.name, 'apply-config')));
      expect(pushes.map((p) => p.state).sort()).toEqual(['success', 'timeout']);
    } finally {
      await second.close();
    }
  });
});
