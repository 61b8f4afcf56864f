import {
  type DataScreenView,
  DEMO_PROJECT_IDS,
  type ProjectListItem,
  type ProjectOverview,
} from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataScreens, deviceState, projectMembers, projects } from '../src/db/schema.ts';
import { insertDevice, testSn } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

type Paged<T> = { items: T[]; total: number; page: number; pageSize: number };

/** Project overview counts and the data screen (docs/decisions/0041). */
describe('overview', () => {
  let server: TestServer;
  let owner: TestAccount;
  let reader: TestAccount;
  let writer: TestAccount;
  const ids = { busy: 0, small: 0, empty: 0 };

  async function insertProject(name: string): Promise<number> {
    const [row] = await server.database.db
      .insert(projects)
      .values({ ownerId: owner.id, name, scenario: 'hotel' })
      .returning({ id: projects.id });
    return row.id;
  }

  beforeAll(async () => {
    server = await startTestServer();
    owner = await createAccount(server);
    reader = await createAccount(server);
    writer = await createAccount(server);
    ids.busy = await insertProject('Busy');
    ids.small = await insertProject('Small');
    ids.empty = await insertProject('Empty project with a long name');
    const accepted = server.clock.now();
    await server.database.db.insert(projectMembers).values([
      { projectId: ids.busy, accountId: reader.id, permission: 'r', acceptedAt: accepted },
      { projectId: ids.busy, accountId: writer.id, permission: 'rw', acceptedAt: accepted },
    ]);
    const db = server.database;
    const seen = server.clock.now();
    const device = (projectId: number, type: string, status: number, clientCount: number, extra = {}) =>
      insertDevice(db, {
        sn: testSn(type === 'ap' ? 'A' : 'S'),
        projectId,
        model: type === 'ap' ? 'BA-W1200C' : 'BS-S1008P',
        type,
        status,
        clientCount,
        firstSeenAt: seen,
        lastSeenAt: seen,
        ...extra,
      });
    // Busy: 3 APs (online, online-not-saved with a failed configuration, offline with stale
    // clients), a rebooting switch and a gateway in the offline variant.
    await device(ids.busy, 'ap', 1, 5);
    await device(ids.busy, 'ap', 7, 3, { configStatus: 'failed', configCode: 36 });
    await device(ids.busy, 'ap', 0, 9);
    await device(ids.busy, 'switch', 8, 4);
    await device(ids.busy, 'router', 9, 0);
    await device(ids.small, 'ap', 1, 2);
  });
  afterAll(() => server?.close());

  async function overview(account: TestAccount, id: number): Promise<ProjectOverview> {
    const res = await account.client.get<ProjectOverview>(`/projects/${id}/overview`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }

  async function list(query: string): Promise<ProjectListItem[]> {
    const res = await owner.client.get<Paged<ProjectListItem>>(`/projects${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.items.filter((p) => !p.isDemo);
  }

  it('counts the devices of a project by their stored state, in total and by type', async () => {
    const o = await overview(owner, ids.busy);
    expect(o.stats).toEqual({
      total: 5,
      online: 2,
      offline: 2,
      busy: 1,
      // Online devices only: the offline AP's 9 and the rebooting switch's 4 are not clients now.
      clients: 8,
      configFailed: 1,
      // Online with a configuration that did not fail: 1 of 5.
      health: 20,
    });
    expect(o.byType).toEqual([
      { type: 'ap', total: 3, online: 2, offline: 1, busy: 0, clients: 8, configFailed: 1, health: 33 },
      { type: 'router', total: 1, online: 0, offline: 1, busy: 0, clients: 0, configFailed: 0, health: 0 },
      { type: 'switch', total: 1, online: 0, offline: 0, busy: 1, clients: 0, configFailed: 0, health: 0 },
    ]);
    expect(Date.parse(o.at)).toBeLessThanOrEqual(server.clock.now().getTime());
    // A read-only member sees the same counts.
    expect((await overview(reader, ids.busy)).stats.total).toBe(5);
  });

  it('answers a project without devices with zeros and no health', async () => {
    const o = await overview(owner, ids.empty);
    expect(o.stats).toEqual({
      total: 0,
      online: 0,
      offline: 0,
      busy: 0,
      clients: 0,
      configFailed: 0,
      health: null,
    });
    expect(o.byType).toEqual([]);
  });

  it('refuses the counts of a project the caller cannot see (30)', async () => {
    const stranger = await createAccount(server);
    const res = await stranger.client.get(`/projects/${ids.busy}/overview`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(30);
  });

  it('puts the counts on every row of the project list and sorts by them', async () => {
    const rows = await list('?sort=online&order=desc');
    expect(rows.map((p) => p.name)).toEqual(['Busy', 'Small', 'Empty project with a long name']);
    const byName = new Map(rows.map((p) => [p.name, p]));
    expect(byName.get('Busy')?.stats).toMatchObject({ total: 5, online: 2, clients: 8, health: 20 });
    expect(byName.get('Busy')?.deviceCount).toBe(5);
    expect(byName.get('Small')?.stats).toMatchObject({ total: 1, online: 1, clients: 2, health: 100 });
    expect(byName.get('Empty project with a long name')?.stats).toMatchObject({ total: 0, health: null });
    expect((await list('?sort=health&order=desc')).map((p) => p.name)).toEqual([
      'Small',
      'Busy',
      'Empty project with a long name',
    ]);
    expect((await list('?sort=clients&order=asc')).map((p) => p.name)).toEqual([
      'Empty project with a long name',
      'Small',
      'Busy',
    ]);
    expect((await list('?sort=devices&order=desc')).map((p) => p.name)[0]).toBe('Busy');
  });

  it('counts every project of a long list right, each with its own devices', async () => {
    const many = await createAccount(server);
    const made: { id: number; devices: number }[] = [];
    for (let i = 0; i < 30; i += 1) {
      const [row] = await server.database.db
        .insert(projects)
        .values({ ownerId: many.id, name: `Many ${i}`, scenario: 'hotel' })
        .returning({ id: projects.id });
      // i devices, the first i % 3 of them online with 2 clients each.
      for (let d = 0; d < i; d += 1) {
        await insertDevice(server.database, {
          sn: testSn('M'),
          projectId: row.id,
          model: 'BA-W1200C',
          type: 'ap',
          status: d < i % 3 ? 1 : 0,
          clientCount: 2,
        });
      }
      made.push({ id: row.id, devices: i });
    }
    const res = await many.client.get<Paged<ProjectListItem>>(
      '/projects?pageSize=50&sort=devices&order=desc',
    );
    expect(res.status).toBe(200);
    const rows = res.body.data.items.filter((p) => !p.isDemo);
    expect(rows.map((p) => p.stats.total)).toEqual(made.map((m) => m.devices).sort((a, b) => b - a));
    for (const m of made) {
      const online = Math.min(m.devices, m.devices % 3);
      expect(rows.find((p) => p.id === m.id)?.stats).toMatchObject({
        total: m.devices,
        online,
        offline: m.devices - online,
        clients: online * 2,
      });
    }
  });

  it('follows a device going offline', async () => {
    const sn = testSn('A');
    await insertDevice(server.database, {
      sn,
      projectId: ids.small,
      model: 'BA-W1200C',
      type: 'ap',
      status: 1,
      clientCount: 6,
    });
    expect((await overview(owner, ids.small)).stats).toMatchObject({ total: 2, online: 2, clients: 8 });
    await server.database.db.update(deviceState).set({ status: 0 }).where(eq(deviceState.sn, sn));
    expect((await overview(owner, ids.small)).stats).toMatchObject({
      total: 2,
      online: 1,
      offline: 1,
      clients: 2,
      health: 50,
    });
  });

  describe('data screen', () => {
    const path = () => `/projects/${ids.busy}/data-screen`;
    const stored = async () =>
      (await server.database.db.select().from(dataScreens).where(eq(dataScreens.projectId, ids.busy)))[0] ??
      null;
    const put = (account: TestAccount, body: unknown, id = ids.busy) =>
      account.client.request<DataScreenView>('PUT', `/projects/${id}/data-screen`, body);

    it('answers the defaults until saved: the project name cut to 18 characters', async () => {
      const res = await owner.client.get<DataScreenView>(`/projects/${ids.empty}/data-screen`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        title: 'Empty project with',
        subtitle: '',
        countries: [],
        updatedAt: null,
      });
    });

    it('saves title, subtitle and countries (trimmed, upper case, once each) for a writer', async () => {
      const res = await put(owner, {
        title: ' Wall of Busy ',
        subtitle: 'Lobby screen',
        countries: ['de', 'FR', 'DE', 'cn'],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({
        title: 'Wall of Busy',
        subtitle: 'Lobby screen',
        countries: ['DE', 'FR', 'CN'],
      });
      expect(Date.parse(res.body.data.updatedAt ?? '')).toBeLessThanOrEqual(server.clock.now().getTime());
      const got = await owner.client.get<DataScreenView>(path());
      expect(got.body.data).toEqual(res.body.data);
      // A read-write member may save too; 18 characters (counted as characters, not bytes) fit.
      const full = await put(writer, {
        title: 'ÄÖÜäöüßéèêàç€漢字😀ab',
        subtitle: 'x'.repeat(30),
        countries: ['JP', 'US', 'GB', 'BR', 'IN'],
      });
      expect(full.status, JSON.stringify(full.body)).toBe(200);
      expect(full.body.data.countries).toEqual(['JP', 'US', 'GB', 'BR', 'IN']);
    });

    it.each([
      ['a title of 19 characters', { title: 'a'.repeat(19), subtitle: '', countries: [] }, 16],
      ['an empty title', { title: '   ', subtitle: '', countries: [] }, 16],
      ['a subtitle of 31 characters', { title: 'ok', subtitle: 'b'.repeat(31), countries: [] }, 16],
      ['6 countries', { title: 'ok', subtitle: '', countries: ['DE', 'FR', 'CN', 'JP', 'US', 'GB'] }, 5045],
      ['an unknown country code', { title: 'ok', subtitle: '', countries: ['XX'] }, 5270],
      ['a withdrawn country code', { title: 'ok', subtitle: '', countries: ['SU'] }, 5270],
      ['a country name instead of a code', { title: 'ok', subtitle: '', countries: ['Germany'] }, 5270],
      ['a missing field', { title: 'ok', subtitle: '' }, 16],
      ['an unknown field', { title: 'ok', subtitle: '', countries: [], colour: 'red' }, 16],
    ])('refuses %s with its code and keeps the stored value', async (_label, body, code) => {
      const before = await stored();
      const res = await put(owner, body);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.code).toBe(code);
      expect(await stored()).toEqual(before);
    });

    it('refuses a read-only member (5032) and the demo project (5031), storing nothing', async () => {
      const before = await stored();
      const valid = { title: 'Mine now', subtitle: '', countries: ['DE'] };
      const ro = await put(reader, valid);
      expect(ro.status).toBe(403);
      expect(ro.body.code).toBe(5032);
      expect(await stored()).toEqual(before);
      // The read-only member still reads it.
      expect((await reader.client.get<DataScreenView>(path())).body.data.title).toBe(before?.title);

      const demo = await put(owner, valid, DEMO_PROJECT_IDS.WLAN);
      expect(demo.body.code).toBe(5031);
      const demoRows = await server.database.db
        .select()
        .from(dataScreens)
        .where(eq(dataScreens.projectId, DEMO_PROJECT_IDS.WLAN));
      expect(demoRows).toEqual([]);
      expect(
        (await owner.client.get<DataScreenView>(`/projects/${DEMO_PROJECT_IDS.WLAN}/data-screen`)).status,
      ).toBe(200);
    });

    it('records the change in the audit log with before and after', async () => {
      const res = await owner.client.get<
        Paged<{ action: string; entity: string; before: unknown; after: unknown }>
      >(`/projects/${ids.busy}/logs`);
      const entry = res.body.data.items.find((a) => a.entity === 'data_screen');
      expect(entry).toMatchObject({ action: 'update', after: { countries: ['JP', 'US', 'GB', 'BR', 'IN'] } });
    });
  });
});
