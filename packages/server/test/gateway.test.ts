import type { SimulatedDevice } from '@beacon/agent';
import { deriveDeviceSecret, downTopic, topicRoot, upTopic } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, deviceEvents, devices } from '../src/db/schema.ts';
import { SYSTEM_ACTOR } from '../src/gateway/commands.ts';
import {
  deviceRow,
  EventCollector,
  EXTERNAL_BROKER,
  insertProject,
  simulate,
  simulateOnline,
  testSn,
  waitFor,
} from './devices.helpers.ts';
import { createAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

let server: TestServer;
const running: SimulatedDevice[] = [];

beforeAll(async () => {
  server = await startTestServer({
    COMMAND_TIMEOUT_MS: '3000',
    MQTT_SHARE_GROUP: `t${Math.random().toString(36).slice(2, 10)}`,
  });
});
afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

async function device(sn: string, options: Parameters<typeof simulate>[2] = {}): Promise<SimulatedDevice> {
  const d = await simulateOnline(server, sn, options);
  running.push(d);
  return d;
}

const commands = () => server.gateway.commands;

async function commandRows(sn: string) {
  return server.database.db.select().from(deviceCommands).where(eq(deviceCommands.sn, sn));
}

describe('device link', () => {
  it('records a powered-on, unclaimed device from its hello, state and telemetry', async () => {
    const sn = testSn('U');
    await device(sn, { model: 'BS-S1008P' });
    const row = await waitFor(async () => {
      const r = await deviceRow(server, sn);
      return r?.telemetryAt ? r : null;
    }, 'telemetry');
    expect(row).toMatchObject({
      sn,
      projectId: null,
      model: 'BS-S1008P',
      type: 'switch',
      status: 1,
      managementMode: 1,
      reportedRevision: 0,
      configStatus: 'applied',
      portCount: 10,
    });
    expect(row.mac).toMatch(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/);
    expect(row.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(row.firmware).toBeTruthy();
    expect(row.firstSeenAt).not.toBeNull();
    expect(row.ports).toHaveLength(10);
    expect(row.poeTotal).toBe(65);
  });

  it('marks a device offline from its last will, and online again when it returns', async () => {
    const sn = testSn('W');
    const d = await simulateOnline(server, sn);
    await d.kill();
    await waitFor(async () => (await deviceRow(server, sn))?.status === 0, 'offline after the last will');
    const back = await device(sn);
    expect(back.connected).toBe(true);
    expect((await deviceRow(server, sn))?.status).toBe(1);
  });

  it.skipIf(EXTERNAL_BROKER)('refuses a device with a wrong secret or a foreign client id', async () => {
    const sn = testSn('A');
    const tryConnect = (options: mqtt.IClientOptions) =>
      new Promise<string>((resolve) => {
        const c = mqtt.connect(server.gateway.brokerUrl, {
          reconnectPeriod: 0,
          connectTimeout: 3000,
          ...options,
        });
        c.on('connect', () => {
          c.end(true);
          resolve('connected');
        });
        c.on('error', (err) => {
          c.end(true);
          resolve(err.message);
        });
      });
    const secret = await deriveDeviceSecret(server.config.factoryKey, sn);
    expect(await tryConnect({ clientId: sn, username: sn, password: 'wrong' })).not.toBe('connected');
    expect(await tryConnect({ clientId: 'other', username: sn, password: secret })).not.toBe('connected');
    expect(await tryConnect({ clientId: sn })).not.toBe('connected');
    expect(await tryConnect({ clientId: sn, username: sn, password: secret })).toBe('connected');
  });

  it.skipIf(EXTERNAL_BROKER)('lets a device publish and subscribe only under its own dev/{sn}/', async () => {
    const sn = testSn('L');
    const victim = testSn('V');
    const secret = await deriveDeviceSecret(server.config.factoryKey, sn);
    const c = await mqtt.connectAsync(server.gateway.brokerUrl, {
      clientId: sn,
      username: sn,
      password: secret,
      reconnectPeriod: 0,
    });
    const refused = async (topic: string) =>
      new Promise<boolean>((resolve) => c.subscribe(topic, { qos: 1 }, (err) => resolve(Boolean(err))));
    expect(await refused(downTopic(victim))).toBe(true);
    expect(await refused(`${topicRoot()}/+/down/cmd`)).toBe(true);
    expect(await refused(downTopic(sn))).toBe(false);
    // A hello forged for another device is dropped by the broker (Aedes closes the publisher).
    const hello = {
      sn: victim,
      model: 'BA-W1200C',
      type: 'ap',
      firmware: '4.2.0',
      capabilities: [],
      mac: '02:00:00:00:00:01',
      ip: '10.0.0.9',
      mode: 1,
      revision: 0,
      uptime: 1,
      bootId: 'x',
      protocol: 1,
      ts: Date.now(),
    };
    await c.publishAsync(upTopic(victim, 'hello'), JSON.stringify(hello), { qos: 0 }).catch(() => {});
    await new Promise((r) => setTimeout(r, 300));
    expect(await deviceRow(server, victim)).toBeUndefined();
    await c.endAsync(true);
  });

  it('drops messages that do not match the protocol schemas', async () => {
    const sn = testSn('I');
    const d = await device(sn);
    const before = await deviceRow(server, sn);
    // The device's own topic, invalid content: the row stays as it was.
    await d.publishRaw(upTopic(sn, 'state'), JSON.stringify({ status: 42, revision: -1 }));
    // A valid event after it on the same connection: once the event is stored, the server has
    // handled the invalid state too (one device's messages are handled in arrival order).
    const id = `after-invalid-${sn}`;
    const event = { id, ts: Date.now(), event: 'booted', level: 'info', message: 'marker' };
    await d.publishRaw(upTopic(sn, 'event'), JSON.stringify(event));
    await waitFor(async () => {
      const rows = await server.database.db.select().from(deviceEvents).where(eq(deviceEvents.sn, sn));
      return rows.some((r) => r.eventId === id);
    }, 'the valid event after the invalid state');
    expect((await deviceRow(server, sn))?.status).toBe(before?.status);
  });
});

describe('commands', () => {
  it('fails a command to an offline device at once with 36, and records it', async () => {
    const sn = testSn('O');
    const d = await simulateOnline(server, sn);
    await d.stop();
    await waitFor(async () => (await deviceRow(server, sn))?.status === 0, 'offline');
    // "At once": the outcome is recorded with the claim itself, never after waiting for a reply or
    // for the deadline (set far beyond any slowness of a loaded machine, so time is no judge here).
    const started = Date.now();
    const outcome = await commands().send(sn, 'reboot', {}, SYSTEM_ACTOR, { timeoutMs: 20_000 });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(outcome).toMatchObject({ sn, name: 'reboot', state: 'failed', code: 36 });
    const rows = await commandRows(sn);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'failed', code: 36 });
    expect(rows[0].finishedAt).toEqual(rows[0].createdAt);
  });

  it('answers 410 for a device Beacon does not know', async () => {
    const outcome = await commands().send(testSn('N'), 'locate', { seconds: 5 }, SYSTEM_ACTOR);
    expect(outcome).toMatchObject({ state: 'failed', code: 410 });
  });

  it('refuses invalid parameters before anything is sent', async () => {
    const sn = testSn('P');
    await device(sn);
    await expect(
      commands().send(sn, 'set-password', { password: 'short' }, SYSTEM_ACTOR),
    ).rejects.toMatchObject({
      code: 6,
    });
    expect(await commandRows(sn)).toHaveLength(0);
  });

  it('reboots a device: status 8, then 1, with one successful outcome', async () => {
    const sn = testSn('R');
    await device(sn);
    const events = await EventCollector.start(server);
    try {
      // Status events go to the device's project: bind it first.
      const owner = await createAccount(server);
      const projectId = await insertProject(server, owner.id);
      expect((await owner.client.post(`/projects/${projectId}/devices`, { sn })).body.code).toBe(0);
      const outcome = await commands().send(sn, 'reboot', {}, SYSTEM_ACTOR);
      expect(outcome).toMatchObject({ state: 'success', code: 0 });
      await waitFor(
        () => events.statuses(sn).includes(1) && events.statuses(sn).includes(8),
        'status 8 then 1',
      );
      const seq = events.statuses(sn);
      expect(seq.indexOf(8)).toBeLessThan(seq.lastIndexOf(1));
      const rows = await commandRows(sn);
      expect(rows.map((r) => [r.name, r.state, r.code])).toEqual([['reboot', 'success', 0]]);
      const commandEvents = events.events.filter((e) => e.type === 'command' && e.sn === sn);
      expect(commandEvents.map((e) => (e as { state: string }).state)).toEqual(['sent', 'success']);
    } finally {
      await events.stop();
    }
  });

  it('runs one command at a time per device, in order', async () => {
    const sn = testSn('S');
    await device(sn);
    const [a, b, c] = await Promise.all([
      commands().send(sn, 'led', { on: false }, SYSTEM_ACTOR),
      commands().send(sn, 'led', { on: true }, SYSTEM_ACTOR),
      commands().send(sn, 'locate', { seconds: 5 }, SYSTEM_ACTOR),
    ]);
    expect([a.code, b.code, c.code]).toEqual([0, 0, 0]);
    const rows = (await commandRows(sn)).sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime());
    // No two commands were open at the same time: each started after the previous one ended.
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i].createdAt.getTime()).toBeGreaterThanOrEqual(rows[i - 1].finishedAt!.getTime());
    }
  });

  it('times out with 5025 when the device never answers, and a late reply changes nothing', async () => {
    const sn = testSn('T');
    const d = await device(sn);
    // The device stops listening but stays "online" for the server (no will, no state).
    d.pauseListening();
    const outcome = await commands().send(sn, 'locate', { seconds: 5 }, SYSTEM_ACTOR, { timeoutMs: 400 });
    expect(outcome).toMatchObject({ state: 'timeout', code: 5025 });
    await commands().onReply(sn, { id: outcome.id, code: 0, ts: Date.now() });
    const rows = await commandRows(sn);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'timeout', code: 5025 });
  });

  it('sweeps commands whose sender went away past their deadline', async () => {
    const sn = testSn('K');
    const now = new Date();
    await server.database.db.insert(deviceCommands).values({
      id: `stale-${sn}`,
      sn,
      name: 'reboot',
      state: 'sent',
      createdAt: new Date(now.getTime() - 60_000),
      expiresAt: new Date(now.getTime() - 30_000),
    });
    expect(await commands().sweep()).toBeGreaterThanOrEqual(1);
    expect((await commandRows(sn))[0]).toMatchObject({ state: 'timeout', code: 5025 });
  });
});

describe('desired configuration', () => {
  it('commits a revision first, sends it when the device is back, and reports applied', async () => {
    const sn = testSn('C');
    const d = await simulateOnline(server, sn);
    await d.stop();
    await waitFor(async () => (await deviceRow(server, sn))?.status === 0, 'offline');
    const document = { radios: [{ band: '2.4G' as const, channel: 6, power: 20 }] };
    const saved = await commands().setDesiredConfig(sn, document, SYSTEM_ACTOR);
    expect(saved).toEqual({ revision: 1, outcome: null });
    expect(await deviceRow(server, sn)).toMatchObject({ desiredRevision: 1, configStatus: 'pending' });
    running.push(await simulate(server, sn));
    const row = await waitFor(async () => {
      const r = await deviceRow(server, sn);
      return r?.configStatus === 'applied' ? r : null;
    }, 'configuration applied after the hello');
    expect(row).toMatchObject({ desiredRevision: 1, reportedRevision: 1 });
    const rows = await commandRows(sn);
    expect(rows.filter((r) => r.name === 'apply-config').map((r) => r.state)).toEqual(['success']);
  });

  it('sends a pending configuration to a device that reports "online, not saved" (7), not only 1', async () => {
    const sn = testSn('S');
    const d = await simulateOnline(server, sn);
    // Its boot messages (a state 1 would trigger the re-send by itself) are handled before the reply
    // to a command it answers after them: one connection, one order.
    expect(await commands().send(sn, 'locate', { seconds: 1 }, SYSTEM_ACTOR)).toMatchObject({ code: 0 });
    await server.gateway.ingest.drain();
    // A revision the server holds as pending (as if saved while the device was away)…
    const document = { radios: [{ band: '2.4G' as const, channel: 3, power: 15 }] };
    await server.database.db
      .update(devices)
      .set({ desiredRevision: 1, desiredConfig: document, configStatus: 'pending' })
      .where(eq(devices.sn, sn));
    // …and the device's next state says 7 with the old revision: it is online and idle, so it gets it.
    const state = {
      status: 7,
      revision: 0,
      configStatus: 'applied',
      mode: 1,
      operation: null,
      ts: Date.now(),
    };
    await d.publishRaw(upTopic(sn, 'state'), JSON.stringify(state));
    const row = await waitFor(async () => {
      const r = await deviceRow(server, sn);
      return r?.configStatus === 'applied' ? r : null;
    }, 'configuration applied after a state of 7');
    expect(row).toMatchObject({ desiredRevision: 1, reportedRevision: 1 });
    const rows = await commandRows(sn);
    expect(rows.filter((r) => r.name === 'apply-config').map((r) => r.state)).toEqual(['success']);
  });

  it('records a configuration the device refuses as failed, with its code', async () => {
    const sn = testSn('F');
    await device(sn);
    const { outcome } = await commands().setDesiredConfig(
      sn,
      { radios: [{ band: '2.4G', channel: 6, power: 99 }] },
      SYSTEM_ACTOR,
    );
    expect(outcome?.state).toBe('failed');
    const row = await deviceRow(server, sn);
    expect(row).toMatchObject({ configStatus: 'failed', configCode: outcome?.code, reportedRevision: 0 });
  });
});

describe.skipIf(EXTERNAL_BROKER)('broker restart', () => {
  it('gives a command in flight one recorded outcome, and the device comes back', async () => {
    const sn = testSn('B');
    // A slower device: saving a configuration takes 0.5 to 1.2 s.
    const d = await device(sn, { timeScale: 0.1 });
    const pending = commands().setDesiredConfig(
      sn,
      { radios: [{ band: '2.4G', channel: 1, power: 18 }] },
      SYSTEM_ACTOR,
    );
    await waitFor(async () => (await commandRows(sn)).some((r) => r.state === 'sent'), 'command sent');
    await server.gateway.broker!.restart(300);
    const { outcome } = await pending;
    expect(outcome).not.toBeNull();
    expect(['success', 'timeout']).toContain(outcome!.state);
    const first = (await commandRows(sn)).find((r) => r.id === outcome!.id)!;
    expect(first.state).toBe(outcome!.state);
    expect(first.finishedAt).not.toBeNull();
    // The device reconnects with backoff and says hello again; the configuration ends up applied.
    await waitFor(() => d.connected, 'device reconnected', 10_000);
    const row = await waitFor(
      async () => {
        const r = await deviceRow(server, sn);
        return r?.status === 1 && r.configStatus === 'applied' ? r : null;
      },
      'device online with the configuration applied',
      15_000,
    );
    expect(row.reportedRevision).toBe(1);
    expect((await commandRows(sn)).every((r) => r.state !== 'sent')).toBe(true);
  }, 30_000);

  it("sends a pending configuration to a device that came back while the server's link was away", async () => {
    // After a broker restart the devices are often back before the server's own link (it retries
    // every second): their hellos reach nobody, and the server learns of them from their states,
    // which the broker retains. Here the link is held away while the device comes back.
    const sn = testSn('G');
    const d = await simulateOnline(server, sn);
    await d.stop();
    await waitFor(async () => (await deviceRow(server, sn))?.status === 0, 'offline');
    const document = { radios: [{ band: '2.4G' as const, channel: 11, power: 17 }] };
    expect(await commands().setDesiredConfig(sn, document, SYSTEM_ACTOR)).toEqual({
      revision: 1,
      outcome: null,
    });
    await server.gateway.link.close();
    try {
      const back = await simulate(server, sn);
      running.push(back);
      // Connected: its hello and state are on their way to the broker, which has no server to
      // hand the hello to.
      await waitFor(() => back.connected, 'device connected while the link is away');
    } finally {
      await server.gateway.link.start();
    }
    const row = await waitFor(
      async () => {
        const r = await deviceRow(server, sn);
        return r?.status === 1 && r.configStatus === 'applied' ? r : null;
      },
      'device online with the configuration applied',
      15_000,
    );
    expect(row).toMatchObject({ desiredRevision: 1, reportedRevision: 1 });
    const rows = await commandRows(sn);
    expect(rows.filter((r) => r.name === 'apply-config').map((r) => r.state)).toEqual(['success']);
  });
});
