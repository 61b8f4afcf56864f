import { type DeviceLink, type SimulatedDevice, startDevice } from '@beacon/agent';
import type { ClientPage } from '@beacon/protocol';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands } from '../src/db/schema.ts';
import { SYSTEM_ACTOR } from '../src/gateway/commands.ts';
import { deviceRow, insertProject, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * The lean device link (packages/agent lean.ts, decision 0063) against the real server, side by side
 * with the agent's mqtt.js link: the same scenario through both must leave the same record. Each
 * device says hello (inventory and firmware recorded), reports state and telemetry (its clients in the
 * client list), answers commands (a locate and a reboot: one successful outcome each, back online with
 * a new hello), reconnects after a network drop, leaves cleanly (DISCONNECT, no will: status 0 from its
 * own state) and, another device, by power cut (the broker publishes its retained last will).
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

async function start(link: 'mqtt' | 'lean', sn: string): Promise<SimulatedDevice> {
  expect(
    (await owner.client.post(`/projects/${projectId}/devices`, { sn, model: 'BA-W1200C' })).body.code,
  ).toBe(0);
  const d = await startDevice({
    url: server.gateway.brokerUrl,
    sn,
    model: 'BA-W1200C',
    factoryKey: server.config.factoryKey,
    timeScale: 0.01,
    telemetryMs: 500,
    backoffMinMs: 100,
    backoffMaxMs: 400,
    keepalive: 5,
    clientEvents: false,
    clients: { population: 6, onlineShare: 1 },
    link,
  });
  running.push(d);
  return d;
}

const linkKind = (l: DeviceLink) => l.constructor.name;

describe.each(['mqtt', 'lean'] as const)('the %s device link against the server', (link) => {
  it('hello, state, telemetry with clients, commands, a dropped connection, leaving', async () => {
    const sn = testSn(link === 'lean' ? 'L' : 'M');
    const d = await start(link, sn);
    expect(linkKind(d.link)).toBe(link === 'lean' ? 'LeanMqttLink' : 'MqttLink');

    // hello and state: the device is online with what it said about itself.
    const row = await waitFor(async () => {
      const r = await deviceRow(server, sn);
      return r?.status === 1 && r.firmware ? r : null;
    }, `${sn} online`);
    expect(row).toMatchObject({ model: 'BA-W1200C', firmware: d.firmware, mac: d.core.options.mac });

    // telemetry: its clients reach the client list (each by MAC, on this device).
    const stations = () =>
      d.core.options.world
        .clientsOf(sn)
        .map((s) => s.mac.toUpperCase())
        .sort();
    await waitFor(
      async () => {
        const page = (
          await owner.client.get<ClientPage>(`/projects/${projectId}/clients?sn=${sn}&pageSize=50`)
        ).body.data;
        const listed = page.items.map((c) => c.mac).sort();
        return listed.length > 0 && JSON.stringify(listed) === JSON.stringify(stations());
      },
      `${sn}'s clients listed`,
      20_000,
    );
    const telemetryAt = (
      await server.database.db.execute<{ at: Date }>(
        sql`select telemetry_at as at from device_state where sn = ${sn}`,
      )
    ).rows[0].at;
    expect(telemetryAt).toBeTruthy();

    // commands: one outcome each, recorded as a success; the reboot brings it back with a new hello
    // (a new boot id).
    const bootOf = async () =>
      (
        await server.database.db.execute<{ b: string | null }>(
          sql`select boot_id as b from device_state where sn = ${sn}`,
        )
      ).rows[0].b;
    const boot = await bootOf();
    expect(await server.gateway.commands.send(sn, 'locate', { seconds: 1 }, SYSTEM_ACTOR)).toMatchObject({
      state: 'success',
      code: 0,
    });
    expect(await server.gateway.commands.send(sn, 'reboot', {}, SYSTEM_ACTOR)).toMatchObject({
      state: 'success',
      code: 0,
    });
    await waitFor(
      async () => (await bootOf()) !== boot && (await deviceRow(server, sn))?.status === 1,
      `${sn} back after the reboot`,
      20_000,
    );
    const rows = await server.database.db.select().from(deviceCommands).where(eq(deviceCommands.sn, sn));
    expect(rows.map((r) => [r.name, r.state, r.code]).sort()).toEqual([
      ['locate', 'success', 0],
      ['reboot', 'success', 0],
    ]);

    // A network failure: the link reconnects by itself and the device answers commands again.
    const before = d.link.connections;
    d.dropConnection();
    await waitFor(() => d.link.connections > before && d.connected, `${sn} reconnected`, 20_000);
    // The dropped connection's last will and the new hello can reach the server in either order
    // (the will is a state, written by the batcher a moment later): the record may show offline for
    // a moment, then the device's own state. Poll with a harmless command until it lands.
    await waitFor(
      async () => (await server.gateway.commands.send(sn, 'led', { on: false }, SYSTEM_ACTOR)).code === 0,
      `${sn} answering commands after the reconnect`,
      20_000,
    );

    // Leaving cleanly: its own last state says offline.
    await d.stop();
    await waitFor(async () => (await deviceRow(server, sn))?.status === 0, `${sn} offline after stop`);
  });

  it('a power cut: the broker publishes the last will and the server records the device offline', async () => {
    const sn = testSn(link === 'lean' ? 'K' : 'J');
    const d = await start(link, sn);
    await waitFor(async () => (await deviceRow(server, sn))?.status === 1, `${sn} online`);
    await d.kill();
    await waitFor(
      async () => (await deviceRow(server, sn))?.status === 0,
      `${sn} offline by its will`,
      20_000,
    );
  });
});
