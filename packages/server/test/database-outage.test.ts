import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SimulatedDevice } from '@beacon/agent';
import type { LiveEvent } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  type EmbeddedDatabase,
  startEmbeddedPostgres,
  startEmbeddedPostgresOnFreePort,
} from '../src/db/embedded.ts';
import { deviceCommands } from '../src/db/schema.ts';
import { SYSTEM_ACTOR } from '../src/gateway/commands.ts';
import { insertProject, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * A real PostgreSQL outage: the server runs on a PostgreSQL of its own (embedded, so this file can
 * stop and start it without disturbing the other test files), which is stopped and started again
 * while the server keeps running.
 */

let dir: string;
let pgDir: string;
let port: number;
let embedded: EmbeddedDatabase;
let server: TestServer;
const devices: SimulatedDevice[] = [];
const sockets: WebSocket[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-outage-'));
  // The postgres system user (when the tests run as root) must be able to enter it.
  fs.chmodSync(dir, 0o755);
  pgDir = path.join(dir, 'pg');
  embedded = await startEmbeddedPostgresOnFreePort(pgDir);
  port = Number(new URL(embedded.url).port);
  server = await startTestServer({ DATABASE_URL: embedded.url });
});

afterAll(async () => {
  for (const s of sockets) s.terminate();
  await Promise.all(devices.map((d) => d.stop().catch(() => {})));
  await server?.close();
  await embedded?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Socket {
  socket: WebSocket;
  events: LiveEvent[];
  closed: Promise<number>;
}

/** Opens /api/v1/events as the account's browser; resolves after `hello`, rejects on an HTTP answer. */
function listen(account: TestAccount): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/api/v1/events`, {
      headers: { cookie: `token=${account.client.cookieToken}` },
    });
    sockets.push(socket);
    const events: LiveEvent[] = [];
    const closed = new Promise<number>((done) => socket.on('close', (code) => done(code)));
    socket.on('message', (data) => {
      const event = JSON.parse(String(data)) as LiveEvent;
      events.push(event);
      if (event.type === 'hello') resolve({ socket, events, closed });
    });
    socket.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.on('error', reject);
  });
}

const statuses = (s: Socket, sn: string) =>
  s.events.flatMap((e) => (e.type === 'device.status' && e.sn === sn ? [e.status] : []));

describe('a PostgreSQL restart', () => {
  it('answers 503 (5) meanwhile, then recovers: requests, live events and device messages', async () => {
    const owner = await createAccount(server);
    const projectId = await insertProject(server, owner.id);
    const sn = testSn('O');
    devices.push(await simulateOnline(server, sn));
    expect((await owner.client.post(`/projects/${projectId}/devices`, { sn })).body.code).toBe(0);
    const before = await listen(owner);
    expect((await owner.client.get('/health')).status).toBe(200);

    await embedded.stop();

    // The socket opened before the outage is closed (1012) so the browser reconnects and refetches.
    expect(await before.closed).toBe(1012);
    const during = await owner.client.get(`/projects/${projectId}/devices`);
    expect(during.status).toBe(503);
    expect(during.body.code).toBe(5);
    expect(during.headers.get('retry-after')).toBe('5');
    const health = await owner.client.get('/health');
    expect(health.status).toBe(503);
    expect(health.body.code).toBe(5);
    expect(health.body.fields).toMatchObject({ database: 'down', events: 'down', broker: 'up' });
    // Names and states only: no addresses, versions or error texts.
    expect(health.body.message).toBe('Database error');
    expect(Object.values(health.body.fields ?? {}).every((v) => v === 'up' || v === 'down')).toBe(true);
    await expect(listen(owner)).rejects.toThrow('HTTP 503');
    // Readiness names what is down; liveness and the metrics scrape still answer (docs/decisions/0064).
    const readyz = await fetch(`${server.url}/readyz`);
    expect(readyz.status).toBe(503);
    expect(await readyz.json()).toMatchObject({
      status: 'not ready',
      down: ['database', 'events'],
      broker: 'up',
    });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const scrape = await fetch(`${server.url}/metrics`);
    expect(scrape.status).toBe(200);
    expect(await scrape.text()).toMatch(/^beacon_events_listener_up 0$/m);

    embedded = await startEmbeddedPostgres(pgDir, port);

    // No restart of the server: it finds the database again by itself.
    await waitFor(async () => (await owner.client.get('/health')).status === 200, 'health 200', 20_000);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const list = await owner.client.get<{ items: { sn: string }[] }>(`/projects/${projectId}/devices`);
    expect(list.status).toBe(200);
    expect(list.body.data.items.map((d) => d.sn)).toEqual([sn]);

    // A socket opened after the outage hears what the device does now.
    const after = await listen(owner);
    const outcome = await server.gateway.commands.send(sn, 'reboot', {}, SYSTEM_ACTOR);
    expect(outcome.code).toBe(0);
    await waitFor(
      () => statuses(after, sn).includes(8) && statuses(after, sn).at(-1) === 1,
      'the reboot (8, then 1) on the new socket',
      20_000,
    );
    const detail = await owner.client.get<{ status: number }>(`/projects/${projectId}/devices/${sn}`);
    expect(detail.body.data.status).toBe(1);
  });

  it('a save during the outage answers 503 at once; a command whose deadline passes meanwhile answers its caller and is settled once', async () => {
    const owner = await createAccount(server);
    const projectId = await insertProject(server, owner.id);
    const sn = testSn('O');
    const device = await simulateOnline(server, sn);
    devices.push(device);
    // Acknowledged before the outage.
    expect((await owner.client.post(`/projects/${projectId}/devices`, { sn })).body.code).toBe(0);
    // The device stays online but no longer answers: its command can only end by its deadline.
    device.link.pauseListening();
    const pending = server.gateway.commands.send(sn, 'locate', { seconds: 1 }, SYSTEM_ACTOR, {
      timeoutMs: 3000,
    });
    const rowsOf = () => server.database.db.select().from(deviceCommands).where(eq(deviceCommands.sn, sn));
    await waitFor(async () => (await rowsOf()).some((r) => r.state === 'sent'), 'the command claimed');

    await embedded.stop();
    try {
      // An administrator's save meanwhile: a clear 503 (5), in bounded time.
      const t0 = Date.now();
      const save = await owner.client.post(`/projects/${projectId}/devices`, { sn: testSn('O') });
      expect(save.status).toBe(503);
      expect(save.body.code).toBe(5);
      expect(Date.now() - t0).toBeLessThan(5000);
      // The deadline passes while the timeout cannot be written: the caller is answered anyway.
      const outcome = await Promise.race([
        pending,
        new Promise<'hung'>((r) => setTimeout(() => r('hung'), 8000)),
      ]);
      expect(outcome).toMatchObject({ state: 'timeout', code: 5025 });
    } finally {
      embedded = await startEmbeddedPostgres(pgDir, port);
    }

    await waitFor(async () => (await owner.client.get('/health')).status === 200, 'health 200', 20_000);
    // The row left `sent` by the failed write is settled by the sweeper: exactly one outcome.
    await waitFor(
      async () => (await rowsOf()).every((r) => r.state !== 'sent'),
      'no command left sent',
      20_000,
    );
    const rows = await rowsOf();
    expect(rows.map((r) => [r.name, r.state, r.code])).toEqual([['locate', 'timeout', 5025]]);
    // The save acknowledged before the outage is stored; the refused one is not.
    const list = await owner.client.get<{ items: { sn: string }[] }>(`/projects/${projectId}/devices`);
    expect(list.body.data.items.map((d) => d.sn)).toEqual([sn]);
    device.link.resumeListening();
  }, 90_000);
});
