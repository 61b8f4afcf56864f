import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type SimulatedDevice, startDevice } from '@beacon/agent';
import {
  type AlarmDeliveryView,
  AlarmKind,
  type AlarmReadView,
  type AlarmSettingsView,
  type AlarmView,
  type MaintenanceWindowView,
  upTopic,
} from '@beacon/protocol';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseAlarms } from '../src/alarms/raise.ts';
import { alarmDeliveries, alarms, deviceState, devices, mailOutbox } from '../src/db/schema.ts';
import {
  deviceRow,
  EventCollector,
  insertProject,
  insertSeen,
  simulateOnline,
  testSn,
  waitFor,
} from './devices.helpers.ts';
import { createAccount, signInAgain, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Alarms (docs/alarms.md): raised once per incident from device events and from the rules sweep,
 * delivered by email and by a signed webhook retried after a failure, marked read, muted by
 * maintenance windows.
 */

const MINUTE = 60_000;
type Paged<T> = { items: T[]; total: number };

let server: TestServer;
let owner: TestAccount;
let projectId: number;
const running: SimulatedDevice[] = [];

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
let failNext = 0;
let hook: http.Server;
let hookUrl = '';

const api = {
  list: (q = '') => owner.client.get<Paged<AlarmView>>(`/projects/${projectId}/alarms${q}`),
  unread: () => owner.client.get<{ unread: number }>(`/projects/${projectId}/alarms/unread`),
};

async function openAlarms(sn: string) {
  return server.database.db
    .select()
    .from(alarms)
    .where(and(eq(alarms.sn, sn), isNull(alarms.clearedAt)));
}

async function sweep(): Promise<void> {
  server.clock.advance(MINUTE + 1000);
  await server.jobs.tick();
}

beforeAll(async () => {
  hook = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      if (failNext > 0) {
        failNext--;
        res.writeHead(500).end('not now');
      } else res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks/beacon`;
  server = await startTestServer({ JOB_POLL_MS: '0', ALARM_WEBHOOK_ALLOW_PRIVATE: '1' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
  await new Promise((r) => hook?.close(r));
});

describe('alarms', () => {
  it('CPU high fires once when the readings stay high for 5 minutes, never on a spike, and clears', async () => {
    const sn = testSn('C');
    await server.database.db.insert(devices).values({
      sn,
      model: 'BA-W1200C',
      type: 'ap',
      projectId,
      name: 'Lobby AP',
    });
    // A real device over MQTT whose telemetry the test sends itself (its own timer is an hour).
    const device = await startDevice({
      url: server.gateway.brokerUrl,
      sn,
      model: 'BA-W1200C',
      factoryKey: server.config.factoryKey,
      telemetryMs: 3_600_000,
      backoffMinMs: 100,
      backoffMaxMs: 400,
      keepalive: 5,
      clientEvents: false,
    });
    running.push(device);
    await waitFor(async () => (await deviceRow(server, sn))?.telemetryAt, 'the first telemetry');
    server.clock.advance(10 * MINUTE);
    let uptime = 1000;
    /** 30 s of simulated time, one telemetry (stored before it returns), and the due jobs (the sweep every minute). */
    const step = async (cpu: number) => {
      server.clock.advance(30_000);
      const at = server.clock.now().getTime();
      uptime += 30;
      const telemetry = {
        ts: Date.now(),
        uptime,
        cpu,
        memory: 40,
        clientCount: 0,
        clients: [],
        led: true,
        locating: false,
      };
      await device.publishRaw(upTopic(sn, 'telemetry'), JSON.stringify(telemetry));
      await waitFor(async () => {
        await server.gateway.ingest.drain();
        const { rows } = await server.database.pool.query(
          'select 1 from stats_device where sn = $1 and at >= $2',
          [sn, new Date(at - 1000)],
        );
        return rows.length > 0;
      }, `the sample at ${cpu} %`);
      await server.jobs.tick();
    };
    const alarmsOf = async () => (await api.list(`?sn=${sn}`)).body.data.items;

    // One spike among normal readings, swept every minute for 6 minutes: nothing.
    for (const cpu of [20, 20, 20, 97, 20, 20, 20, 20, 20, 20, 20, 20]) await step(cpu);
    expect(await alarmsOf()).toEqual([]);
    // High for 2 minutes (5 readings): not yet sustained.
    for (let k = 0; k < 5; k++) await step(95);
    expect(await alarmsOf()).toEqual([]);
    // High on, past the 3 minutes the window asks of the readings, for 5 minutes more: one alarm.
    for (let k = 0; k < 10; k++) await step(95);
    let list = await alarmsOf();
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      kind: 'cpu-high',
      sn,
      // The MAC the device announced in its hello.
      mac: (await deviceRow(server, sn))?.mac,
      model: 'BA-W1200C',
      name: 'Lobby AP',
      read: 0,
      count: 1,
      clearedAt: null,
    });
    expect(list[0].event).toBe('CPU usage at or above 90 % for 5 minutes (lowest 95.0 %)');
    expect(list[0].project).toMatch(/^dev/);

    // The reading drops: the alarm ends at the next sweep.
    await step(30);
    await step(30);
    list = await alarmsOf();
    expect(list).toHaveLength(1);
    expect(list[0].clearedAt).not.toBeNull();
    // A new spike after it is no new alarm either.
    for (const cpu of [99, 30, 30]) await step(cpu);
    expect(await alarmsOf()).toHaveLength(1);
  });

  it('raises an offline alarm after the project’s N minutes, not before', async () => {
    const sn = testSn('O');
    const put = await owner.client.request<AlarmSettingsView>(
      'PUT',
      `/projects/${projectId}/alarms/settings`,
      {
        emails: [],
        webhookUrl: '',
        offlineMinutes: 10,
        cpuPercent: 90,
        memoryPercent: 90,
      },
    );
    expect(put.body.code, JSON.stringify(put.body)).toBe(0);
    await insertSeen(server, sn, {
      model: 'BA-W1200C',
      type: 'ap',
      projectId,
      status: 0,
      lastSeenAt: new Date(server.clock.now().getTime() - 5 * MINUTE),
    });
    await sweep();
    expect(await openAlarms(sn)).toHaveLength(0);
    server.clock.advance(5 * MINUTE);
    await sweep();
    expect((await openAlarms(sn)).map((a) => a.kind)).toEqual(['offline']);
    await server.database.db.update(deviceState).set({ status: 1 }).where(eq(deviceState.sn, sn));
    await sweep();
    expect(await openAlarms(sn)).toHaveLength(0);
  });

  it('raises an alarm from a device event once per incident, and announces it live', async () => {
    const events = await EventCollector.start(server);
    const sn = testSn('E');
    const d = await simulateOnline(server, sn);
    running.push(d);
    await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
    d.incident('ip-conflict');
    await waitFor(async () => (await openAlarms(sn)).length === 1, 'the ip-conflict alarm');
    d.incident('ip-conflict');
    await waitFor(async () => (await openAlarms(sn))[0]?.count === 2, 'the repeat counted');
    // The same event sent again (QoS 1 after a reconnect) is not a repeat.
    const again = JSON.stringify({
      id: 'resent-1',
      ts: Date.now(),
      event: 'ip-conflict',
      level: 'warning',
      message: 'IP address 10.0.0.9 is also used by 02:00:00:00:00:09',
    });
    await d.publishRaw(upTopic(sn, 'event'), again);
    await waitFor(async () => (await openAlarms(sn))[0]?.count === 3, 'the new event counted');
    await d.publishRaw(upTopic(sn, 'event'), again);
    await server.gateway.ingest.drain();
    await new Promise((r) => setTimeout(r, 200));
    await server.gateway.ingest.drain();
    const rows = await server.database.db.select().from(alarms).where(eq(alarms.sn, sn));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'ip-conflict', level: 'critical', read: 0, count: 3 });
    // A commanded restart is no alarm; one nobody asked for is.
    d.incident('crash');
    await waitFor(async () => (await openAlarms(sn)).some((a) => a.kind === 'reboot'), 'the reboot alarm');
    d.incident('upgrade-failed');
    await waitFor(
      async () => (await openAlarms(sn)).some((a) => a.kind === 'upgrade-failed'),
      'upgrade alarm',
    );
    await waitFor(
      () => events.events.filter((e) => e.type === 'alarm' && e.sn === sn).length === 3,
      'three alarm events',
    );
    await events.stop();
  });

  it('delivers by email and by a webhook signed with HMAC-SHA256, retried after a failure', async () => {
    const secret = 'a-very-secret-signing-key';
    const put = await owner.client.request<AlarmSettingsView>(
      'PUT',
      `/projects/${projectId}/alarms/settings`,
      {
        emails: ['noc@example.com'],
        webhookUrl: hookUrl,
        webhookSecret: secret,
        offlineMinutes: 5,
        cpuPercent: 90,
        memoryPercent: 90,
      },
    );
    expect(put.body.code, JSON.stringify(put.body)).toBe(0);
    expect(put.body.data).toMatchObject({ webhookUrl: hookUrl, webhookSecretSet: true });
    expect(JSON.stringify(put.body.data)).not.toContain(secret);

    const sn = testSn('W');
    const d = await simulateOnline(server, sn);
    running.push(d);
    await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
    failNext = 1;
    received.length = 0;
    d.incident('poe-over-budget');
    const [alarm] = await waitFor(async () => {
      const open = await openAlarms(sn);
      return open.length ? open : null;
    }, 'the PoE alarm');
    expect(alarm.kind).toBe('poe-over-budget');

    await server.jobs.tick();
    expect(received).toHaveLength(1);
    let deliveries = await owner.client.get<Paged<AlarmDeliveryView>>(
      `/projects/${projectId}/alarms/deliveries`,
    );
    const mine = () => deliveries.body.data.items.filter((x) => x.alarmId === alarm.id);
    expect(mine().find((x) => x.channel === 'webhook')).toMatchObject({
      state: 'pending',
      attempts: 1,
      responseStatus: 500,
      lastError: 'HTTP 500',
    });
    expect(mine().find((x) => x.channel === 'email')).toMatchObject({
      state: 'delivered',
      target: 'noc@example.com',
    });
    const mail = await server.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, 'noc@example.com'));
    expect(mail).toHaveLength(1);
    expect(mail[0].body).toContain(sn);

    // Not before its backoff; then again, and delivered.
    await server.jobs.tick();
    expect(received).toHaveLength(1);
    server.clock.advance(11_000);
    await server.jobs.tick();
    expect(received).toHaveLength(2);
    deliveries = await owner.client.get<Paged<AlarmDeliveryView>>(`/projects/${projectId}/alarms/deliveries`);
    expect(mine().find((x) => x.channel === 'webhook')).toMatchObject({
      state: 'delivered',
      attempts: 2,
      responseStatus: 204,
    });

    const last = received[1];
    const timestamp = String(last.headers['x-beacon-timestamp']);
    const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${last.body}`).digest('hex')}`;
    expect(last.headers['x-beacon-signature']).toBe(expected);
    expect(last.headers['content-type']).toBe('application/json');
    const payload = JSON.parse(last.body);
    expect(payload).toMatchObject({
      type: 'alarm',
      alarm: { id: alarm.id, kind: 'poe-over-budget', sn, read: 0 },
    });
  });

  it('marks alarms read, then all read, with the unread count and live events', async () => {
    const events = await EventCollector.start(server);
    const before = (await api.unread()).body.data.unread;
    expect(before).toBeGreaterThanOrEqual(3);
    const unread = (await api.list('?read=0&pageSize=200')).body.data.items;
    expect(unread).toHaveLength(before);
    const one = await owner.client.post<AlarmReadView>(`/projects/${projectId}/alarms/read`, {
      ids: [unread[0].id],
    });
    expect(one.body.data).toEqual({ updated: 1, unread: before - 1 });
    expect((await api.unread()).body.data.unread).toBe(before - 1);
    expect((await api.list('?read=1')).body.data.items.map((a) => a.id)).toContain(unread[0].id);
    const all = await owner.client.post<AlarmReadView>(`/projects/${projectId}/alarms/read-all`, {});
    expect(all.body.data).toEqual({ updated: before - 1, unread: 0 });
    expect((await api.unread()).body.data.unread).toBe(0);
    await waitFor(
      () => events.events.filter((e) => e.type === 'alarm.read' && e.projectId === projectId).length === 2,
      'two alarm.read events',
    );
    const last = events.events.filter((e) => e.type === 'alarm.read').at(-1);
    expect(last).toMatchObject({ ids: 'all', unread: 0 });
    await events.stop();
  });

  it('a maintenance window mutes the alarms of its devices while it lasts', async () => {
    const sn = testSn('M');
    const d = await simulateOnline(server, sn);
    running.push(d);
    await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
    const now = server.clock.now().getTime();
    const created = await owner.client.post<MaintenanceWindowView>(`/projects/${projectId}/alarms/windows`, {
      sns: [sn],
      startsAt: new Date(now - MINUTE).toISOString(),
      endsAt: new Date(now + 60 * MINUTE).toISOString(),
      reason: 'Firmware rollout',
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    const listed = await owner.client.get<MaintenanceWindowView[]>(`/projects/${projectId}/alarms/windows`);
    expect(listed.body.data.map((w) => w.id)).toContain(created.body.data.id);

    d.incident('upgrade-failed');
    // The event is stored (the ingest is done with it) but raises nothing.
    await server.gateway.ingest.drain();
    await new Promise((r) => setTimeout(r, 300));
    await server.gateway.ingest.drain();
    expect(await openAlarms(sn)).toHaveLength(0);

    const removed = await owner.client.request(
      'DELETE',
      `/projects/${projectId}/alarms/windows/${created.body.data.id}`,
    );
    expect(removed.body.code).toBe(0);
    d.incident('upgrade-failed');
    await waitFor(async () => (await openAlarms(sn)).length === 1, 'the alarm after the window');
  });

  it('a device that moves to another project raises its trouble there as a new alarm', async () => {
    const sn = testSn('P');
    const d = await simulateOnline(server, sn);
    running.push(d);
    await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
    d.incident('ip-conflict');
    await waitFor(
      async () => (await openAlarms(sn))[0]?.projectId === projectId,
      'the alarm in the first project',
    );
    const other = await insertProject(server, owner.id);
    await server.database.db.update(devices).set({ projectId: other }).where(eq(devices.sn, sn));
    d.incident('ip-conflict');
    await waitFor(
      async () => (await openAlarms(sn))[0]?.projectId === other,
      'the alarm in the second project',
    );
    const all = await server.database.db.select().from(alarms).where(eq(alarms.sn, sn));
    expect(all).toHaveLength(2);
    expect(all.filter((a) => a.clearedAt === null)).toHaveLength(1);
  });

  it('a mass outage: one sweep raises every device’s offline alarm, muted ones aside, with a delivery per recipient', async () => {
    const project = await insertProject(server, owner.id);
    const put = await owner.client.request('PUT', `/projects/${project}/alarms/settings`, {
      emails: ['noc@example.com', 'oncall@example.com'],
      webhookUrl: '',
      offlineMinutes: 5,
      cpuPercent: 90,
      memoryPercent: 90,
    });
    expect(put.body.code, JSON.stringify(put.body)).toBe(0);
    const sns = Array.from({ length: 300 }, () => testSn('X'));
    const lastSeenAt = new Date(server.clock.now().getTime() - 10 * MINUTE);
    for (const sn of sns)
      await insertSeen(server, sn, {
        model: 'BA-W1200C',
        type: 'ap',
        projectId: project,
        status: 0,
        lastSeenAt,
      });
    const inWindow = sns.slice(0, 10);
    const now = server.clock.now().getTime();
    const window = await owner.client.post(`/projects/${project}/alarms/windows`, {
      sns: inWindow,
      startsAt: new Date(now - MINUTE).toISOString(),
      endsAt: new Date(now + 60 * MINUTE).toISOString(),
      reason: 'Power work',
    });
    expect(window.body.code, JSON.stringify(window.body)).toBe(0);

    await sweep();
    const open = await server.database.db
      .select()
      .from(alarms)
      .where(and(eq(alarms.projectId, project), isNull(alarms.clearedAt)));
    expect(
      open
        .filter((a) => a.kind === 'offline')
        .map((a) => a.sn)
        .sort(),
    ).toEqual(sns.slice(10).sort());
    expect(open.every((a) => a.model === 'BA-W1200C' && a.count === 1)).toBe(true);
    const deliveries = await server.database.db
      .select()
      .from(alarmDeliveries)
      .where(eq(alarmDeliveries.projectId, project));
    expect(deliveries).toHaveLength(2 * 290);
    expect(new Set(deliveries.map((d) => `${d.alarmId} ${d.target}`)).size).toBe(2 * 290);
    // Each delivery has its job (run by the next tick or still waiting).
    const { rows } = await server.database.pool.query<{ n: number }>(
      `select count(*)::int as n from alarm_deliveries d
        where d.project_id = $1 and (d.attempts > 0 or exists (
          select 1 from jobs j where j.key = 'alarm-deliver:' || d.id || ':0'))`,
      [project],
    );
    expect(rows[0].n).toBe(2 * 290);
  });

  it('raises incidents of one device and kind given together one after another: the first opens, a repeat counts, a re-sent event does not', async () => {
    const sn = testSn('D');
    await insertSeen(server, sn, { model: 'BA-W1200C', type: 'ap', projectId });
    const at = server.clock.now();
    const incident = {
      sn,
      kind: AlarmKind.IP_CONFLICT,
      level: 'warning' as const,
      message: 'IP conflict',
      at,
    };
    const created = await server.database.db.transaction((tx) =>
      raiseAlarms(
        tx,
        [
          { ...incident, eventId: 'e1' },
          { ...incident, eventId: 'e1' },
          { ...incident, eventId: 'e2' },
        ],
        at,
      ),
    );
    expect(created).toHaveLength(1);
    const [row] = await openAlarms(sn);
    expect(row).toMatchObject({ id: created[0], count: 2, eventId: 'e2' });
  });

  it('forgets ended alarms past the project’s retention (30 days by default), not open ones', async () => {
    const sn = testSn('R');
    await insertSeen(server, sn, { model: 'BA-W1200C', type: 'ap', projectId });
    const now = server.clock.now().getTime();
    const old = new Date(now - 181 * 86_400_000);
    const rows = await server.database.db
      .insert(alarms)
      .values([
        {
          projectId,
          sn,
          kind: 'reboot',
          level: 'warning',
          message: 'old',
          raisedAt: old,
          lastAt: old,
          clearedAt: old,
        },
        { projectId, sn, kind: 'ip-conflict', level: 'warning', message: 'open', raisedAt: old, lastAt: old },
      ])
      .returning({ id: alarms.id, message: alarms.message });
    server.clock.advance(86_400_000);
    await server.jobs.tick();
    const left = await server.database.db.select().from(alarms).where(eq(alarms.sn, sn));
    expect(left.map((a) => a.message)).toEqual(['open']);
    expect(rows).toHaveLength(2);
    // A day later the session has idled out.
    await signInAgain(server, owner);
  });

  it('refuses bad windows and webhook settings with their codes', async () => {
    const now = server.clock.now().getTime();
    const backwards = await owner.client.post(`/projects/${projectId}/alarms/windows`, {
      sns: ['ABCDEFGH12345678'],
      startsAt: new Date(now).toISOString(),
      endsAt: new Date(now - MINUTE).toISOString(),
    });
    expect(backwards.body.code).toBe(5242);
    const noSecret = await owner.client.request('PUT', `/projects/${projectId}/alarms/settings`, {
      emails: [],
      webhookUrl: 'https://hooks.example.com/beacon',
      offlineMinutes: 5,
      cpuPercent: 90,
      memoryPercent: 90,
    });
    // The earlier test stored a secret: it is kept, so this one saves.
    expect(noSecret.body.code).toBe(0);
    const ftp = await owner.client.request('PUT', `/projects/${projectId}/alarms/settings`, {
      emails: [],
      webhookUrl: 'ftp://hooks.example.com/beacon',
      offlineMinutes: 5,
      cpuPercent: 90,
      memoryPercent: 90,
    });
    expect(ftp.body.code).toBe(5240);
  });
});
