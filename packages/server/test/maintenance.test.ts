import type { SimulatedDevice } from '@beacon/agent';
import {
  type ActionResultView,
  type BulkActionView,
  buildFirmwareImage,
  DEMO_PROJECT_IDS,
  type FirmwareView,
  type MaintenanceView,
} from '@beacon/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/db/embedded.ts';
import { auditLog, configRevisions, deviceCommands, devices, projectMembers } from '../src/db/schema.ts';
import { selectDevices } from '../src/devices/row.ts';
import {
  deviceRow,
  EventCollector,
  insertProject,
  simulateOnline,
  testSn,
  waitFor,
} from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Maintenance actions (src/maintenance/) with real simulated devices over the real broker, at a
 * time scale of 0.01 (a 60 s reboot takes 0.6 s).
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
const running: SimulatedDevice[] = [];

async function device(model = 'BA-W1200C', timeScale = 0.01): Promise<SimulatedDevice> {
  const sn = testSn('M');
  const d = await simulateOnline(server, sn, { model, timeScale });
  running.push(d);
  await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
  return d;
}

const action = (sn: string, name: string, body: unknown = {}, client = owner.client) =>
  client.post<ActionResultView>(`/projects/${projectId}/devices/${sn}/actions/${name}`, body);

const statusOf = async (sn: string) => (await deviceRow(server, sn))?.status;

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

describe('restart actions', () => {
  it('reboot: accepted, the device shows 8 then 1 live, with an audit row and a recorded outcome', async () => {
    const ap = await device();
    const events = await EventCollector.start(server);
    const res = await action(ap.sn, 'reboot');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ sn: ap.sn, code: 0 });
    await waitFor(() => events.statuses(ap.sn).includes(1), 'back online');
    await events.stop();
    const statuses = events.statuses(ap.sn);
    expect(statuses.indexOf(8)).toBeGreaterThanOrEqual(0);
    expect(statuses.indexOf(8)).toBeLessThan(statuses.lastIndexOf(1));
    const [command] = await server.database.db
      .select()
      .from(deviceCommands)
      .where(eq(deviceCommands.id, res.body.data.commandId!));
    expect(command).toMatchObject({ name: 'reboot', state: 'success', code: 0 });
    const audits = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, ap.sn), eq(auditLog.action, 'reboot')));
    expect(audits).toHaveLength(1);
  });

  it('refuses restart, reset and upgrade while the device restarts (5046), and records the refusal', async () => {
    const ap = await device('BA-W1200C', 0.05);
    expect((await action(ap.sn, 'reboot')).body.code).toBe(0);
    await waitFor(async () => (await statusOf(ap.sn)) === 8, 'rebooting');
    const again = await action(ap.sn, 'reboot');
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 5046 });
    expect((await action(ap.sn, 'reset')).body.code).toBe(5046);
    expect((await action(ap.sn, 'upgrade', { version: '4.4.0' })).body.code).toBe(5046);
    const refused = await server.database.db
      .select()
      .from(deviceCommands)
      .where(and(eq(deviceCommands.sn, ap.sn), eq(deviceCommands.code, 5046)));
    expect(refused.length).toBe(3);
    expect(refused.every((c) => c.state === 'failed')).toBe(true);
    await waitFor(async () => (await statusOf(ap.sn)) === 1, 'online again', 15_000);
  });

  it('reset: the device restarts (8) and comes back at configuration revision 0', async () => {
    const ap = await device();
    expect((await action(ap.sn, 'reset')).body.code).toBe(0);
    await waitFor(
      async () => (await deviceRow(server, ap.sn))?.operation === null && (await statusOf(ap.sn)) === 1,
      'reset done',
      15_000,
    );
    expect(ap.revision).toBe(0);
  });
});

describe('upgrade', () => {
  it('answers 37 for a version the model does not have and 38 for one not newer', async () => {
    const ap = await device();
    const unknown = await action(ap.sn, 'upgrade', { version: '9.9.9' });
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 400, code: 37 });
    const same = await action(ap.sn, 'upgrade', { version: ap.firmware });
    expect({ status: same.status, code: same.body.code }).toEqual({ status: 409, code: 38 });
  });

  it('checks an uploaded file by its content: name, header, model version', async () => {
    const upload = (name: string, bytes: Uint8Array) => {
      const form = new FormData();
      form.append('file', new Blob([bytes]), name);
      return owner.client.request<FirmwareView>('POST', `/projects/${projectId}/firmware`, form);
    };
    const image = buildFirmwareImage('BA-W1200C', '4.3.1');
    expect((await upload('image.txt', image)).body.code).toBe(5041);
    expect((await upload('junk.bin', new Uint8Array(1000).fill(65))).body.code).toBe(5041);
    expect((await upload('future.bin', buildFirmwareImage('BA-W1200C', '9.0.0'))).body.code).toBe(37);
    const good = await upload('ap.bin', image);
    expect(good.status, JSON.stringify(good.body)).toBe(200);
    expect(good.body.data).toMatchObject({ model: 'BA-W1200C', version: '4.3.1', size: image.length });
  });

  it('upgrades from an uploaded image the device downloads from a signed URL; 71 while upgrading', async () => {
    const ap = await device('BA-W1200C', 0.02);
    const form = new FormData();
    form.append('file', new Blob([buildFirmwareImage('BA-W1200C', '4.4.0', 64 * 1024)]), 'ap-4.4.0.bin');
    const uploaded = await owner.client.request<FirmwareView>(
      'POST',
      `/projects/${projectId}/firmware`,
      form,
    );
    expect(uploaded.body.code).toBe(0);
    const switchImage = new FormData();
    switchImage.append('file', new Blob([buildFirmwareImage('BS-S1008P', '1.4.2')]), 'sw.bin');
    const wrongModel = await owner.client.request<FirmwareView>(
      'POST',
      `/projects/${projectId}/firmware`,
      switchImage,
    );
    expect((await action(ap.sn, 'upgrade', { firmwareId: wrongModel.body.data.id })).body.code).toBe(2);

    const res = await action(ap.sn, 'upgrade', { firmwareId: uploaded.body.data.id });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    await waitFor(async () => [3, 4, 5].includes((await statusOf(ap.sn)) ?? -1), 'upgrading');
    const busy = await action(ap.sn, 'reboot');
    expect(busy.body.code).toBe(71);
    await waitFor(async () => (await deviceRow(server, ap.sn))?.firmware === '4.4.0', 'new firmware', 20_000);
    expect(ap.firmware).toBe('4.4.0');

    // A forged or expired download address is refused.
    const forged = await fetch(
      `${server.url}/api/v1/firmware/${uploaded.body.data.id}/download?sn=${ap.sn}&exp=9999999999&sig=${'0'.repeat(64)}`,
    );
    expect(forged.status).toBe(403);
  });
});

describe('configuration actions', () => {
  it('device password follows SPEC.md §5 (6), and a good one is set', async () => {
    const ap = await device();
    const weak = await action(ap.sn, 'password', { password: 'abcdefgh' });
    expect({ status: weak.status, code: weak.body.code }).toEqual({ status: 400, code: 6 });
    expect((await action(ap.sn, 'password', { password: 'Str0ng-Pass' })).body.code).toBe(0);
    const [audit] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, ap.sn), eq(auditLog.action, 'password')));
    expect(JSON.stringify(audit.after)).not.toContain('Str0ng');
    // The device has it; it is a sealed part of the device's configuration, and neither the command
    // history nor the stored revision keeps it readable.
    expect(ap.core.store.checkPassword('Str0ng-Pass')).toBe(true);
    const history = await server.database.db
      .select()
      .from(deviceCommands)
      .where(eq(deviceCommands.sn, ap.sn));
    expect(history.map((c) => c.name)).toContain('apply-config');
    const revisions = await server.database.db
      .select()
      .from(configRevisions)
      .where(eq(configRevisions.sn, ap.sn));
    expect(revisions).toHaveLength(1);
    expect(JSON.stringify([history, revisions, await deviceRow(server, ap.sn)])).not.toContain('Str0ng');
  });

  it("the maintenance tab's command history shows no secret a device's reply carried", async () => {
    const ap = await device();
    expect((await action(ap.sn, 'password', { password: 'Str0ng-Pass2' })).body.code).toBe(0);
    // The device runs a document with its password; the server has no revision of it any more (as
    // after an unbind), so the next settings change asks the device for it (get-config).
    await server.database.db
      .update(devices)
      .set({ desiredRevision: 0, desiredConfig: null, desiredHash: null })
      .where(eq(devices.sn, ap.sn));
    expect((await action(ap.sn, 'led', { on: false })).body.code).toBe(0);
    const view = await owner.client.get<MaintenanceView>(
      `/projects/${projectId}/devices/${ap.sn}/maintenance`,
    );
    expect(view.status).toBe(200);
    const names = view.body.data.commands.map((c) => c.name);
    expect(names).toContain('get-config');
    expect(JSON.stringify(view.body.data.commands)).not.toContain('Str0ng-Pass2');
    // At rest too: the reply is stored with its secrets sealed (invariant 9)…
    const stored = await server.database.db
      .select({ data: deviceCommands.data })
      .from(deviceCommands)
      .where(and(eq(deviceCommands.sn, ap.sn), eq(deviceCommands.name, 'get-config')));
    expect(stored.length).toBeGreaterThan(0);
    expect(JSON.stringify(stored)).not.toContain('Str0ng-Pass2');
    // …and the revision built from it still gives the device its own password back.
    await waitFor(async () => (await deviceRow(server, ap.sn))?.configStatus === 'applied', 'LED applied');
    expect(ap.core.store.checkPassword('Str0ng-Pass2')).toBe(true);
  });

  it('locate, LED, rate limit', async () => {
    const ap = await device();
    expect((await action(ap.sn, 'locate', { seconds: 30 })).body.code).toBe(0);
    expect((await action(ap.sn, 'led', { on: false })).body.code).toBe(0);
    expect(ap.core.store.data.led).toBe(false);
    expect((await deviceRow(server, ap.sn))?.desiredConfig).toMatchObject({ led: false });
    expect((await action(ap.sn, 'rate-limit', { upKbps: 1000, downKbps: 5000 })).body.code).toBe(0);
    expect((await action(ap.sn, 'rate-limit', { upKbps: -1, downKbps: 5000 })).body.code).toBe(16);
  });

  it('PoE reboot per port on a switch; not a PoE port (16); an AP has no PoE (2)', async () => {
    const sw = await device('BS-S1008P');
    expect((await action(sw.sn, 'poe-reboot', { ports: [1, 2] })).body.code).toBe(0);
    expect((await action(sw.sn, 'poe-reboot', { ports: [9] })).body.code).toBe(16);
    const ap = await device();
    expect((await action(ap.sn, 'poe-reboot', { ports: [1] })).body.code).toBe(2);
  });

  it('switches a CPE between AP and client mode (restart 8 → 1); other models answer 2', async () => {
    const cpe = await device('BC-C5');
    const events = await EventCollector.start(server);
    expect((await action(cpe.sn, 'cpe-mode', { mode: 'client' })).body.code).toBe(0);
    await waitFor(async () => (await deviceRow(server, cpe.sn))?.cpeMode === 'client', 'client mode', 15_000);
    await events.stop();
    expect(events.statuses(cpe.sn)).toContain(8);
    const ap = await device();
    expect((await action(ap.sn, 'cpe-mode', { mode: 'client' })).body.code).toBe(2);
  });

  it('local management mode: configuration is refused with 76 until cloud mode is back', async () => {
    const ap = await device();
    expect((await action(ap.sn, 'local-management', { enabled: true })).body.code).toBe(0);
    await waitFor(async () => (await deviceRow(server, ap.sn))?.managementMode === 0, 'local mode');
    const led = await action(ap.sn, 'led', { on: true });
    expect({ status: led.status, code: led.body.code }).toEqual({ status: 409, code: 76 });
    expect((await action(ap.sn, 'reset')).body.code).toBe(76);
    expect((await action(ap.sn, 'reboot-schedule', { days: [1], time: '03:00' })).body.code).toBe(76);
    expect((await action(ap.sn, 'local-management', { enabled: false })).body.code).toBe(0);
    await waitFor(async () => (await deviceRow(server, ap.sn))?.managementMode === 1, 'cloud mode');
    expect((await action(ap.sn, 'led', { on: true })).body.code).toBe(0);
  });

  it('copies the configuration to devices of the same model only', async () => {
    const source = await device();
    const same = await device();
    const other = await device('BA-W3000X');
    const res = await action(source.sn, 'copy-config', { targets: [same.sn, other.sn] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const results = (res.body.data.data as { results: ActionResultView[] }).results;
    expect(results.map((r) => [r.sn, r.code])).toEqual([
      [same.sn, 0],
      [other.sn, 2],
    ]);
    await waitFor(
      async () => (await deviceRow(server, same.sn))?.configStatus === 'applied',
      'applied',
      20_000,
    );
    expect(same.revision).toBeGreaterThan(0);
  });

  it('remote management: closed → open with an expiring, authenticated URL → closed', async () => {
    const ap = await device();
    const res = await action(ap.sn, 'remote-management', { enabled: true, ttlSeconds: 120 });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    const url = res.body.data.data?.url as string;
    expect(url).toMatch(/^\/api\/v1\/remote\/[\w-]+\/$/);
    const raw = await fetch(`${server.url}${url}`, {
      headers: { cookie: `token=${owner.client.cookieToken}` },
    });
    expect(raw.status).toBe(200);
    expect(await raw.text()).toContain(ap.sn);
    // Another account, or no session, cannot use the address.
    const stranger = await createAccount(server);
    const other = await fetch(`${server.url}${url}`, {
      headers: { cookie: `token=${stranger.client.cookieToken}` },
    });
    expect(other.status).toBe(404);
    expect((await fetch(`${server.url}${url}`)).status).toBe(401);
    await waitFor(async () => {
      const view = await owner.client.get<MaintenanceView>(
        `/projects/${projectId}/devices/${ap.sn}/maintenance`,
      );
      return view.body.data.remote.state === 'open' && view.body.data.remote.url === url;
    }, 'remote open in the view');
    // The device's own page token stays on the server: the command history does not show it.
    const history = await owner.client.get<{ items: Array<{ name: string; data: unknown }> }>(
      `/projects/${projectId}/devices/${ap.sn}/commands`,
    );
    const opened = history.body.data.items.find((c) => c.name === 'remote-management-open');
    expect(opened).toBeDefined();
    expect(JSON.stringify(opened)).not.toMatch(/token/i);
    expect((await action(ap.sn, 'remote-management', { enabled: false })).body.code).toBe(0);
    const closed = await fetch(`${server.url}${url}`, {
      headers: { cookie: `token=${owner.client.cookieToken}` },
    });
    expect(closed.status).toBe(404);
  });
  it("remote management: the owner's visit displaces a service person's session; others find it busy", async () => {
    const ap = await device();
    const service = await createAccount(server);
    const other = await createAccount(server);
    await server.database.db.insert(projectMembers).values([
      { projectId, accountId: service.id, permission: 'rw', acceptedAt: new Date() },
      { projectId, accountId: other.id, permission: 'rw', acceptedAt: new Date() },
    ]);
    const open = async (client: TestAccount['client']) =>
      action(ap.sn, 'remote-management', { enabled: true, ttlSeconds: 120 }, client);
    const reach = async (url: string, who: TestAccount | typeof owner) =>
      (await fetch(`${server.url}${url}`, { headers: { cookie: `token=${who.client.cookieToken}` } })).status;

    const first = await open(service.client);
    expect(first.body.code, JSON.stringify(first.body)).toBe(0);
    const serviceUrl = first.body.data.data?.url as string;
    expect(await reach(serviceUrl, service)).toBe(200);

    // Another service person does not displace the first one.
    const busy = await open(other.client);
    expect(busy.body.code).toBe(320);
    expect(await reach(serviceUrl, service)).toBe(200);

    // The owner does: the service person's address stops working, the owner's works.
    const mine = await open(owner.client);
    expect(mine.body.code, JSON.stringify(mine.body)).toBe(0);
    expect(await reach(serviceUrl, service)).toBe(404);
    expect(await reach(mine.body.data.data?.url as string, owner)).toBe(200);

    // And the owner is not displaced by a service person.
    expect((await open(service.client)).body.code).toBe(320);
    expect((await action(ap.sn, 'remote-management', { enabled: false })).body.code).toBe(0);
  });
});

describe('who and what may be configured', () => {
  it('an offline device answers 36 (single) and per device in the bulk form', async () => {
    const ap = await device();
    const gone = await device();
    await gone.kill();
    await waitFor(async () => (await statusOf(gone.sn)) === 0, 'offline (last will)');
    const single = await action(gone.sn, 'reboot');
    expect({ status: single.status, code: single.body.code }).toEqual({ status: 409, code: 36 });
    // A serial not in the project refuses the whole request before anything is written.
    const stranger = await owner.client.post(`/projects/${projectId}/devices/actions/locate`, {
      sns: [ap.sn, gone.sn, 'NOTINTHEPROJECT0001'],
      params: { seconds: 10 },
    });
    expect({ status: stranger.status, code: stranger.body.code }).toEqual({ status: 410, code: 410 });
    const bulk = await owner.client.post<BulkActionView>(`/projects/${projectId}/devices/actions/locate`, {
      sns: [ap.sn, gone.sn],
      params: { seconds: 10 },
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body.data.results.map((r) => r.code)).toEqual([0, 36]);
    expect(bulk.body.data).toMatchObject({ succeeded: 1, failed: 1 });
    const rows = await server.database.db
      .select()
      .from(deviceCommands)
      .where(and(eq(deviceCommands.sn, gone.sn), eq(deviceCommands.code, 36)));
    expect(rows.length).toBeGreaterThanOrEqual(2);
  });

  it('a read-only member hears 5032 and nothing reaches the device', async () => {
    const ap = await device();
    const reader = await createAccount(server);
    await server.database.db
      .insert(projectMembers)
      .values({ projectId, accountId: reader.id, permission: 'r', acceptedAt: new Date() });
    const res = await action(ap.sn, 'reboot', {}, reader.client);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 5032 });
    const bulk = await reader.client.post(`/projects/${projectId}/devices/actions/reboot`, { sns: [ap.sn] });
    expect(bulk.body.code).toBe(5032);
    const view = await reader.client.get<MaintenanceView>(
      `/projects/${projectId}/devices/${ap.sn}/maintenance`,
    );
    expect(view.body.code).toBe(0);
    expect(view.body.data.commands).toHaveLength(0);
  });

  it('demo projects cannot be configured (5031)', async () => {
    const res = await owner.client.post(
      `/projects/${DEMO_PROJECT_IDS.WLAN}/devices/DEMOAP0000000001/actions/reboot`,
      {},
    );
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 403, code: 5031 });
    const upload = new FormData();
    upload.append('file', new Blob([buildFirmwareImage('BA-W1200C', '4.3.1')]), 'a.bin');
    const fw = await owner.client.request('POST', `/projects/${DEMO_PROJECT_IDS.WLAN}/firmware`, upload);
    expect(fw.body.code).toBe(5031);
  });

  it('a bulk reboot of several devices answers one result each', async () => {
    const a = await device();
    const b = await device('BS-S1016');
    const res = await owner.client.post<BulkActionView>(`/projects/${projectId}/devices/actions/reboot`, {
      sns: [a.sn, b.sn],
    });
    expect(res.body.data.results.map((r) => [r.sn, r.code])).toEqual([
      [a.sn, 0],
      [b.sn, 0],
    ]);
    await waitFor(
      async () => (await statusOf(a.sn)) === 1 && (await statusOf(b.sn)) === 1,
      'both back',
      15_000,
    );
  });
});

describe('scheduled reboot', () => {
  it('needs at least one day and a valid time', async () => {
    const ap = await device();
    const none = await action(ap.sn, 'reboot-schedule', { days: [], time: '03:00' });
    expect(none.body).toMatchObject({ code: 16, fields: { days: 'Choose at least one day' } });
    expect((await action(ap.sn, 'reboot-schedule', { days: [1], time: '25:00' })).body.code).toBe(16);
    const ok = await action(ap.sn, 'reboot-schedule', { days: [1, 3], time: '04:30' });
    expect(ok.body.code).toBe(0);
    const view = await owner.client.get<MaintenanceView>(
      `/projects/${projectId}/devices/${ap.sn}/maintenance`,
    );
    expect(view.body.data.schedule).toMatchObject({ days: [1, 3], time: '04:30', timeZone: 'Asia/Shanghai' });
    const next = new Date(view.body.data.schedule!.nextRunAt);
    // 04:30 at GMT+8 is 20:30 UTC the day before (Sunday or Tuesday).
    expect(next.getUTCHours()).toBe(20);
    expect([0, 2]).toContain(next.getUTCDay());
    expect((await action(ap.sn, 'reboot-schedule', { enabled: false })).body.code).toBe(0);
    const cleared = await owner.client.get<MaintenanceView>(
      `/projects/${projectId}/devices/${ap.sn}/maintenance`,
    );
    expect(cleared.body.data.schedule).toBeNull();
  });
});

describe('scheduled reboot across a server restart', () => {
  it('fires from the durable job after the server restarts', async () => {
    const port = await freePort();
    const first = await startTestServer({ JOB_POLL_MS: '0', MQTT_PORT: String(port) });
    const { startServer } = await import('../src/server.ts');
    let second: Awaited<ReturnType<typeof startServer>> | null = null;
    const me = await createAccount(first);
    const pid = await insertProject(first, me.id);
    const sn = testSn('R');
    const { simulate } = await import('./devices.helpers.ts');
    const ap = await simulate(first, sn);
    try {
      await waitFor(async () => (await deviceRow(first, sn))?.status === 1, 'online');
      await first.database.db.update(devices).set({ projectId: pid }).where(eq(devices.sn, sn));
      const res = await me.client.post(`/projects/${pid}/devices/${sn}/actions/reboot-schedule`, {
        days: [0, 1, 2, 3, 4, 5, 6],
        time: '03:00',
      });
      expect(res.body.code, JSON.stringify(res.body)).toBe(0);
      const config = first.config;
      const clock = first.clock;
      await first.close();

      clock.advance(25 * 3600_000);
      second = await startServer(config, { now: clock.now });
      await waitFor(async () => {
        const [row] = await selectDevices(second!.database.db).where(eq(devices.sn, sn));
        return row?.status === 1 && ap.connected;
      }, 'back on the new server');
      const collector = await EventCollector.start({ ...first, database: second.database } as TestServer);
      expect(await second.jobs.tick()).toBeGreaterThanOrEqual(1);
      const command = await waitFor(async () => {
        const [row] = await second!.database.db
          .select()
          .from(deviceCommands)
          .where(and(eq(deviceCommands.sn, sn), eq(deviceCommands.name, 'reboot')));
        return row?.state === 'success' ? row : null;
      }, 'scheduled reboot recorded');
      expect(command.accountName).toBe('scheduled reboot');
      await waitFor(() => collector.statuses(sn).includes(1), 'rebooted and online', 15_000);
      expect(collector.statuses(sn)).toContain(8);
      await collector.stop();
    } finally {
      await ap.stop().catch(() => {});
      await second?.close();
    }
  });
});
