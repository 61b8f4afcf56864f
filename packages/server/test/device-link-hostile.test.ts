import { deriveDeviceSecret, upTopic } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, deviceEvents } from '../src/db/schema.ts';
import { deviceRow, EXTERNAL_BROKER, testSn, waitFor } from './devices.helpers.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * "Assume a hostile device" (issue 7): whatever a device publishes — not JSON, NUL characters,
 * wrong types, values no column takes, lists over their bounds, another device's topics — is
 * dropped without a write and without stopping the server, and the device's next valid message is
 * still handled.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function connect(sn: string): Promise<mqtt.MqttClient> {
  return mqtt.connectAsync(server.gateway.brokerUrl, {
    clientId: sn,
    username: sn,
    password: await deriveDeviceSecret(server.config.factoryKey, sn),
    reconnectPeriod: 0,
  });
}

const hello = (sn: string) => ({
  sn,
  model: 'BA-W1200C',
  type: 'ap',
  firmware: '4.2.0',
  capabilities: ['locate'],
  mac: '02:00:00:00:00:07',
  ip: '10.0.0.7',
  mode: 1,
  revision: 0,
  uptime: 5,
  bootId: 'boot-1',
  protocol: 1,
  ts: Date.now(),
});
const state = { status: 1, revision: 0, configStatus: 'applied', mode: 1, operation: null, ts: Date.now() };
const telemetry = {
  ts: Date.now(),
  uptime: 6,
  cpu: 10,
  memory: 20,
  clientCount: 0,
  clients: [],
  led: false,
  locating: false,
};
const event = { id: 'e1', ts: Date.now(), event: 'booted', level: 'info', message: 'up' };
const client = {
  mac: '02:00:00:00:00:08',
  name: 'phone',
  ip: '10.0.0.8',
  kind: 'phone',
  wired: false,
  ssid: 'guest',
  band: '5G',
  rssi: -50,
  txRate: 1,
  rxRate: 1,
  txBytes: 1,
  rxBytes: 1,
  onlineSeconds: 1,
  vlan: null,
};

async function eventIds(sn: string): Promise<string[]> {
  const rows = await server.database.db.select().from(deviceEvents).where(eq(deviceEvents.sn, sn));
  return rows.map((r) => r.eventId);
}

/** Publishes a valid event and waits until it is stored: every message before it is handled by then. */
async function marker(c: mqtt.MqttClient, sn: string, id: string): Promise<void> {
  const e = { ...event, id, message: 'marker' };
  await c.publishAsync(upTopic(sn, 'event'), JSON.stringify(e), { qos: 1 });
  await waitFor(async () => (await eventIds(sn)).includes(id), `marker ${id}`);
  // Telemetry is written on its own schedule: hand over what is pending now.
  await server.gateway.ingest.drain();
}

describe('a hostile device', () => {
  it('has every malformed message dropped without a write, and is still heard afterwards', async () => {
    const sn = testSn('H');
    const c = await connect(sn);
    await c.publishAsync(upTopic(sn, 'hello'), JSON.stringify(hello(sn)), { qos: 1 });
    await waitFor(async () => (await deviceRow(server, sn))?.status === 1, 'the valid hello');
    const before = await deviceRow(server, sn);
    const nul = 'x\u0000y';
    const hostile: [string, string | Buffer][] = [
      // Not JSON, in several ways.
      ['hello', 'not json'],
      ['state', Buffer.from([0x7b, 0x00, 0x7d])],
      ['telemetry', Buffer.from([0xff, 0xfe, 0x00])],
      ['event', ''],
      ['reply', '{"id":'],
      // NUL characters (PostgreSQL refuses them in text and jsonb).
      ['hello', JSON.stringify({ ...hello(sn), firmware: nul })],
      ['event', JSON.stringify({ ...event, id: 'nul', message: nul })],
      ['event', JSON.stringify({ ...event, id: 'nul-data', data: { [nul]: 1 } })],
      ['telemetry', JSON.stringify({ ...telemetry, clients: [{ ...client, name: nul }] })],
      ['reply', JSON.stringify({ id: 'r1', code: 0, message: nul, ts: Date.now() })],
      // Wrong types and values.
      ['hello', JSON.stringify({ ...hello(sn), revision: 'one' })],
      ['hello', JSON.stringify([hello(sn)])],
      ['state', JSON.stringify({ ...state, status: 42 })],
      ['state', JSON.stringify({ ...state, revision: 2 ** 31 })],
      ['telemetry', JSON.stringify({ ...telemetry, cpu: 'high' })],
      ['telemetry', JSON.stringify({ ...telemetry, clientCount: 2 ** 31 })],
      ['event', JSON.stringify({ ...event, id: 'far', ts: 1e300 })],
      ['event', JSON.stringify(null)],
      ['reply', JSON.stringify({ id: 'r2', code: 1.5, ts: Date.now() })],
      // Over the bounds of the protocol (DEVICE_LIMITS).
      ['hello', JSON.stringify({ ...hello(sn), capabilities: Array.from({ length: 65 }, () => 'c') })],
      ['telemetry', JSON.stringify({ ...telemetry, clients: Array.from({ length: 1025 }, () => client) })],
      [
        'event',
        JSON.stringify({
          ...event,
          id: 'deep',
          data: { d: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) },
        }),
      ],
      // A hello that names another device, on its own topic.
      ['hello', JSON.stringify(hello(testSn('O')))],
    ];
    for (const [i, [kind, payload]] of hostile.entries()) {
      await c.publishAsync(upTopic(sn, kind as 'hello'), payload, { qos: 1 });
      // A newer telemetry replaces one not yet written: each one is handled before the next.
      if (kind === 'telemetry') await marker(c, sn, `m-${i}`);
    }
    await marker(c, sn, 'm-last');
    const after = await deviceRow(server, sn);
    expect(after).toMatchObject({
      status: before!.status,
      firmware: '4.2.0',
      capabilities: ['locate'],
      reportedRevision: 0,
      bootId: 'boot-1',
    });
    // None of the telemetry above was written.
    expect(after!.telemetryAt).toBeNull();
    expect((await eventIds(sn)).filter((id) => !id.startsWith('m-'))).toEqual([]);
    expect(await server.database.db.select().from(deviceCommands).where(eq(deviceCommands.sn, sn))).toEqual(
      [],
    );
    // Still heard: a valid telemetry after all that is written.
    await c.publishAsync(upTopic(sn, 'telemetry'), JSON.stringify({ ...telemetry, cpu: 33 }), { qos: 1 });
    await marker(c, sn, 'm-telemetry');
    expect((await deviceRow(server, sn))?.cpu).toBe(33);
    await c.endAsync(true);
  });

  it.skipIf(EXTERNAL_BROKER)(
    "cannot publish on another device's topics: the broker drops it and closes the connection",
    async () => {
      const sn = testSn('H');
      const victim = testSn('V');
      let c = await connect(sn);
      let closed = false;
      c.on('close', () => {
        closed = true;
      });
      for (const kind of ['hello', 'state', 'telemetry', 'event', 'reply'] as const) {
        if (closed) {
          c.end(true);
          c = await connect(sn);
          closed = false;
          c.on('close', () => {
            closed = true;
          });
        }
        const payload =
          kind === 'hello' ? hello(victim) : kind === 'event' ? { ...event, id: `forged-${kind}` } : state;
        c.publish(upTopic(victim, kind), JSON.stringify(payload), { qos: 0 });
        await waitFor(() => closed, `the connection closed after a forged ${kind}`);
      }
      c.end(true);
      c = await connect(sn);
      await marker(c, sn, `after-forged-${sn}`);
      expect(await deviceRow(server, victim)).toBeUndefined();
      expect(await eventIds(victim)).toEqual([]);
      await c.endAsync(true);
    },
  );
});
