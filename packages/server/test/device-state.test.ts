import type { SimulatedDevice } from '@beacon/agent';
import { type DeviceDetailView, lastWillPayload, upTopic } from '@beacon/protocol';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../src/db/schema.ts';
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
 * Reported state lives apart from the inventory (docs/decisions/0031): what a device sends —
 * telemetry every few seconds, its state, a hello after a reconnect — must not rewrite its
 * `devices` row. PostgreSQL gives every new row version a new xmin, so an unchanged xmin is proof
 * that no statement wrote the row.
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
const running: SimulatedDevice[] = [];

beforeAll(async () => {
  server = await startTestServer();
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

async function inventoryVersion(sn: string): Promise<string> {
  const result = await server.database.db.execute<{ v: string }>(
    sql`select xmin::text as v from ${devices} where ${devices.sn} = ${sn}`,
  );
  return (result as unknown as { rows: { v: string }[] }).rows[0].v;
}

async function view(sn: string): Promise<DeviceDetailView> {
  const res = await owner.client.get<DeviceDetailView>(`/projects/${projectId}/devices/${sn}`);
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data;
}

describe('device state apart from inventory', () => {
  it('telemetry, state and a reconnect leave the devices row as it was, and the views still show them', async () => {
    const sn = testSn('S');
    const device = await simulateOnline(server, sn, { model: 'BS-S1008P' });
    running.push(device);
    await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
    const first = await waitFor(async () => (await view(sn)).telemetryAt, 'a telemetry');
    const before = await inventoryVersion(sn);

    // Telemetry written since (the simulator sends one every 500 ms).
    const later = await waitFor(async () => {
      const t = (await view(sn)).telemetryAt;
      return t && t > first ? t : null;
    }, 'a later telemetry');
    // A lost connection: the last will (state, offline), then a hello and state when it is back.
    const collector = await EventCollector.start(server);
    try {
      device.dropConnection();
      await waitFor(() => {
        const seen = collector.statuses(sn);
        return seen.includes(0) && seen.at(-1) === 1;
      }, 'offline, then online again');
    } finally {
      await collector.stop();
    }
    const back = await waitFor(async () => {
      const v = await view(sn);
      return v.telemetryAt && v.telemetryAt > later && v.status === 1 ? v : null;
    }, 'telemetry after the reconnect');

    expect(await inventoryVersion(sn)).toBe(before);
    expect(back).toMatchObject({ sn, model: 'BS-S1008P', status: 1, portCount: 10 });
    expect(back.lastSeenAt! >= back.telemetryAt!).toBe(true);
    const list = await owner.client.get<{ items: { sn: string; status: number }[] }>(
      `/projects/${projectId}/devices?status=online&sort=ip`,
    );
    expect(list.body.data.items.map((d) => [d.sn, d.status])).toEqual([[sn, 1]]);
  });

  it('a last will of an earlier connection, delivered after the reconnect, leaves the device online', async () => {
    const sn = testSn('W');
    const device = await simulateOnline(server, sn, { model: 'BA-W1200C' });
    running.push(device);
    await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
    const row = await waitFor(async () => {
      const r = await deviceRow(server, sn);
      return r?.status === 1 && r.connectedAt ? r : null;
    }, 'online with the hello of its connection');
    const connectedAt = row.connectedAt!.getTime();
    const topic = upTopic(sn, 'state');
    await waitFor(async () => (await view(sn)).telemetryAt, 'a first telemetry');
    // The broker hands over the will of the connection before this one only now.
    await device.publishRaw(topic, JSON.stringify(lastWillPayload(connectedAt - 5_000)));
    // Two telemetry reports later the will has been read (the device reports every 500 ms).
    const seen = (await view(sn)).telemetryAt!;
    const next = await waitFor(async () => {
      const t = (await view(sn)).telemetryAt;
      return t && t > seen ? t : null;
    }, 'a telemetry after the stale will');
    await waitFor(async () => {
      const t = (await view(sn)).telemetryAt;
      return t && t > next ? t : null;
    }, 'a second telemetry after the stale will');
    expect((await deviceRow(server, sn))?.status).toBe(1);
    // The will of the connection it is on now is believed.
    await device.publishRaw(topic, JSON.stringify(lastWillPayload(connectedAt)));
    await waitFor(async () => (await deviceRow(server, sn))?.status === 0, 'offline by its own will');
  });

  it('an administrator renaming the device writes the inventory row', async () => {
    const sn = testSn('R');
    running.push(await simulateOnline(server, sn, { model: 'BA-W1200C' }));
    await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
    const before = await inventoryVersion(sn);
    const res = await owner.client.patch(`/projects/${projectId}/devices/${sn}`, { name: 'Lobby' });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    expect(await inventoryVersion(sn)).not.toBe(before);
    expect((await view(sn)).name).toBe('Lobby');
  });
});
