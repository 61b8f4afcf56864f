import type { AuditView, ProjectView } from '@beacon/protocol';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, customScenarios, projects } from '../src/db/schema.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

type Paged<T> = { items: T[]; total: number; page: number; pageSize: number };

const valid = {
  name: 'Hotel-A',
  netMode: 0,
  scenario: 'hotel',
  location: 'Lisbon',
  address: '1 Main St',
  timeZone: 'Europe/Lisbon',
};

describe('projects: create, read, update, delete', () => {
  let server: TestServer;
  let alice: TestAccount;
  let counter = 0;
  const uniqueName = (): string => `p${++counter}`;

  beforeAll(async () => {
    server = await startTestServer();
    alice = await createAccount(server);
  });
  afterAll(() => server?.close());

  async function storedRow(id: number) {
    const [row] = await server.database.db.select().from(projects).where(eq(projects.id, id));
    return row;
  }

  it('creates a project and answers its view', async () => {
    const res = await alice.client.post<ProjectView>('/projects', valid);
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({
      name: 'Hotel-A',
      netMode: 0,
      scenario: 'hotel',
      location: 'Lisbon',
      address: '1 Main St',
      timeZone: 'Europe/Lisbon',
      right: 'rw',
      isShare: false,
      property: 'own',
      isDemo: false,
      ownerAccount: alice.email,
      deviceCount: 0,
    });
    expect(res.body.data.id).toBeGreaterThanOrEqual(1_000_000);

    const got = await alice.client.get<ProjectView>(`/projects/${res.body.data.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(res.body.data);
  });

  it('fills the defaults: WLAN, time zone +8 (Asia/Shanghai), empty location and address', async () => {
    const res = await alice.client.post<ProjectView>('/projects', { name: uniqueName(), scenario: 'campus' });
    expect(res.body.code).toBe(0);
    expect(res.body.data).toMatchObject({ netMode: 0, timeZone: 'Asia/Shanghai', location: '', address: '' });
  });

  it('takes the creation time from the server clock', async () => {
    const before = server.clock.now().getTime();
    const res = await alice.client.post<ProjectView>('/projects', { name: uniqueName(), scenario: 'hotel' });
    const at = Date.parse(res.body.data.createdAt);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(res.body.data.updatedAt).toBe(res.body.data.createdAt);
  });

  describe('validation', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['an empty name', { name: '' }],
      ['a blank name', { name: '   ' }],
      ['a 17-character name', { name: 'a'.repeat(17) }],
      ['a name with a space', { name: 'a b' }],
      ['a name with an emoji', { name: 'wifi😀' }],
      ['a missing name', { name: undefined }],
      ['netMode 2', { netMode: 2 }],
      ['netMode as a string', { netMode: '1' }],
      ['a time zone not a multiple of 15', { timeZone: 481 }],
      ['a time zone east of +14', { timeZone: 855 }],
      ['a time zone west of -12', { timeZone: -735 }],
      ['a fractional time zone', { timeZone: 480.5 }],
      ['an offset no zone keeps', { timeZone: 15 }],
      ['a time zone not in the IANA list', { timeZone: 'Mars/Olympus_Mons' }],
      ['a time zone in the wrong case', { timeZone: 'asia/shanghai' }],
      ['a bare offset as text', { timeZone: '+08:00' }],
      ['an empty time zone', { timeZone: '' }],
      ['an unknown scenario', { scenario: 'casino' }],
      ['an empty scenario', { scenario: '' }],
      ['a location over 64 characters', { location: 'x'.repeat(65) }],
    ];
    it.each(cases)('refuses %s with code 16 and a field message', async (_label, change) => {
      const res = await alice.client.post('/projects', { ...valid, name: uniqueName(), ...change });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(16);
      const field = Object.keys(change)[0];
      expect(res.body.fields?.[field]).toEqual(expect.any(String));
    });

    it('accepts a 16-character name, IANA zones and old fixed offsets (read as the zone of that offset)', async () => {
      const name = 'B'.repeat(15) + String(counter++ % 10);
      const a = await alice.client.post<ProjectView>('/projects', { ...valid, name, timeZone: -720 });
      expect(a.body.code).toBe(0);
      expect(a.body.data).toMatchObject({ name, timeZone: 'Etc/GMT+12' });
      const b = await alice.client.post<ProjectView>('/projects', {
        ...valid,
        name: uniqueName(),
        timeZone: 840,
      });
      expect(b.body.data.timeZone).toBe('Etc/GMT-14');
      const c = await alice.client.post<ProjectView>('/projects', {
        ...valid,
        name: 'ünïcødé名前',
        timeZone: 345,
      });
      expect(c.body.data.timeZone).toBe('Asia/Kathmandu');
      for (const timeZone of [
        'America/St_Johns',
        'Pacific/Chatham',
        'UTC',
        'Asia/Kolkata',
        'Asia/Calcutta',
      ]) {
        const res = await alice.client.post<ProjectView>('/projects', {
          ...valid,
          name: uniqueName(),
          timeZone,
        });
        expect(res.body.code, timeZone).toBe(0);
        expect(res.body.data.timeZone).toBe(timeZone);
      }
    });

    it('trims the name', async () => {
      const res = await alice.client.post<ProjectView>('/projects', { ...valid, name: '  Trimmed  ' });
      expect(res.body.data.name).toBe('Trimmed');
    });

    it('accepts a custom scenario of the caller, not one of another account', async () => {
      const bob = await createAccount(server);
      await server.database.db.insert(customScenarios).values({ accountId: alice.id, name: 'Stadium' });
      const mine = await alice.client.post<ProjectView>('/projects', {
        ...valid,
        name: uniqueName(),
        scenario: 'Stadium',
      });
      expect(mine.body.code).toBe(0);
      expect(mine.body.data.scenario).toBe('Stadium');
      const theirs = await bob.client.post('/projects', {
        ...valid,
        name: uniqueName(),
        scenario: 'Stadium',
      });
      expect(theirs.body.code).toBe(16);
      expect(theirs.body.fields?.scenario).toBeTruthy();
    });

    it('refuses a duplicate name, case-insensitively, with 5038; another account may use it', async () => {
      const name = uniqueName();
      expect((await alice.client.post('/projects', { ...valid, name })).body.code).toBe(0);
      const dup = await alice.client.post('/projects', { ...valid, name: name.toUpperCase() });
      expect(dup.status).toBe(409);
      expect(dup.body.code).toBe(5038);
      const bob = await createAccount(server);
      expect((await bob.client.post('/projects', { ...valid, name })).body.code).toBe(0);
    });

    it('needs a session (code 9)', async () => {
      const res = await server.client().post('/projects', valid);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(9);
    });
  });

  describe('update', () => {
    let project: ProjectView;
    beforeAll(async () => {
      project = (await alice.client.post<ProjectView>('/projects', { ...valid, name: uniqueName() })).body
        .data;
    });

    it('changes the given fields, keeps the others and moves updatedAt', async () => {
      server.clock.advance(60_000);
      const res = await alice.client.patch<ProjectView>(`/projects/${project.id}`, {
        location: 'Porto',
        timeZone: 'Europe/Berlin',
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        name: project.name,
        location: 'Porto',
        timeZone: 'Europe/Berlin',
        scenario: 'hotel',
      });
      expect(Date.parse(res.body.data.updatedAt)).toBeGreaterThan(Date.parse(project.updatedAt));
      expect(res.body.data.createdAt).toBe(project.createdAt);
      project = res.body.data;
    });

    it('refuses a change of netMode with 16 (the body is strict)', async () => {
      const res = await alice.client.patch(`/projects/${project.id}`, { netMode: 1 });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(16);
    });

    it('leaves the stored row exactly as it was when a PATCH fails', async () => {
      const before = await storedRow(project.id);
      const other = (await alice.client.post<ProjectView>('/projects', { ...valid, name: uniqueName() })).body
        .data;
      const failures = [
        { location: 'Elsewhere', name: 'bad name' },
        { location: 'Elsewhere', timeZone: 7 },
        { location: 'Elsewhere', timeZone: 'Europe/Atlantis' },
        { location: 'Elsewhere', scenario: 'casino' },
        { location: 'Elsewhere', name: other.name.toUpperCase() },
        { location: 'Elsewhere', netMode: 1 },
      ];
      const codes: number[] = [];
      for (const body of failures)
        codes.push((await alice.client.patch(`/projects/${project.id}`, body)).body.code);
      expect(codes).toEqual([16, 16, 16, 16, 5038, 16]);
      expect(await storedRow(project.id)).toEqual(before);
    });

    it('may rename to the same name in another case', async () => {
      const res = await alice.client.patch<ProjectView>(`/projects/${project.id}`, {
        name: project.name.toUpperCase(),
      });
      expect(res.body.code).toBe(0);
      expect(res.body.data.name).toBe(project.name.toUpperCase());
      project = res.body.data;
    });

    it('keeps a custom scenario that no longer exists when it is not changed', async () => {
      await server.database.db.insert(customScenarios).values({ accountId: alice.id, name: 'Gone' });
      const created = (
        await alice.client.post<ProjectView>('/projects', { ...valid, name: uniqueName(), scenario: 'Gone' })
      ).body.data;
      await server.database.db
        .delete(customScenarios)
        .where(and(eq(customScenarios.accountId, alice.id), eq(customScenarios.name, 'Gone')));
      const res = await alice.client.patch(`/projects/${created.id}`, { scenario: 'Gone', location: 'X' });
      expect(res.body.code).toBe(0);
      const changed = await alice.client.patch(`/projects/${created.id}`, { scenario: 'Gone2' });
      expect(changed.body.code).toBe(16);
    });

    it('answers 30 for a project id that does not exist, 16 for one that is not a number', async () => {
      const missing = await alice.client.patch('/projects/99999999', { location: 'x' });
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe(30);
      const bad = await alice.client.get('/projects/abc');
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe(16);
    });
  });

  describe('delete', () => {
    it('deletes the project; it is gone afterwards and its log keeps the delete row', async () => {
      const created = (await alice.client.post<ProjectView>('/projects', { ...valid, name: uniqueName() }))
        .body.data;
      const res = await alice.client.delete<{ id: number }>(`/projects/${created.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ id: created.id });
      expect((await alice.client.get(`/projects/${created.id}`)).body.code).toBe(30);
      expect(await storedRow(created.id)).toBeUndefined();
      // In the order written (a select without ORDER BY has none).
      const rows = await server.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.projectId, created.id))
        .orderBy(asc(auditLog.id));
      expect(rows.map((r) => r.action)).toEqual(['create', 'delete']);
      expect(rows[1].before).toMatchObject({ name: created.name });
      expect(rows[1].after).toBeNull();
    });

    it('frees the name for a new project', async () => {
      const name = uniqueName();
      const created = (await alice.client.post<ProjectView>('/projects', { ...valid, name })).body.data;
      await alice.client.delete(`/projects/${created.id}`);
      expect((await alice.client.post('/projects', { ...valid, name })).body.code).toBe(0);
    });
  });

  describe('audit log', () => {
    it('writes one row per write with before and after, readable at /logs newest first', async () => {
      const created = (await alice.client.post<ProjectView>('/projects', { ...valid, name: uniqueName() }))
        .body.data;
      await alice.client.patch(`/projects/${created.id}`, { location: 'Faro' });
      await alice.client.patch(`/projects/${created.id}`, { location: 'Faro' }); // no change, no row
      await alice.client.patch(`/projects/${created.id}`, { timeZone: 'x' }); // refused, no row
      const res = await alice.client.get<Paged<AuditView>>(`/projects/${created.id}/logs`);
      expect(res.status).toBe(200);
      expect(res.body.data.total).toBe(2);
      const [update, create] = res.body.data.items;
      expect(update).toMatchObject({
        account: alice.email,
        action: 'update',
        entity: 'project',
        entityId: String(created.id),
        before: { location: 'Lisbon' },
        after: { location: 'Faro', name: created.name },
      });
      expect(create).toMatchObject({
        action: 'create',
        before: null,
        after: { name: created.name, scenario: 'hotel' },
      });
      expect(Date.parse(update.at)).toBeGreaterThanOrEqual(Date.parse(create.at));

      const page = await alice.client.get<Paged<AuditView>>(`/projects/${created.id}/logs?page=2&pageSize=1`);
      expect(page.body.data).toMatchObject({ total: 2, page: 2, pageSize: 1 });
      expect(page.body.data.items.map((i) => i.action)).toEqual(['create']);
    });

    it('records the request id of the write', async () => {
      const res = await alice.client.post<ProjectView>('/projects', { ...valid, name: uniqueName() });
      const [row] = await server.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.projectId, res.body.data.id));
      expect(row.requestId).toBe(res.headers.get('x-request-id'));
    });
  });
});

describe('projects: the per-account limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ MAX_PROJECTS_PER_ACCOUNT: '2' });
  });
  afterAll(() => server?.close());

  it('refuses the third project with 5004 and writes nothing; shared and demo projects do not count', async () => {
    const carol = await createAccount(server);
    expect((await carol.client.post('/projects', { ...valid, name: 'one' })).body.code).toBe(0);
    expect((await carol.client.post('/projects', { ...valid, name: 'two' })).body.code).toBe(0);
    const third = await carol.client.post('/projects', { ...valid, name: 'three' });
    expect(third.status).toBe(409);
    expect(third.body.code).toBe(5004);
    const own = await server.database.db.select().from(projects).where(eq(projects.ownerId, carol.id));
    expect(own).toHaveLength(2);
    const audits = await server.database.db.select().from(auditLog).where(eq(auditLog.accountId, carol.id));
    expect(audits).toHaveLength(2);
  });

  it('counts concurrent creations correctly', async () => {
    const dave = await createAccount(server);
    const results = await Promise.all(
      ['c1', 'c2', 'c3', 'c4'].map((name) => dave.client.post('/projects', { ...valid, name })),
    );
    expect(results.map((r) => r.body.code).sort()).toEqual([0, 0, 5004, 5004]);
  });

  it('answers 5038 to concurrent creations with one name', async () => {
    const erin = await createAccount(server);
    const results = await Promise.all(
      [0, 1].map(() => erin.client.post('/projects', { ...valid, name: 'same' })),
    );
    expect(results.map((r) => r.body.code).sort()).toEqual([0, 5038]);
  });
});
