import type { SimulatedDevice } from '@beacon/agent';
import { upTopic } from '@beacon/protocol';
import * as XLSX from '@e965/xlsx';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDailyPartitions, listPartitions } from '../src/db/partitions.ts';
import { auditLog, deviceEvents, devices } from '../src/db/schema.ts';
import type { DeviceEventListener } from '../src/logs/device-events.ts';
import { EventCollector, insertProject, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/** The Log screen's data (docs/decisions/0036): device events, filters, downloads, retention. */

const DAY = 86_400_000;
let server: TestServer;
let owner: TestAccount;
let projectId: number;
let sn: string;
let device: SimulatedDevice;

interface Page<T> {
  items: T[];
  total: number;
}
interface Row {
  sn: string;
  event: string;
  level: string;
  message: string;
  eventId: string;
  deviceName: string;
}

beforeAll(async () => {
  // No background job polling: retention runs only when a test moves the clock and calls tick().
  // With the runner's own poll (every second), a poll that wakes up during the test's tick claims the
  // due retention job (FOR UPDATE SKIP LOCKED): the test's tick skips it and returns while retention
  // is still running, and the checks after it see the rows and partitions it has yet to remove. The
  // poll also ran retention by itself at the top of each real hour, in the middle of a test's setup.
  server = await startTestServer({ JOB_POLL_MS: '0' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
  sn = testSn('L');
  device = await simulateOnline(server, sn);
  await server.database.db.update(devices).set({ projectId, name: 'Lobby AP' }).where(eq(devices.sn, sn));
});

afterAll(async () => {
  await device?.stop().catch(() => {});
  await server?.close();
});

async function eventsOf(s: string) {
  return server.database.db.select().from(deviceEvents).where(eq(deviceEvents.sn, s));
}

/** Rows straight in device_events (generate_series), for limits and retention. */
async function insertEvents(values: {
  projectId: number;
  sn: string;
  at: Date;
  n: number;
  message?: string;
}) {
  await ensureDailyPartitions(server.database.pool, 'device_events', values.at, values.at);
  await server.database.pool.query(
    `insert into device_events (sn, project_id, event_id, at, event, level, message, received_at)
     select $1, $2, 'gen-' || $3::text || '-' || g, $3::timestamptz, 'client-joined', 'info', $4, $3::timestamptz
       from generate_series(1, $5) g`,
    [values.sn, values.projectId, values.at.toISOString(), values.message ?? 'generated', values.n],
  );
}

describe('device events', () => {
  it('lands what a simulated device reports, once per event id, with a live device.event', async () => {
    const live = await EventCollector.start(server);
    try {
      device.reportIpConflict('02:11:22:33:44:55');
      device.emitEvent('client-joined', 'info', 'phone-1 joined Guest', { mac: '02:00:00:00:00:01' });
      await waitFor(async () => (await eventsOf(sn)).length >= 2 || null, 'two events stored');
      // The same event id again (a redelivery), with another time: still one row.
      const [stored] = (await eventsOf(sn)).filter((e) => e.event === 'ip-conflict');
      await device.publishRaw(
        upTopic(sn, 'event'),
        JSON.stringify({
          id: stored.eventId,
          ts: Date.now() + 5000,
          event: 'ip-conflict',
          level: 'warning',
          message: 'again',
        }),
      );
      await device.publishRaw(
        upTopic(sn, 'event'),
        JSON.stringify({
          id: 'unique-1',
          ts: Date.now(),
          event: 'port-down',
          level: 'warning',
          message: 'Port 1',
        }),
      );
      await waitFor(
        async () => (await eventsOf(sn)).some((e) => e.eventId === 'unique-1') || null,
        'port-down',
      );
      await server.gateway.ingest.drain();
      const rows = await eventsOf(sn);
      expect(rows.filter((e) => e.eventId === stored.eventId)).toHaveLength(1);
      expect(stored).toMatchObject({ projectId, level: 'warning', data: { mac: '02:11:22:33:44:55' } });
      await waitFor(
        async () =>
          live.events.some((e) => e.type === 'device.event' && e.sn === sn && e.event === 'port-down') ||
          null,
        'live event',
      );
      expect(
        live.events.filter((e) => e.type === 'device.event' && e.sn === sn && e.event === 'ip-conflict'),
      ).toHaveLength(1);
    } finally {
      await live.stop();
    }
  });

  it('hands each stored event once to the onDeviceEvents listeners, and dates a wrong clock at receipt', async () => {
    const seen: { eventId: string; at: Date; projectId: number | null }[] = [];
    const listener: DeviceEventListener = async (_tx, events) => {
      seen.push(...events.map((e) => ({ eventId: e.eventId, at: e.at, projectId: e.projectId })));
    };
    server.gateway.ingest.onDeviceEvents.push(listener);
    try {
      const payload = (id: string, ts: number) =>
        JSON.stringify({ id, ts, event: 'wan-down', level: 'critical', message: 'WAN link lost' });
      await device.publishRaw(upTopic(sn, 'event'), payload('clock-1', 0));
      await device.publishRaw(upTopic(sn, 'event'), payload('clock-1', 0));
      await device.publishRaw(upTopic(sn, 'event'), payload('clock-2', Date.now() + 10 * 365 * DAY));
      await waitFor(() => seen.some((e) => e.eventId === 'clock-2') || null, 'listener heard both');
      await server.gateway.ingest.drain();
      // The simulated device also reports events of its own meanwhile (a client joining): only this
      // test's are counted.
      const ours = seen.filter((e) => e.eventId.startsWith('clock-'));
      expect(ours.map((e) => e.eventId)).toEqual(['clock-1', 'clock-2']);
      expect(seen.every((e) => e.projectId === projectId)).toBe(true);
      for (const e of ours) expect(Math.abs(e.at.getTime() - Date.now())).toBeLessThan(60_000);
    } finally {
      server.gateway.ingest.onDeviceEvents.splice(server.gateway.ingest.onDeviceEvents.indexOf(listener), 1);
    }
  });

  it('lists them with filters by device, type, level and time, paged by the server', async () => {
    const all = await owner.client.get<Page<Row>>(`/projects/${projectId}/logs/device?sn=${sn}&pageSize=200`);
    expect(all.status).toBe(200);
    expect(all.body.data.items.length).toBeGreaterThanOrEqual(3);
    expect(all.body.data.items[0].deviceName).toBe('Lobby AP');
    const conflicts = await owner.client.get<Page<Row>>(
      `/projects/${projectId}/logs/device?type=ip-conflict`,
    );
    expect(conflicts.body.data.total).toBe(1);
    expect(conflicts.body.data.items[0]).toMatchObject({ sn, event: 'ip-conflict', level: 'warning' });
    const warnings = await owner.client.get<Page<Row>>(`/projects/${projectId}/logs/device?level=warning`);
    expect(warnings.body.data.items.every((r) => r.level === 'warning')).toBe(true);
    const future = new Date(Date.now() + DAY).toISOString();
    const none = await owner.client.get<Page<Row>>(
      `/projects/${projectId}/logs/device?from=${encodeURIComponent(future)}`,
    );
    expect(none.body.data.total).toBe(0);
    const oldest = await owner.client.get<Page<Row & { at: string }>>(
      `/projects/${projectId}/logs/device?sn=${sn}&pageSize=200&order=asc`,
    );
    const times = (r: Page<Row & { at: string }>) => r.items.map((i) => Date.parse(i.at));
    expect(times(oldest.body.data)).toEqual([...times(oldest.body.data)].sort((a, b) => a - b));
    expect(oldest.body.data.items.map((i) => i.eventId)).toEqual(
      [...(all.body.data.items as Row[])].reverse().map((i) => i.eventId),
    );
    const paged = await owner.client.get<Page<Row>>(`/projects/${projectId}/logs/device?pageSize=1&page=2`);
    expect(paged.body.data.items).toHaveLength(1);
    expect(paged.body.data.total).toBe(all.body.data.total);
    const reversed = await owner.client.get(
      `/projects/${projectId}/logs/device?from=${encodeURIComponent(future)}&to=${encodeURIComponent(new Date().toISOString())}`,
    );
    expect(reversed.status).toBe(400);
    expect(reversed.body.code).toBe(5230);
  });

  it('keeps another project and a stranger out', async () => {
    const stranger = await createAccount(server);
    const r = await stranger.client.get(`/projects/${projectId}/logs/device`);
    expect(r.body.code).toBe(30);
    const d = await stranger.client.get(`/projects/${projectId}/logs/device/download`);
    expect(d.body.code).toBe(30);
  });
});

describe('downloads', () => {
  it('stops a download at 50,000 rows, streamed as CSV', async () => {
    const big = await insertProject(server, owner.id);
    await insertEvents({ projectId: big, sn: 'BIGLOGDEVICE0001', at: new Date(), n: 50_010 });
    const res = await fetch(`${server.url}/api/v1/projects/${big}/logs/device/download?format=csv`, {
      headers: { cookie: `token=${owner.client.cookieToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/csv/);
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="device-log-\d+-.*\.csv"/);
    const text = await res.text();
    const lines = text.split('\r\n').filter(Boolean);
    expect(lines).toHaveLength(50_001);
    expect(lines[0]).toContain('Time (UTC),Device SN');

    // A client that leaves mid-file: no cursor transaction stays open, and its connection goes back.
    const inCursor = async () =>
      (
        await server.database.pool.query(
          `select count(*)::int as n from pg_stat_activity
            where datname = current_database() and query like 'fetch 1000 from log_download%'
              and state like 'idle in transaction%'`,
        )
      ).rows[0].n as number;
    const { pool } = server.database;
    const busy = () => pool.totalCount - pool.idleCount;
    // The live-event listener holds one connection for good.
    const busyBefore = busy();
    for (const format of ['csv', 'xlsx']) {
      const controller = new AbortController();
      const partial = await fetch(
        `${server.url}/api/v1/projects/${big}/logs/device/download?format=${format}`,
        {
          headers: { cookie: `token=${owner.client.cookieToken}` },
          signal: controller.signal,
        },
      );
      const reader = partial.body!.getReader();
      await reader.read();
      controller.abort();
      await waitFor(async () => (await inCursor()) === 0 || null, `${format} cursor released`);
      await waitFor(async () => busy() === busyBefore || null, `${format} connection back`);
    }
  }, 120_000);

  it('neutralises spreadsheet formulas in CSV and xlsx', async () => {
    const p = await insertProject(server, owner.id);
    await insertEvents({
      projectId: p,
      sn: 'INJECTDEVICE0001',
      at: new Date(),
      n: 1,
      message: '=HYPERLINK("http://x","y")',
    });
    await insertEvents({
      projectId: p,
      sn: 'INJECTDEVICE0001',
      at: new Date(Date.now() - 1000),
      n: 1,
      message: '+1,2',
    });
    const csv = await fetch(`${server.url}/api/v1/projects/${p}/logs/device/download?format=csv`, {
      headers: { cookie: `token=${owner.client.cookieToken}` },
    }).then((r) => r.text());
    expect(csv).toContain(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csv).toContain(`"'+1,2"`);
    expect(csv).not.toMatch(/(^|,)=HYPERLINK/m);
    const xlsx = await fetch(`${server.url}/api/v1/projects/${p}/logs/device/download?format=xlsx`, {
      headers: { cookie: `token=${owner.client.cookieToken}` },
    });
    expect(xlsx.headers.get('content-type')).toMatch(/spreadsheetml/);
    const book = XLSX.read(Buffer.from(await xlsx.arrayBuffer()));
    const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]], { header: 1 });
    expect(rows).toHaveLength(3);
    expect(rows[1][5]).toBe(`'=HYPERLINK("http://x","y")`);
    expect(book.Sheets[book.SheetNames[0]].F2.f).toBeUndefined();
  });

  it('downloads the audit log (who, what, before and after)', async () => {
    const put = await owner.client.request('PUT', `/projects/${projectId}/logs/settings`, {
      retentionDays: 90,
    });
    expect(put.status).toBe(200);
    const list = await owner.client.get<
      Page<{ action: string; entity: string; before: unknown; after: unknown }>
    >(`/projects/${projectId}/logs/audit?type=update&sn=${projectId}`);
    expect(list.body.data.total).toBe(1);
    expect(list.body.data.items[0]).toMatchObject({
      action: 'update',
      entity: 'log-settings',
      before: { retentionDays: 30 },
      after: { retentionDays: 90 },
    });
    const csv = await fetch(`${server.url}/api/v1/projects/${projectId}/logs/audit/download`, {
      headers: { cookie: `token=${owner.client.cookieToken}` },
    }).then((r) => r.text());
    expect(csv).toContain('log-settings');
    expect(csv).toContain('"{""retentionDays"":90}"');
  });
});

describe('retention', () => {
  it('drops whole days past the longest retention and each project’s rows past its own', async () => {
    const short = await insertProject(server, owner.id);
    const normal = await insertProject(server, owner.id);
    expect(
      (await owner.client.request('PUT', `/projects/${short}/logs/settings`, { retentionDays: 7 })).status,
    ).toBe(200);
    expect(
      (await owner.client.request('PUT', `/projects/${short}/logs/settings`, { retentionDays: 8 })).body.code,
    ).toBe(16);
    const now = server.clock.now();
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    for (const p of [short, normal]) {
      await insertEvents({ projectId: p, sn: `RETAIN${p}`, at: ago(10), n: 3 });
      await insertEvents({ projectId: p, sn: `RETAIN${p}`, at: ago(1), n: 2 });
    }
    // The longest retention any project has is 90 days (set above): make it the old day's only owner.
    await server.database.db.execute(sql`delete from project_log_settings where retention_days > 30`);
    await insertEvents({ projectId: normal, sn: `RETAIN${normal}`, at: ago(45), n: 4 });
    await server.database.db.insert(auditLog).values([
      { accountName: 'old', projectId: short, action: 'x', entity: 'y', at: ago(200) },
      { accountName: 'recent', projectId: short, action: 'x', entity: 'y', at: ago(100) },
    ]);
    const oldDay = `device_events_p${ago(45).toISOString().slice(0, 10).replaceAll('-', '')}`;
    expect((await listPartitions(server.database.pool, 'device_events')).map((p) => p.name)).toContain(
      oldDay,
    );

    server.clock.advance(3_600_000);
    await server.jobs.tick();

    const count = async (p: number, from: Date) =>
      (
        await server.database.pool.query(
          'select count(*)::int as n from device_events where project_id = $1 and at >= $2',
          [p, from],
        )
      ).rows[0].n as number;
    expect(await count(short, ago(2))).toBe(2);
    expect(await count(short, ago(60))).toBe(2);
    expect(await count(normal, ago(60))).toBe(5);
    expect((await listPartitions(server.database.pool, 'device_events')).map((p) => p.name)).not.toContain(
      oldDay,
    );
    const audits = await server.database.db.select().from(auditLog).where(eq(auditLog.projectId, short));
    expect(audits.map((a) => a.accountName)).not.toContain('old');
    expect(audits.map((a) => a.accountName)).toContain('recent');
    const settings = await owner.client.get<{ retentionDays: number }>(`/projects/${short}/logs/settings`);
    expect(settings.body.data.retentionDays).toBe(7);
  });
});
