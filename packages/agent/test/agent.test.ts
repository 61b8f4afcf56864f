import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CommandInput,
  deriveDeviceSecret,
  deviceTopics,
  helloSchema,
  isDeviceTopicAllowed,
  makeCommand,
  parseDeviceTopic,
  replySchema,
  serverUpFilter,
  stateMessageSchema,
  telemetrySchema,
  upTopic,
} from '@beacon/protocol';
import { Aedes, type AuthenticateError } from 'aedes';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimulatedDevice, startDevice, startFleet } from '../src/index.ts';

const FACTORY_KEY = 'integration-test-factory-key';
const SERVER_USER = 'beacon-server';
const SERVER_PASSWORD = 'server-secret';
const TIME_SCALE = 0.01;

interface Received {
  topic: string;
  sn: string;
  kind: string;
  payload: Record<string, unknown>;
  at: number;
}

/** An embedded broker that authenticates devices by SN and derived secret and confines them to dev/{sn}/. */
async function startBroker(port = 0) {
  const broker = await Aedes.createBroker();
  const published: Received[] = [];
  broker.authenticate = (client, username, password, done) => {
    const pass = password?.toString() ?? '';
    if (username === SERVER_USER) return done(null, pass === SERVER_PASSWORD);
    if (!username || client.id !== username) {
      return done(Object.assign(new Error('bad client id'), { returnCode: 2 }) as AuthenticateError, false);
    }
    void deriveDeviceSecret(FACTORY_KEY, username).then((secret) => {
      if (secret === pass) done(null, true);
      else done(Object.assign(new Error('bad credentials'), { returnCode: 4 }) as AuthenticateError, false);
    });
  };
  const user = (client: { id: string } | null) => client?.id ?? '';
  broker.authorizePublish = (client, packet, done) => {
    if (!client || client.id.startsWith('server-')) return done(null);
    done(isDeviceTopicAllowed(user(client), packet.topic, 'publish') ? null : new Error('not yours'));
  };
  broker.authorizeSubscribe = (client, sub, done) => {
    if (client.id.startsWith('server-')) return done(null, sub);
    done(null, isDeviceTopicAllowed(client.id, sub.topic, 'subscribe') ? sub : null);
  };
  broker.on('publish', (packet) => {
    const parsed = parseDeviceTopic(packet.topic);
    if (parsed?.direction === 'up') {
      published.push({
        topic: packet.topic,
        sn: parsed.sn,
        kind: parsed.kind,
        payload: JSON.parse(packet.payload.toString()),
        at: Date.now(),
      });
    }
  });
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    broker.handle(socket);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    port: address.port,
    url: `mqtt://127.0.0.1:${address.port}`,
    published,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => broker.close(() => resolve()));
    },
  };
}

/** A client that behaves as the Beacon server: reads every device's up topics and sends commands. */
class ServerClient {
  readonly messages: Received[] = [];
  private constructor(readonly client: MqttClient) {
    client.on('message', (topic, payload) => {
      const parsed = parseDeviceTopic(topic);
      if (!parsed) return;
      this.messages.push({
        topic,
        sn: parsed.sn,
        kind: parsed.kind,
        payload: JSON.parse(payload.toString()),
        at: this.messages.length,
      });
    });
  }

  /** A position in the arrival order: `since` counts messages, not milliseconds, so two messages in the same millisecond stay ordered. */
  mark(): number {
    return this.messages.length;
  }

  static async connect(url: string): Promise<ServerClient> {
    const client = await mqtt.connectAsync(url, {
      clientId: `server-${Math.random().toString(16).slice(2)}`,
      username: SERVER_USER,
      password: SERVER_PASSWORD,
      protocolVersion: 4,
      reconnectPeriod: 50,
    });
    await client.subscribeAsync(serverUpFilter(), { qos: 1 });
    return new ServerClient(client);
  }

  send(sn: string, cmd: CommandInput): void {
    this.client.publish(deviceTopics(sn).cmd, JSON.stringify(cmd), { qos: 1 });
  }

  of(sn: string, kind: string, since = 0): Record<string, unknown>[] {
    return this.messages.filter((m) => m.sn === sn && m.kind === kind && m.at >= since).map((m) => m.payload);
  }

  async waitFor(
    sn: string,
    kind: string,
    pred: (p: Record<string, unknown>) => boolean,
    since = 0,
    timeoutMs = 8000,
  ) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.of(sn, kind, since).find(pred);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no ${kind} from ${sn} matching in ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async reply(sn: string, id: string, timeoutMs = 8000) {
    const r = await this.waitFor(sn, 'reply', (p) => p.id === id, 0, timeoutMs);
    expect(replySchema.safeParse(r).success).toBe(true);
    return r;
  }

  close(): Promise<void> {
    return this.client.endAsync(true);
  }
}

async function waitUntil(pred: () => boolean, timeoutMs = 8000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pred()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('simulated device over MQTT', () => {
  let broker: Awaited<ReturnType<typeof startBroker>>;
  let server: ServerClient;
  let stateDir: string;
  const devices: SimulatedDevice[] = [];

  const start = async (sn: string, extra: Partial<Parameters<typeof startDevice>[0]> = {}) => {
    const d = await startDevice({
      url: broker.url,
      sn,
      factoryKey: FACTORY_KEY,
      timeScale: TIME_SCALE,
      stateDir,
      telemetryMs: 300,
      backoffMinMs: 50,
      backoffMaxMs: 400,
      ...extra,
    });
    devices.push(d);
    return d;
  };

  beforeAll(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'agent-it-'));
    broker = await startBroker();
    server = await ServerClient.connect(broker.url);
  });

  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop().catch(() => {})));
    await server?.close();
    await broker?.close();
    await rm(stateDir, { recursive: true, force: true });
  });

  it('says hello, reports state 1 and valid telemetry', async () => {
    const sn = 'ITAP000000000001';
    await start(sn, { model: 'BA-W1200C' });
    const hello = await server.waitFor(sn, 'hello', () => true);
    expect(helloSchema.parse(hello)).toMatchObject({
      sn,
      model: 'BA-W1200C',
      type: 'ap',
      revision: 0,
      mode: 1,
    });
    const state = await server.waitFor(sn, 'state', () => true);
    expect(stateMessageSchema.parse(state)).toMatchObject({ status: 1 });
    const telemetry = await server.waitFor(sn, 'telemetry', () => true);
    expect(telemetrySchema.safeParse(telemetry).success).toBe(true);
  });

  it('refuses a device with the wrong secret', async () => {
    const d = await start('ITAP000000000009', { secret: 'not-the-secret', backoffMinMs: 1000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(d.connected).toBe(false);
    await d.kill();
  });

  it('reboots: reply 0, state 8 then 1; a command while rebooting is refused with 5046', async () => {
    const sn = 'ITSW000000000001';
    await start(sn, { model: 'BS-S1008P' });
    await server.waitFor(sn, 'hello', () => true);
    await server.waitFor(sn, 'state', (s) => s.status === 1);
    const since = server.mark();
    server.send(sn, makeCommand('reboot', {}, 'reboot-1'));
    expect(await server.reply(sn, 'reboot-1')).toMatchObject({ code: 0 });
    await server.waitFor(sn, 'state', (s) => s.status === 8, since);
    server.send(sn, makeCommand('reset', {}, 'reset-while-rebooting'));
    expect(await server.reply(sn, 'reset-while-rebooting')).toMatchObject({ code: 5046 });
    await server.waitFor(sn, 'state', (s) => s.status === 1, since);
    const statuses = server.of(sn, 'state', since).map((s) => s.status);
    expect(statuses.slice(statuses.indexOf(8))).toEqual([8, 1]);
    expect(server.of(sn, 'hello', since)).toHaveLength(1);
  });

  it('test hooks: publishRaw sends as-is over its own connection; pauseListening leaves commands unanswered', async () => {
    const sn = 'ITAP000000000007';
    const d = await start(sn, { model: 'BA-W1200C' });
    await server.waitFor(sn, 'hello', () => true);
    await d.publishRaw(upTopic(sn, 'event'), JSON.stringify({ not: 'an event' }));
    expect(await server.waitFor(sn, 'event', (e) => e.not === 'an event')).toEqual({ not: 'an event' });

    d.pauseListening();
    server.send(sn, makeCommand('locate', { seconds: 5 }, 'unheard'));
    await new Promise((r) => setTimeout(r, 300));
    expect(server.of(sn, 'reply').filter((r) => r.id === 'unheard')).toEqual([]);
    expect(d.connected).toBe(true);
    d.resumeListening();
    server.send(sn, makeCommand('locate', { seconds: 5 }, 'heard'));
    expect(await server.reply(sn, 'heard')).toMatchObject({ code: 0 });
  });

  it('applies a configuration, reports the revision, and keeps it across a restart', async () => {
    const sn = 'ITAP000000000002';
    const d = await start(sn, { model: 'BA-W1200C' });
    await server.waitFor(sn, 'hello', () => true);
    const document = {
      wifi: [
        {
          name: 'staff',
          ssid: 'Staff',
          encryption: 2,
          cipher: 'aes' as const,
          password: 'secret-pass',
          bands: ['2.4G' as const, '5G' as const],
        },
      ],
    };
    server.send(sn, makeCommand('apply-config', { revision: 3, document }, 'cfg-3'));
    expect(await server.reply(sn, 'cfg-3')).toMatchObject({ code: 0, data: { revision: 3 } });
    await server.waitFor(sn, 'state', (s) => s.revision === 3 && s.configStatus === 'applied');
    server.send(
      sn,
      makeCommand('apply-config', { revision: 4, document: { vlans: [{ id: 9, name: 'low' }] } }, 'cfg-4'),
    );
    expect(await server.reply(sn, 'cfg-4')).toMatchObject({ code: 16 });
    await server.waitFor(
      sn,
      'state',
      (s) => s.configStatus === 'failed' && s.failedRevision === 4 && s.revision === 3,
    );

    await d.stop();
    const off = await server.waitFor(sn, 'state', (s) => s.status === 0);
    expect(off.revision).toBe(3);
    const since = server.mark();
    await start(sn, { model: 'BA-W1200C' });
    const hello = await server.waitFor(sn, 'hello', () => true, since);
    expect(hello.revision).toBe(3);
    server.send(sn, makeCommand('get-config', {}, 'get-1'));
    expect(await server.reply(sn, 'get-1')).toMatchObject({
      code: 0,
      data: { revision: 3, document: { wifi: [{ ssid: 'Staff' }] } },
    });
  });

  it('reconnects with backoff after the broker fails and says hello again', async () => {
    const sn = 'ITGW000000000001';
    const d = await start(sn, { model: 'BG-R1200' });
    await server.waitFor(sn, 'hello', () => true);
    const port = broker.port;
    await broker.close();
    await waitUntil(() => !d.connected, 5000, 'the device to notice');
    await new Promise((r) => setTimeout(r, 300));
    broker = await startBroker(port);
    await waitUntil(
      () => broker.published.some((m) => m.sn === sn && m.kind === 'hello'),
      10_000,
      'hello after the broker came back',
    );
    expect(d.connected).toBe(true);
    await waitUntil(() => server.client.connected, 5000, 'the server client to reconnect');
    server.send(sn, makeCommand('locate', { seconds: 5 }, 'locate-after-restart'));
    expect(await server.reply(sn, 'locate-after-restart')).toMatchObject({ code: 0 });
  });

  it('the last will marks a device offline when its connection dies', async () => {
    const sn = 'ITAP000000000003';
    const d = await start(sn);
    await server.waitFor(sn, 'hello', () => true);
    const since = server.mark();
    await d.kill();
    const will = await server.waitFor(sn, 'state', (s) => s.status === 0, since);
    expect(will).toMatchObject({ status: 0, will: true });
  });

  it('runs a fleet whose devices all come online', async () => {
    const fleet = await startFleet({
      url: broker.url,
      count: 6,
      types: ['router', 'switch', 'ap'],
      prefix: 'ITF',
      factoryKey: FACTORY_KEY,
      timeScale: TIME_SCALE,
      telemetryMs: 300,
      backoffMinMs: 50,
    });
    try {
      await fleet.waitOnline(10_000);
      for (const d of fleet.devices) await server.waitFor(d.sn, 'hello', () => true);
      const ap = fleet.devices.find((d) => d.model.type === 'ap')!;
      const t = await server.waitFor(ap.sn, 'telemetry', (p) => !!p.uplink);
      expect(t.uplink).toMatchObject({ sn: expect.stringMatching(/^ITFSW/) });
    } finally {
      await fleet.stop();
    }
  });
});
