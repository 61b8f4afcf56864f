import { DEVICE_LIMITS, DeviceStatus, lastWillPayload, upTopic } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import type mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceEvents } from '../src/db/schema.ts';
import { deviceRow, rawDeviceClient, testSn, waitFor } from './devices.helpers.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Issue 16, per-device message order across instances: two instances splitting a device's traffic
 * (shared subscription) may handle a state or telemetry after a newer one. The write drops it by
 * the device's `ts` (docs/decisions/0065). Out-of-order arrival is produced here by the device
 * itself publishing the older message last: the check is in the write (SQL and row lock), so it is
 * the same whichever instance handles which message.
 */

let server: TestServer;
const clients: mqtt.MqttClient[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true).catch(() => {})));
  await server?.close();
});

async function deviceClient(sn: string): Promise<mqtt.MqttClient> {
  const c = await rawDeviceClient(server, sn);
  clients.push(c);
  return c;
}

const hello = (sn: string, ts: number, bootId: string, uptime = 1) => ({
  sn,
  model: 'BA-W1200C',
  type: 'ap',
  firmware: '4.2.0',
  capabilities: ['wifi'],
  mac: '02:00:00:00:00:31',
  ip: '10.0.0.31',
  mode: 1,
  revision: 0,
  uptime,
  bootId,
  protocol: 1,
  connectedAt: ts,
  ts,
});

const state = (status: number, ts: number) => ({
  status,
  revision: 0,
  configStatus: 'applied',
  mode: 1,
  operation: null,
  ts,
});

const telemetry = (cpu: number, ts: number) => ({
  ts,
  uptime: 100,
  cpu,
  memory: 20,
  clientCount: 0,
  clients: [],
  led: false,
  locating: false,
});

async function publish(c: mqtt.MqttClient, sn: string, kind: 'hello' | 'state' | 'telemetry', m: object) {
  await c.publishAsync(upTopic(sn, kind), JSON.stringify(m), { qos: 1 });
}

/** An event published after the messages before it, handled after them (the device's lane). */
async function marker(c: mqtt.MqttClient, sn: string, id: string): Promise<void> {
  const event = { id, ts: Date.now(), event: 'booted', level: 'info', message: 'marker' };
  await c.publishAsync(upTopic(sn, 'event'), JSON.stringify(event), { qos: 1 });
  await waitFor(async () => {
    const rows = await server.database.db.select().from(deviceEvents).where(eq(deviceEvents.sn, sn));
    return rows.some((r) => r.eventId === id);
  }, `marker ${id}`);
}

/** A telemetry of the device written with this cpu and ts (telemetry is not queued behind events). */
async function telemetryStored(sn: string, cpu: number, ts: number): Promise<void> {
  await waitFor(async () => {
    const row = await deviceRow(server, sn);
    return row?.cpu === cpu && row.telemetryTs === ts;
  }, `telemetry cpu ${cpu}`);
}

describe('per-device message order', () => {
  it('drops a state and a telemetry older than the newest of their kind, and counts them stale', async () => {
    const sn = testSn('O');
    const c = await deviceClient(sn);
    const t0 = Date.now();
    await publish(c, sn, 'hello', hello(sn, t0, 'boot-1'));
    await waitFor(async () => (await deviceRow(server, sn))?.status === DeviceStatus.ONLINE, 'online');
    const { stale: staleBefore, dropped: droppedBefore } = server.gateway.ingest.stats();

    // The newer state changes nothing (online already): only its ts is stored, and still counts.
    await publish(c, sn, 'state', state(DeviceStatus.ONLINE, t0 + 2000));
    await publish(c, sn, 'state', state(DeviceStatus.ONLINE_NOT_SAVED, t0 + 1000));
    await marker(c, sn, `order-1-${sn}`);
    let row = await deviceRow(server, sn);
    expect(row?.status).toBe(DeviceStatus.ONLINE);
    expect(row?.stateTs).toBe(t0 + 2000);

    // A newer state that changes something, then an older one.
    await publish(c, sn, 'state', state(DeviceStatus.ONLINE_NOT_SAVED, t0 + 4000));
    await publish(c, sn, 'state', state(DeviceStatus.ONLINE, t0 + 3000));
    await marker(c, sn, `order-2-${sn}`);
    row = await deviceRow(server, sn);
    expect(row?.status).toBe(DeviceStatus.ONLINE_NOT_SAVED);
    expect(row?.stateTs).toBe(t0 + 4000);
    expect(server.gateway.ingest.stats().stale - staleBefore).toBe(2);

    // Telemetry: the newer one written, then an older one arrives.
    await publish(c, sn, 'telemetry', telemetry(50, t0 + 3000));
    await telemetryStored(sn, 50, t0 + 3000);
    await publish(c, sn, 'telemetry', telemetry(10, t0 + 2500));
    await waitFor(
      () => server.gateway.ingest.stats().stale - staleBefore === 3,
      'the older telemetry dropped',
    );
    row = await deviceRow(server, sn);
    expect(row?.cpu).toBe(50);
    expect(row?.telemetryTs).toBe(t0 + 3000);

    // The stale ones were not refused as errors (nothing counted dropped for them).
    expect(server.gateway.ingest.stats().dropped).toBe(droppedBefore);
    const metrics = await fetch(`${server.url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/^beacon_ingest_stale_total [1-9]/m);
  });

  it("drops a hello of an earlier connection of the same boot, so that connection's will is ignored", async () => {
    // What a JetStream consumer does after an instance died holding messages, or its leader moved:
    // the first connection's hello and will come again after the second connection's hello.
    const sn = testSn('H');
    const c = await deviceClient(sn);
    const t0 = Date.now();
    await publish(c, sn, 'hello', hello(sn, t0, 'boot-1', 10));
    await publish(c, sn, 'hello', hello(sn, t0 + 5000, 'boot-1', 15));
    await marker(c, sn, `hello-1-${sn}`);
    expect((await deviceRow(server, sn))?.connectedAt?.getTime()).toBe(t0 + 5000);
    const { stale: staleBefore } = server.gateway.ingest.stats();

    await publish(c, sn, 'hello', hello(sn, t0, 'boot-1', 10));
    await publish(c, sn, 'state', lastWillPayload(t0));
    await marker(c, sn, `hello-2-${sn}`);
    let row = await deviceRow(server, sn);
    expect(row?.connectedAt?.getTime()).toBe(t0 + 5000);
    expect(row?.status).toBe(DeviceStatus.ONLINE);
    expect(server.gateway.ingest.stats().stale - staleBefore).toBe(1);

    // The will of the connection the row holds is taken: the device is offline.
    await publish(c, sn, 'state', lastWillPayload(t0 + 5000));
    await waitFor(async () => (await deviceRow(server, sn))?.status === DeviceStatus.OFFLINE, 'offline');

    // Same boot, the clock set back 20 s (NTP) before it reconnects: the uptime says it is later.
    await publish(c, sn, 'hello', hello(sn, t0 - 20_000, 'boot-1', 40));
    await waitFor(async () => (await deviceRow(server, sn))?.status === DeviceStatus.ONLINE, 'online again');
    row = await deviceRow(server, sn);
    expect(row?.connectedAt?.getTime()).toBe(t0 - 20_000);
    expect(server.gateway.ingest.stats().stale - staleBefore).toBe(1);

    // A firmware that keeps its bootId across a reboot: the uptime starts again, the connection is
    // later. Dropped, the device would stay offline while it reports.
    await publish(c, sn, 'state', lastWillPayload(t0 - 20_000));
    await waitFor(async () => (await deviceRow(server, sn))?.status === DeviceStatus.OFFLINE, 'offline 2');
    await publish(c, sn, 'hello', hello(sn, t0 + 60_000, 'boot-1', 3));
    await waitFor(async () => (await deviceRow(server, sn))?.status === DeviceStatus.ONLINE, 'online 2');
    row = await deviceRow(server, sn);
    expect(row?.connectedAt?.getTime()).toBe(t0 + 60_000);
    expect(row?.helloUptime).toBe(3);
    expect(server.gateway.ingest.stats().stale - staleBefore).toBe(1);
  });

  it("takes a new connection's hello written after that connection's telemetry (a higher uptime)", async () => {
    // Telemetry is batched apart from hellos and may be written first; it keeps `uptime` current,
    // so the hello's order is its own column (hello_uptime), not the row's uptime.
    const sn = testSn('J');
    const c = await deviceClient(sn);
    const t0 = Date.now();
    await publish(c, sn, 'hello', hello(sn, t0, 'boot-1', 10));
    await marker(c, sn, `j-1-${sn}`);
    await publish(c, sn, 'telemetry', { ...telemetry(5, t0 + 6000), uptime: 51 });
    await waitFor(async () => (await deviceRow(server, sn))?.uptime === 51, 'telemetry written');
    const { stale: staleBefore } = server.gateway.ingest.stats();
    await publish(c, sn, 'hello', hello(sn, t0 + 5000, 'boot-1', 50));
    await marker(c, sn, `j-2-${sn}`);
    const row = await deviceRow(server, sn);
    expect(row?.connectedAt?.getTime()).toBe(t0 + 5000);
    expect(row?.helloUptime).toBe(50);
    expect(server.gateway.ingest.stats().stale - staleBefore).toBe(0);
    // That connection's will is taken; the first connection's is not (checked above).
    await publish(c, sn, 'state', lastWillPayload(t0 + 5000));
    await waitFor(async () => (await deviceRow(server, sn))?.status === DeviceStatus.OFFLINE, 'offline');
  });

  it('takes a rebooted device with an earlier clock, and a clock set back beyond the window', async () => {
    const sn = testSn('P');
    let c = await deviceClient(sn);
    const t0 = Date.now();
    await publish(c, sn, 'hello', hello(sn, t0, 'boot-1'));
    await publish(c, sn, 'state', state(DeviceStatus.ONLINE_NOT_SAVED, t0 + 1000));
    await publish(c, sn, 'telemetry', telemetry(50, t0 + 1000));
    await telemetryStored(sn, 50, t0 + 1000);
    await marker(c, sn, `reboot-0-${sn}`);
    expect((await deviceRow(server, sn))?.status).toBe(DeviceStatus.ONLINE_NOT_SAVED);

    // It reboots; its clock now reads 10 s earlier than its last messages (within the window).
    await c.endAsync(true);
    c = await deviceClient(sn);
    const t1 = t0 - 10_000;
    await publish(c, sn, 'hello', hello(sn, t1, 'boot-2'));
    await publish(c, sn, 'state', state(DeviceStatus.ONLINE, t1 + 500));
    await publish(c, sn, 'telemetry', telemetry(20, t1 + 500));
    await telemetryStored(sn, 20, t1 + 500);
    await marker(c, sn, `reboot-1-${sn}`);
    let row = await deviceRow(server, sn);
    expect(row?.status).toBe(DeviceStatus.ONLINE);
    expect(row?.stateTs).toBe(t1 + 500);

    // Within one connection, a clock set back by more than the window is believed.
    const back = t1 + 500 - DEVICE_LIMITS.STALE_WINDOW_MS - 1000;
    await publish(c, sn, 'state', state(DeviceStatus.ONLINE_NOT_SAVED, back));
    await publish(c, sn, 'telemetry', telemetry(30, back));
    await telemetryStored(sn, 30, back);
    await marker(c, sn, `reboot-2-${sn}`);
    row = await deviceRow(server, sn);
    expect(row?.status).toBe(DeviceStatus.ONLINE_NOT_SAVED);
    expect(row?.stateTs).toBe(back);
  });
});
