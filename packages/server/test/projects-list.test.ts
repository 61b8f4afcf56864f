import { DEMO_PROJECT_IDS, type ProjectView } from '@beacon/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectMembers, projects } from '../src/db/schema.ts';
import { createAccount, signInAgain, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

type Paged<T> = { items: T[]; total: number; page: number; pageSize: number };
const DAY = 24 * 3600 * 1000;

describe('projects: the list', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  async function insertProject(
    ownerId: number,
    name: string,
    extra: Partial<typeof projects.$inferInsert> = {},
  ): Promise<number> {
    const [row] = await server.database.db
      .insert(projects)
      .values({ ownerId, name, scenario: 'hotel', ...extra })
      .returning({ id: projects.id });
    return row.id;
  }

  async function list(account: TestAccount, query = ''): Promise<Paged<ProjectView>> {
    const res = await account.client.get<Paged<ProjectView>>(`/projects${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }

  const own = (page: Paged<ProjectView>): string[] => page.items.filter((p) => !p.isDemo).map((p) => p.name);

  it('shows a new account only the two demo projects, read-write, isDemo, not its own', async () => {
    const fresh = await createAccount(server);
    const page = await list(fresh);
    expect(page.total).toBe(2);
    expect(page).toMatchObject({ page: 1, pageSize: 20 });
    const byId = new Map(page.items.map((p) => [p.id, p]));
    expect(byId.get(DEMO_PROJECT_IDS.WLAN)).toMatchObject({
      netMode: 0,
      isDemo: true,
      right: 'rw',
      property: 'shared_read',
      isShare: false,
      timeZone: 'Asia/Shanghai',
    });
    expect(byId.get(DEMO_PROJECT_IDS.MESH)).toMatchObject({ netMode: 1, isDemo: true, right: 'rw' });
  });

  it('filters by time range on createdAt', async () => {
    const a = await createAccount(server);
    const now = server.clock.now().getTime();
    const ages: [string, number][] = [
      ['d10', 10],
      ['d20', 20],
      ['d60', 60],
      ['d120', 120],
      ['d300', 300],
      ['d400', 400],
    ];
    for (const [name, days] of ages)
      await insertProject(a.id, name, { createdAt: new Date(now - days * DAY) });
    const names = async (range: string) => own(await list(a, `?range=${range}&sort=name&order=asc`)).sort();
    expect(await names('15d')).toEqual(['d10']);
    expect(await names('1m')).toEqual(['d10', 'd20']);
    expect(await names('3m')).toEqual(['d10', 'd20', 'd60']);
    expect(await names('6m')).toEqual(['d10', 'd120', 'd20', 'd60']);
    expect(await names('1y')).toEqual(['d10', 'd120', 'd20', 'd300', 'd60']);
    expect(own(await list(a))).toHaveLength(6);
    const bad = await a.client.get('/projects?range=2w');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe(16);
  });

  it('searches names case-insensitively and takes % _ and \\ literally', async () => {
    const a = await createAccount(server);
    for (const name of [
      'Hotel-North',
      'hotel-south',
      'a_b',
      'axb',
      '50%off',
      '50xoff',
      'back\\slash',
      'backXslash',
    ]) {
      await insertProject(a.id, name);
    }
    const search = async (q: string) => own(await list(a, `?q=${encodeURIComponent(q)}`)).sort();
    expect(await search('HOTEL')).toEqual(['Hotel-North', 'hotel-south']);
    expect(await search('_')).toEqual(['a_b']);
    expect(await search('%')).toEqual(['50%off']);
    expect(await search('\\')).toEqual(['back\\slash']);
    expect(await search('nothing-like-it')).toEqual([]);
    // The search also applies to the demo projects.
    const demo = await list(a, '?q=demo-mesh');
    expect(demo.items.map((p) => p.id)).toEqual([DEMO_PROJECT_IDS.MESH]);
  });

  it('filters by network mode', async () => {
    const a = await createAccount(server);
    await insertProject(a.id, 'w1', { netMode: 0 });
    await insertProject(a.id, 'm1', { netMode: 1 });
    await insertProject(a.id, 'm2', { netMode: 1 });
    const mesh = await list(a, '?netMode=1');
    expect(mesh.items.every((p) => p.netMode === 1)).toBe(true);
    expect(own(mesh).sort()).toEqual(['m1', 'm2']);
    expect(mesh.total).toBe(3); // and the mesh demo project
    expect(own(await list(a, '?netMode=0'))).toEqual(['w1']);
    expect((await a.client.get('/projects?netMode=2')).body.code).toBe(16);
  });

  it('sorts by name, createdAt and updatedAt both ways', async () => {
    const a = await createAccount(server);
    const t = server.clock.now().getTime() - 30 * DAY;
    await insertProject(a.id, 'bravo', {
      createdAt: new Date(t + 1 * DAY),
      updatedAt: new Date(t + 9 * DAY),
    });
    await insertProject(a.id, 'Alpha', {
      createdAt: new Date(t + 2 * DAY),
      updatedAt: new Date(t + 7 * DAY),
    });
    await insertProject(a.id, 'charlie', {
      createdAt: new Date(t + 3 * DAY),
      updatedAt: new Date(t + 8 * DAY),
    });
    const sorted = async (sort: string, order: string) => own(await list(a, `?sort=${sort}&order=${order}`));
    expect(await sorted('name', 'asc')).toEqual(['Alpha', 'bravo', 'charlie']);
    expect(await sorted('name', 'desc')).toEqual(['charlie', 'bravo', 'Alpha']);
    expect(await sorted('createdAt', 'asc')).toEqual(['bravo', 'Alpha', 'charlie']);
    expect(await sorted('createdAt', 'desc')).toEqual(['charlie', 'Alpha', 'bravo']);
    expect(await sorted('updatedAt', 'asc')).toEqual(['Alpha', 'charlie', 'bravo']);
    expect(await sorted('updatedAt', 'desc')).toEqual(['bravo', 'charlie', 'Alpha']);
    // The default is the newest first.
    expect(own(await list(a))).toEqual(['charlie', 'Alpha', 'bravo']);
    expect((await a.client.get('/projects?sort=owner')).body.code).toBe(16);
    expect((await a.client.get('/projects?order=up')).body.code).toBe(16);
  });

  it('pages with a stable order and the full total on every page', async () => {
    const a = await createAccount(server);
    const created = new Date(server.clock.now().getTime() - DAY);
    // Equal creation times: the id breaks the tie, so no project is shown twice or skipped.
    for (let i = 0; i < 7; i++) await insertProject(a.id, `pg${i}`, { createdAt: created, netMode: 0 });
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const data = await list(a, `?q=pg&pageSize=3&page=${page}`);
      expect(data).toMatchObject({ total: 7, page, pageSize: 3 });
      seen.push(...data.items.map((p) => p.name));
    }
    expect(seen.sort()).toEqual(['pg0', 'pg1', 'pg2', 'pg3', 'pg4', 'pg5', 'pg6']);
    const past = await list(a, '?q=pg&pageSize=3&page=9');
    expect(past).toMatchObject({ items: [], total: 7, page: 9 });
    for (const bad of ['pageSize=0', 'pageSize=201', 'page=0', 'page=x']) {
      expect((await a.client.get(`/projects?${bad}`)).body.code, bad).toBe(16);
    }
  });

  it("includes the projects shared with the account, with the member's right, and hides expired shares", async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const stranger = await createAccount(server);
    const now = server.clock.now().getTime();
    const ids = {
      ro: await insertProject(owner.id, 'shared-ro'),
      rw: await insertProject(owner.id, 'shared-rw'),
      invited: await insertProject(owner.id, 'shared-inv'),
      timed: await insertProject(owner.id, 'shared-timed'),
      expired: await insertProject(owner.id, 'shared-exp'),
      notShared: await insertProject(owner.id, 'private'),
    };
    const accepted = new Date(now - DAY);
    await server.database.db.insert(projectMembers).values([
      { projectId: ids.ro, accountId: member.id, permission: 'r', acceptedAt: accepted },
      { projectId: ids.rw, accountId: member.id, permission: 'rw', acceptedAt: accepted },
      { projectId: ids.invited, accountId: member.id, permission: 'rw', acceptedAt: null },
      {
        projectId: ids.timed,
        accountId: member.id,
        permission: 'r',
        acceptedAt: accepted,
        expiresAt: new Date(now + DAY),
      },
      {
        projectId: ids.expired,
        accountId: member.id,
        permission: 'rw',
        acceptedAt: accepted,
        expiresAt: new Date(now - 1000),
      },
    ]);
    const page = await list(member, '?sort=name&order=asc');
    const shared = page.items.filter((p) => !p.isDemo);
    expect(shared.map((p) => [p.name, p.right, p.property, p.isShare, p.ownerAccount])).toEqual([
      ['shared-inv', 'r', 'shared_manage', true, owner.email],
      ['shared-ro', 'r', 'shared_read', true, owner.email],
      ['shared-rw', 'rw', 'shared_manage', true, owner.email],
      ['shared-timed', 'r', 'shared_read', true, owner.email],
    ]);
    expect(page.total).toBe(6);
    // The owner sees all six as its own; a stranger sees none of them.
    const mine = await list(owner);
    expect(mine.items.filter((p) => !p.isDemo).every((p) => p.property === 'own' && p.right === 'rw')).toBe(
      true,
    );
    expect(own(mine)).toHaveLength(6);
    expect(own(await list(stranger))).toEqual([]);
  });

  it('needs a session (code 9)', async () => {
    const res = await server.client().get('/projects');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(9);
  });

  it('reads the range from the server clock', async () => {
    const a = await createAccount(server);
    const made = await a.client.post<ProjectView>('/projects', { name: 'clocked', scenario: 'hotel' });
    expect(made.body.code).toBe(0);
    expect(own(await list(a, '?range=15d'))).toEqual(['clocked']);
    server.clock.advance(16 * DAY);
    await signInAgain(server, a);
    expect(own(await list(a, '?range=15d'))).toEqual([]);
    expect(own(await list(a, '?range=1m'))).toEqual(['clocked']);
  });
});
