import { apiKeyMayCall, isWriteMethod, type ProjectView } from '@beacon/protocol';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, auditLog } from '../src/db/schema.ts';
import { registeredRoutes } from '../src/http/route-registry.ts';
import { startServer } from '../src/server.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { HttpClient, startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Issue 15: the openapi access type on the server (docs/decisions/0058). An API key reaches only the
 * routes whose screens allow openapi in SPEC.md §2 (5090 elsewhere); a read-only key reads (5440); a
 * key limited to projects reaches only those (5442); an expired key is an old token (10); each key
 * has a per-minute rate counted in PostgreSQL, so two server instances agree (5441).
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;

beforeAll(async () => {
  server = await startTestServer();
  owner = await createAccount(server);
  projectId = await newProject(owner, 'keyed');
});
afterAll(() => server?.close());

async function newProject(account: TestAccount, name: string): Promise<number> {
  const res = await account.client.post<ProjectView>('/projects', { name, scenario: 'hotel' });
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data.id;
}

async function newKey(account: TestAccount, body: Record<string, unknown>): Promise<HttpClient> {
  const res = await account.client.post<{ key: string }>('/account/api-keys', { name: 'k', ...body });
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  const client = server.client();
  client.bearer = res.body.data.key;
  return client;
}

async function auditRows(): Promise<number> {
  const [row] = await server.database.db.select({ n: count() }).from(auditLog);
  return row.n;
}

/** Every registered /api/v1 route, its params filled in with the owner's project and dummy values. */
function everyRoute(): { method: string; url: string; path: string }[] {
  return registeredRoutes(server.app)
    .filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD' && r.method !== 'OPTIONS')
    .map((r) => ({
      method: r.method,
      url: r.url,
      path: r.url
        .slice('/api/v1'.length)
        .replace(':id', String(projectId))
        .replace(/:action/, 'locate')
        .replace(/:kind/, 'share')
        .replace(/:[A-Za-z]+/g, '1')
        .replace('*', 'x'),
    }));
}

describe('which routes an API key reaches (SPEC.md §2 access)', () => {
  it('answers 5090 on every web-only route and lets every openapi route through to its own checks', async () => {
    const key = await newKey(owner, { scope: 'read-write', ratePerMinute: 6000 });
    const routes = everyRoute();
    const open = routes.filter((r) => apiKeyMayCall(r.method, r.url));
    const webOnly = routes.filter((r) => !apiKeyMayCall(r.method, r.url));
    // The openapi screens' routes: status, maintenance, wired items, data, log, alarm, backup.
    expect(open.length).toBeGreaterThan(40);
    expect(webOnly.length).toBeGreaterThan(30);
    for (const r of webOnly) {
      const before = await auditRows();
      const res = await key.request(r.method, r.path, isWriteMethod(r.method) ? {} : undefined);
      expect({ route: `${r.method} ${r.url}`, status: res.status, code: res.body?.code }).toEqual({
        route: `${r.method} ${r.url}`,
        status: 403,
        code: 5090,
      });
      expect(await auditRows(), `${r.method} ${r.url} wrote nothing`).toBe(before);
    }
    for (const r of open) {
      if (r.url.endsWith('/events') || r.url.includes('/remote/')) continue;
      const res = await key.request(r.method, r.path, isWriteMethod(r.method) ? {} : undefined);
      expect({ route: `${r.method} ${r.url}`, code: res.body?.code }).not.toEqual({
        route: `${r.method} ${r.url}`,
        code: 5090,
      });
      expect(res.status, `${r.method} ${r.url}`).not.toBe(401);
    }
    // Named examples of both sides.
    expect((await key.get(`/projects/${projectId}/alarms`)).body.code).toBe(0);
    expect((await key.get(`/projects/${projectId}/stats/status`)).body.code).toBe(0);
    expect((await key.get(`/projects/${projectId}/network`)).body.code).toBe(0);
    expect((await key.get(`/projects/${projectId}/wifi`)).body.code).toBe(5090);
    expect((await key.get(`/projects/${projectId}/rf`)).body.code).toBe(5090);
    expect((await key.get(`/projects/${projectId}/overview`)).body.code).toBe(5090);
    expect((await key.get('/account/subordinates')).body.code).toBe(5090);
  });

  it('a read-only key reads the openapi routes and answers 5440 on every write among them', async () => {
    const key = await newKey(owner, { ratePerMinute: 6000 });
    const before = await auditRows();
    for (const r of everyRoute().filter((x) => apiKeyMayCall(x.method, x.url))) {
      if (r.url.endsWith('/events') || r.url.includes('/remote/')) continue;
      const res = await key.request(r.method, r.path, isWriteMethod(r.method) ? {} : undefined);
      if (isWriteMethod(r.method)) {
        expect({ route: `${r.method} ${r.url}`, status: res.status, code: res.body.code }).toEqual({
          route: `${r.method} ${r.url}`,
          status: 403,
          code: 5440,
        });
      } else {
        expect([5090, 5440], `${r.method} ${r.url}`).not.toContain(res.body?.code);
      }
    }
    expect(await auditRows()).toBe(before);
    expect((await key.get(`/projects/${projectId}/backups`)).body.code).toBe(0);
  });

  it('the OpenAPI document says which routes a key may call, from the same table', async () => {
    const doc = (await server.client().get('/openapi.json')).body as unknown as {
      paths: Record<string, Record<string, { 'x-beacon-api-key': string; security: unknown[] }>>;
    };
    const alarms = doc.paths['/api/v1/projects/{id}/alarms'];
    expect(alarms.get['x-beacon-api-key']).toBe('read');
    expect(alarms.get.security).toEqual([{ cookie: [] }, { bearer: [] }]);
    expect(doc.paths['/api/v1/projects/{id}/alarms/read'].post['x-beacon-api-key']).toBe('read-write');
    expect(doc.paths['/api/v1/projects/{id}/wifi'].get['x-beacon-api-key']).toBe('none');
    expect(doc.paths['/api/v1/projects/{id}/wifi'].get.security).toEqual([{ cookie: [] }]);
    expect(doc.paths['/api/v1/account/api-keys'].post['x-beacon-api-key']).toBe('none');
  });
});

describe('API key settings', () => {
  it('a key limited to projects reaches only those (5442), lists only those, and must name visible projects', async () => {
    const other = await newProject(owner, 'other');
    const key = await newKey(owner, { scope: 'read-write', projectIds: [projectId] });
    expect((await key.get(`/projects/${projectId}`)).body.code).toBe(0);
    expect((await key.get(`/projects/${projectId}/alarms`)).body.code).toBe(0);
    const refused = await key.get(`/projects/${other}/alarms`);
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 5442 });
    expect((await key.get(`/projects/${other}`)).body.code).toBe(5442);
    const list = await key.get<{ items: ProjectView[] }>('/projects?pageSize=200');
    expect(list.body.data.items.map((p) => p.id)).toEqual([projectId]);
    const stranger = await createAccount(server);
    const foreign = await newProject(stranger, 'foreign');
    const bad = await owner.client.post('/account/api-keys', { name: 'x', projectIds: [foreign] });
    expect(bad.body.code).toBe(30);
    const keys =
      await owner.client.get<{ projectIds: number[] | null; scope: string }[]>('/account/api-keys');
    expect(keys.body.data.at(-1)).toMatchObject({ projectIds: [projectId], scope: 'read-write' });
  });

  it('an expired key answers 10; an expiry in the past is refused with 5448', async () => {
    const inAnHour = new Date(server.clock.now().getTime() + 3600_000).toISOString();
    const key = await newKey(owner, { expiresAt: inAnHour });
    expect((await key.get('/account')).body.code).toBe(0);
    const past = await owner.client.post('/account/api-keys', {
      name: 'late',
      expiresAt: new Date(server.clock.now().getTime() - 1000).toISOString(),
    });
    expect({ status: past.status, code: past.body.code }).toEqual({ status: 400, code: 5448 });
    server.clock.advance(2 * 3600_000);
    try {
      const res = await key.get('/account');
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 10 });
    } finally {
      server.clock.advance(-2 * 3600_000);
    }
  });

  it('records when a key was last used', async () => {
    const res = await owner.client.post<{ id: number; key: string }>('/account/api-keys', { name: 'used' });
    const key = server.client();
    key.bearer = res.body.data.key;
    const [before] = await server.database.db
      .select({ at: apiKeys.lastUsedAt })
      .from(apiKeys)
      .where(eq(apiKeys.id, res.body.data.id));
    expect(before.at).toBeNull();
    expect((await key.get('/account')).body.code).toBe(0);
    const list = await owner.client.get<{ id: number; lastUsedAt: string | null }[]>('/account/api-keys');
    expect(list.body.data.find((k) => k.id === res.body.data.id)?.lastUsedAt).not.toBeNull();
  });
});

describe('per-key rate limit, shared by every server instance', () => {
  it('counts the calls of one key on two instances together and answers 5441 past the rate', async () => {
    const second = await startServer({ ...server.config, port: 0 }, { now: server.clock.now });
    try {
      const res = await owner.client.post<{ key: string }>('/account/api-keys', {
        name: 'rated',
        ratePerMinute: 6,
      });
      // Far from a minute boundary, so all calls fall into one window.
      const msIntoMinute = server.clock.now().getTime() % 60_000;
      if (msIntoMinute > 45_000) server.clock.advance(60_000 - msIntoMinute + 1000);
      const a = server.client();
      const b = new HttpClient(second.url);
      a.bearer = res.body.data.key;
      b.bearer = res.body.data.key;
      const answers = [];
      for (let i = 0; i < 3; i++) {
        answers.push(await a.get('/account'));
        answers.push(await b.get('/account'));
      }
      expect(answers.map((r) => r.body.code)).toEqual([0, 0, 0, 0, 0, 0]);
      expect(answers[5].headers.get('x-ratelimit-remaining')).toBe('0');
      const over = await b.get('/account');
      expect({ status: over.status, code: over.body.code }).toEqual({ status: 429, code: 5441 });
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await a.get('/account')).body.code).toBe(5441);
      // The next minute starts a new window.
      server.clock.advance(60_000);
      expect((await a.get('/account')).body.code).toBe(0);
      // Other keys and web sessions are not counted with it.
      expect((await owner.client.get('/account')).body.code).toBe(0);
    } finally {
      await second.close();
    }
  });
});
