import { DeviceStatus, upTopic } from '@beacon/protocol';
import type mqtt from 'mqtt';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { deviceRow, rawDeviceClient, testSn, waitFor } from './devices.helpers.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Issue 16, reconnect storm: a device's state write locks its rows while a telemetry batch of the
 * same device holds its state row and inserts a row that references the device (a new client, its
 * first link row). The foreign key's check takes a KEY SHARE lock on the device row. With the state
 * write holding that row FOR UPDATE the two waited on each other: PostgreSQL killed one, and after
 * four deadlocks in a row a batch of 1,000 offline states was dropped (bench/fleet, 10,000 devices).
 * The state write now takes FOR NO KEY UPDATE (it never changes an SN), which a key share does not
 * wait for. Played here with the telemetry side as a connection of the test's own.
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

describe('device row locks', () => {
  it('a state write does not block a row that references the device (no deadlock with telemetry)', async () => {
    const sn = testSn('K');
    const c = await rawDeviceClient(server, sn);
    clients.push(c);
    const t0 = Date.now();
    const hello = {
      sn,
      model: 'BA-W1200C',
      type: 'ap',
      firmware: '4.2.0',
      capabilities: ['wifi'],
      mac: '02:00:00:00:00:41',
      ip: '10.0.0.41',
      mode: 1,
      revision: 0,
      uptime: 1,
      bootId: 'boot-1',
      protocol: 1,
      connectedAt: t0,
      ts: t0,
    };
    await c.publishAsync(upTopic(sn, 'hello'), JSON.stringify(hello), { qos: 1 });
    await waitFor(async () => (await deviceRow(server, sn))?.status === DeviceStatus.ONLINE, 'online');

    // The "telemetry batch": it holds the device's state row, as lockPrevious does.
    const telemetry = await server.database.pool.connect();
    try {
      await telemetry.query('begin');
      await telemetry.query('select sn from device_state where sn = $1 for update', [sn]);
      const { rows } = await telemetry.query<{ pid: number }>('select pg_backend_pid() as pid');
      const pid = rows[0].pid;

      // The device's state write locks its rows and waits for the state row.
      const state = {
        status: DeviceStatus.ONLINE_NOT_SAVED,
        revision: 0,
        configStatus: 'applied',
        mode: 1,
        operation: null,
        ts: t0 + 1000,
      };
      await c.publishAsync(upTopic(sn, 'state'), JSON.stringify(state), { qos: 1 });
      await waitFor(async () => {
        const { rows: waiting } = await server.database.pool.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where $1 = any(pg_blocking_pids(pid))',
          [pid],
        );
        return waiting[0].n > 0;
      }, 'the state write waiting for the state row');

      // The batch goes on: its first link row for the device checks the device row (KEY SHARE).
      // Under the state write's old FOR UPDATE this waited (a deadlock); 500 ms is under
      // deadlock_timeout, so a wait shows as a lock timeout here rather than a victim.
      await telemetry.query(`set local lock_timeout = '500ms'`);
      await telemetry.query(
        `insert into device_links (sn, links, hash, reported_at) values ($1, '[]'::jsonb, 'test', now())`,
        [sn],
      );
      await telemetry.query('commit');
    } catch (err) {
      await telemetry.query('rollback').catch(() => {});
      throw err;
    } finally {
      telemetry.release();
    }

    // And the state write, no longer waiting, is stored.
    await waitFor(
      async () => (await deviceRow(server, sn))?.status === DeviceStatus.ONLINE_NOT_SAVED,
      'the state written',
    );
  });
});
