import type { SimulatedDevice } from '@beacon/agent';
import { upTopic } from '@beacon/protocol';
import { and, eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deviceEvents } from '../src/db/schema.ts';
import { deviceRow, rawDeviceClient, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { capturingLogger, startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Issue 7: device messages that arrive while PostgreSQL refuses the server are kept and written
 * when it is back, in the device's order, instead of being acknowledged and lost.
 */

let server: TestServer;
let admin: pg.Client;
let dbName: string;
const running: SimulatedDevice[] = [];

beforeAll(async () => {
  server = await startTestServer();
  dbName = new URL(server.config.databaseUrl!).pathname.slice(1);
  admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
});
afterAll(async () => {
  await admin?.query(`alter database ${dbName} allow_connections true`).catch(() => {});
  await admin?.end();
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

/** The database goes away for the server: no new connections, and its open ones are ended. */
async function refuseServer(): Promise<void> {
  await admin.query(`alter database ${dbName} allow_connections false`);
  await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [dbName]);
}

async function restoreServer(): Promise<void> {
  await admin.query(`alter database ${dbName} allow_connections true`);
}

describe('device messages during a database outage', () => {
  it('keeps an event and a state that arrive while the database refuses connections, and writes them when it is back', async () => {
    const sn = testSn('D');
    const d = await simulateOnline(server, sn);
    running.push(d);
    // Everything the device said at its start is written before the outage begins.
    await server.gateway.ingest.drain();
    await refuseServer();
    const event = {
      id: `during-outage-${sn}`,
      ts: Date.now(),
      event: 'high-cpu',
      level: 'warning',
      message: 'hot',
    };
    const state = {
      status: 7,
      revision: 0,
      configStatus: 'applied',
      mode: 1,
      operation: null,
      ts: Date.now(),
    };
    try {
      await d.publishRaw(upTopic(sn, 'event'), JSON.stringify(event), 1);
      await d.publishRaw(upTopic(sn, 'state'), JSON.stringify(state), 1);
      // The server took them (the broker has its acknowledgement) and tried to write: they wait.
      await waitFor(() => server.gateway.ingest.stats().retrying > 0, 'a message kept for a retry');
    } finally {
      await restoreServer();
    }
    await waitFor(
      async () => {
        const rows = await server.database.db.select().from(deviceEvents).where(eq(deviceEvents.sn, sn));
        return rows.some((r) => r.eventId === event.id);
      },
      'the event written after the outage',
      15_000,
    );
    await waitFor(
      async () => (await deviceRow(server, sn))?.status === 7,
      'the state written after the outage',
      15_000,
    );
    expect(server.gateway.ingest.stats().retrying).toBe(0);
  });

  it('writes the newest telemetry that arrived during the outage', async () => {
    const sn = testSn('T');
    const c = await rawDeviceClient(server, sn);
    try {
      const hello = {
        sn,
        model: 'BA-W1200C',
        type: 'ap',
        firmware: '4.2.0',
        capabilities: [],
        mac: '02:00:00:00:00:09',
        ip: '10.0.0.9',
        mode: 1,
        revision: 0,
        uptime: 1,
        bootId: 'b',
        protocol: 1,
        ts: Date.now(),
      };
      await c.publishAsync(upTopic(sn, 'hello'), JSON.stringify(hello), { qos: 1 });
      await waitFor(async () => (await deviceRow(server, sn))?.status === 1, 'the hello');
      await server.gateway.ingest.drain();
      const telemetry = (cpu: number) =>
        JSON.stringify({
          ts: Date.now(),
          uptime: 2,
          cpu,
          memory: 5,
          clientCount: 0,
          clients: [],
          led: false,
          locating: false,
        });
      await refuseServer();
      try {
        await c.publishAsync(upTopic(sn, 'telemetry'), telemetry(71), { qos: 1 });
        await waitFor(() => server.gateway.ingest.stats().retrying > 0, 'the telemetry kept for a retry');
        await c.publishAsync(upTopic(sn, 'telemetry'), telemetry(72), { qos: 1 });
      } finally {
        await restoreServer();
      }
      await waitFor(async () => (await deviceRow(server, sn))?.cpu === 72, 'the newest telemetry', 15_000);
    } finally {
      await c.endAsync(true);
    }
  });
  it('logs the messages kept and written again at most once a second, with their numbers', async () => {
    const { logger, lines } = capturingLogger('warn');
    const own = await startTestServer({}, { logger });
    const ownDb = new URL(own.config.databaseUrl!).pathname.slice(1);
    const devices: SimulatedDevice[] = [];
    try {
      for (let i = 0; i < 12; i++) devices.push(await simulateOnline(own, testSn('L')));
      await own.gateway.ingest.drain();
      await admin.query(`alter database ${ownDb} allow_connections false`);
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [ownDb]);
      for (const d of devices) d.incident('upgrade-failed');
      await waitFor(() => own.gateway.ingest.stats().retrying >= 12 || null, 'the 12 events kept');
      await admin.query(`alter database ${ownDb} allow_connections true`);
      const sns = devices.map((d) => d.sn);
      await waitFor(
        async () => {
          const stored = await own.database.db
            .select({ sn: deviceEvents.sn })
            .from(deviceEvents)
            .where(and(inArray(deviceEvents.sn, sns), eq(deviceEvents.event, 'upgrade-failed')));
          return stored.length === 12 || null;
        },
        'the 12 events written',
        15_000,
      );
      // The last second's count is logged when that second ends.
      const writtenLines = () =>
        lines.filter((l) => l.msg === 'mqtt: message written after the database came back');
      await waitFor(
        () => writtenLines().reduce((n, l) => n + Number(l.written), 0) === 12 || null,
        () => `the 12 written logged: ${JSON.stringify(writtenLines())}`,
        5_000,
      );
      const kept = lines.filter((l) => l.msg === 'mqtt: database unavailable; message kept for a retry');
      const written = writtenLines();
      // Twelve messages, one line each before: a storm's 500-message batch was 500 lines.
      expect(kept.length).toBeGreaterThanOrEqual(1);
      expect(kept.length).toBeLessThan(4);
      expect(written.length).toBeGreaterThanOrEqual(1);
      expect(written.length).toBeLessThan(4);
      expect(written[0]).toMatchObject({ written: expect.any(Number), kind: 'event' });
    } finally {
      await admin.query(`alter database ${ownDb} allow_connections true`).catch(() => {});
      await Promise.all(devices.map((d) => d.stop().catch(() => {})));
      await own.close();
    }
  }, 60_000);
});
