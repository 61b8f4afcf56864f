import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SimulatedDevice } from '@beacon/agent';
import { type ActionResultView, type LiveEvent, serverUpFilter } from '@beacon/protocol';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { freePort } from '../src/db/embedded.ts';
import { deviceCommands, devices, jobs, projectMembers } from '../src/db/schema.ts';
import { publishEvent } from '../src/events/bus.ts';
import { scheduleJob } from '../src/jobs/runner.ts';
import { insertProject, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startSecondInstance, startTestServer, type TestServer } from './helpers/harness.ts';
import { listening } from './helpers/ports.ts';

/**
 * Issue 16: two server instances on one PostgreSQL and one broker, in one shared-subscription group
 * (docs/decisions/0065). Aedes ignores `$share`, so this needs a real broker: MQTT_URL (CI's
 * Mosquitto), else a private Mosquitto; skipped only where no `mosquitto` binary exists.
 */

const HAS_MOSQUITTO = !spawnSync('mosquitto', ['-h']).error;
const EXTERNAL = Boolean(process.env.MQTT_URL);

let a: TestServer;
let b: TestServer;
let owner: TestAccount;
let projectId: number;
let broker: ChildProcess | null = null;
let dir: string | null = null;
const running: SimulatedDevice[] = [];
const sockets: WebSocket[] = [];

async function brokerUrl(): Promise<string> {
  if (process.env.MQTT_URL) return process.env.MQTT_URL;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-two-instances-'));
  const port = await freePort();
  fs.writeFileSync(
    path.join(dir, 'mosquitto.conf'),
    `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_type error\n`,
  );
  broker = spawn('mosquitto', ['-c', path.join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
  await waitFor(() => listening(port), 'mosquitto listening');
  return `mqtt://127.0.0.1:${port}`;
}

/** The filter of the instances' shared subscription (gateway.ts). */
const shareFilter = (server: TestServer) => `$share/${server.config.mqttShareGroup}/${serverUpFilter()}`;

/** The server link's MQTT client (test-only reach into the link, to steer the shared subscription). */
function mqttOf(server: TestServer) {
  return (
    server.gateway.link as unknown as {
      client: {
        unsubscribeAsync(f: string): Promise<unknown>;
        subscribeAsync(f: string, o: object): Promise<unknown>;
      };
    }
  ).client;
}

/** Takes `server` out of the share group: every device message of the group then goes to the other one. */
async function leaveGroup(server: TestServer): Promise<void> {
  await mqttOf(server).unsubscribeAsync(shareFilter(server));
}
async function joinGroup(server: TestServer): Promise<void> {
  await mqttOf(server).subscribeAsync(shareFilter(server), { qos: 1 });
}

async function device(): Promise<SimulatedDevice> {
  const sn = testSn('I');
  const d = await simulateOnline(a, sn, { model: 'BA-W1200C', timeScale: 0.01 });
  running.push(d);
  await a.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
  return d;
}

interface Socket {
  events: LiveEvent[];
}

function listen(server: TestServer, cookieToken: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/api/v1/events`, {
      headers: { cookie: `token=${cookieToken}` },
    });
    sockets.push(socket);
    const events: LiveEvent[] = [];
    socket.on('message', (data) => {
      const event = JSON.parse(String(data)) as LiveEvent;
      events.push(event);
      if (event.type === 'hello') resolve({ events });
    });
    socket.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.on('error', reject);
  });
}

describe.skipIf(!EXTERNAL && !HAS_MOSQUITTO)('two instances, one database, one share group', () => {
  beforeAll(async () => {
    const url = await brokerUrl();
    a = await startTestServer({
      MQTT_URL: url,
      MQTT_SHARE_GROUP: `t${randomBytes(4).toString('hex')}`,
      COMMAND_TIMEOUT_MS: '5000',
      JOB_POLL_MS: '50',
    });
    b = await startSecondInstance(a);
    owner = await createAccount(a);
    projectId = await insertProject(a, owner.id);
  }, 30_000);

  afterAll(async () => {
    for (const s of sockets) s.terminate();
    await Promise.all(running.map((d) => d.stop().catch(() => {})));
    await b?.close();
    await a?.close();
    if (broker && broker.exitCode === null) {
      const exited = new Promise((r) => broker!.once('exit', r));
      broker.kill('SIGTERM');
      await exited;
    }
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a command sent through A whose reply reaches B ends in exactly one outcome, and A’s caller gets it', async () => {
    const ap = await device();
    await leaveGroup(a);
    try {
      for (let i = 0; i < 3; i++) {
        const res = await owner.client.post<ActionResultView>(
          `/projects/${projectId}/devices/${ap.sn}/actions/locate`,
          { seconds: 5 },
        );
        expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 0, data: { code: 0 } });
        const id = res.body.data.commandId!;
        const rows = await a.database.db.select().from(deviceCommands).where(eq(deviceCommands.id, id));
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ state: 'success', code: 0 });
      }
    } finally {
      await joinGroup(a);
    }
  });

  it('a WebSocket on B sees a rename made on A and a status change ingested by A', async () => {
    const ap = await device();
    const socket = await listen(b, owner.client.cookieToken!);
    const renamed = await owner.client.patch(`/projects/${projectId}/devices/${ap.sn}`, { name: 'Lobby AP' });
    expect(renamed.body.code).toBe(0);
    await waitFor(
      () => socket.events.some((e) => e.type === 'device.changed' && e.sn === ap.sn),
      'the rename on B',
    );
    // B out of the group: the device's messages reach A alone; A records the status, B's socket hears it.
    await leaveGroup(b);
    try {
      await ap.stop();
      await waitFor(
        () => socket.events.some((e) => e.type === 'device.status' && e.sn === ap.sn && e.status === 0),
        'the offline status on B',
      );
    } finally {
      await joinGroup(b);
    }
  });

  it('a share revoked on A stops the member’s live events on A and on B', async () => {
    const member = await createAccount(a);
    const shared = await insertProject(a, owner.id);
    const membersOwn = await insertProject(a, member.id);
    await a.database.db
      .insert(projectMembers)
      .values({ projectId: shared, accountId: member.id, permission: 'rw', acceptedAt: new Date() });
    const sn = testSn('S');
    running.push(await simulateOnline(a, sn));
    await a.database.db.update(devices).set({ projectId: shared }).where(eq(devices.sn, sn));
    const onA = await listen(a, member.client.cookieToken!);
    const onB = await listen(b, member.client.cookieToken!);
    const changes = (s: Socket) => s.events.filter((e) => e.type === 'device.changed' && e.sn === sn).length;

    expect(
      (await owner.client.patch(`/projects/${shared}/devices/${sn}`, { remark: 'first' })).body.code,
    ).toBe(0);
    await waitFor(() => changes(onA) === 1 && changes(onB) === 1, 'the member sees the change on A and B');

    expect((await owner.client.delete(`/projects/${shared}/shares/${member.id}`)).body.code).toBe(0);
    expect(
      (await owner.client.patch(`/projects/${shared}/devices/${sn}`, { remark: 'second' })).body.code,
    ).toBe(0);
    // A marker of the member's own project, published after the second change: once both sockets
    // have it, the second change would have arrived before it.
    const marker = `MARK${randomBytes(6).toString('hex').toUpperCase()}`;
    await publishEvent(a.database.db, {
      type: 'device.changed',
      projectId: membersOwn,
      sn: marker,
      change: 'updated',
      at: new Date().toISOString(),
    });
    const marked = (s: Socket) => s.events.some((e) => e.type === 'device.changed' && e.sn === marker);
    await waitFor(() => marked(onA) && marked(onB), 'the marker on A and B');
    expect(changes(onA)).toBe(1);
    expect(changes(onB)).toBe(1);
  });

  it('every durable job runs once with both instances polling', async () => {
    const kind = `test-once-${randomBytes(3).toString('hex')}`;
    const runs = new Map<string, string[]>();
    for (const [name, server] of [
      ['A', a],
      ['B', b],
    ] as const) {
      server.jobs.register(kind, async ({ job }) => {
        const key = String((job.payload as { n: number }).n);
        runs.set(key, [...(runs.get(key) ?? []), name]);
        // Long enough that the other instance polls while this one holds the job.
        await new Promise((r) => setTimeout(r, 5));
      });
    }
    const at = a.clock.now();
    const N = 60;
    for (let n = 0; n < N; n++) await scheduleJob(a.database.db, { kind, payload: { n }, runAt: at });
    await waitFor(
      async () =>
        (
          await a.database.db
            .select()
            .from(jobs)
            .where(inArray(jobs.kind, [kind]))
        ).length === 0,
      'every job done',
      20_000,
    );
    expect(runs.size).toBe(N);
    for (const [, by] of runs) expect(by).toHaveLength(1);
    const byA = [...runs.values()].filter((by) => by[0] === 'A').length;
    // Both instances took part (else the test proves nothing about two runners).
    expect(byA).toBeGreaterThan(0);
    expect(byA).toBeLessThan(N);
  });
});
