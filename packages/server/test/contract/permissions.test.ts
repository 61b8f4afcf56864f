import { DEMO_PROJECT_IDS, httpStatusFor, type ProjectView } from '@beacon/protocol';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/db/schema.ts';
import { registeredRoutes } from '../../src/http/route-registry.ts';
import { startTestServer, type TestServer } from '../helpers/harness.ts';
import {
  ACTORS,
  type Cast,
  createCast,
  createSharedProject,
  expectedFor,
  MISSING_PROJECT_ID,
  worldFor,
} from './actors.ts';
import { CONTRACT_RESOURCES, type ContractContext, type ContractResource } from './resources.ts';

const PROJECT_SCOPED = /^\/api\/v1\/projects\/:[^/]+/;

let server: TestServer;
let cast: Cast;

beforeAll(async () => {
  server = await startTestServer();
  cast = await createCast(server);
});
afterAll(() => server?.close());

async function auditCount(projectId: number): Promise<number> {
  const [row] = await server.database.db
    .select({ n: count() })
    .from(auditLog)
    .where(eq(auditLog.projectId, projectId));
  return row.n;
}

describe('every project-scoped route is in the permission contract', () => {
  it('has a contract entry for each route under /api/v1/projects/:id, and no stale entry', () => {
    const routeKey = (method: string, url: string): string => `${method} ${url}`;
    const registered = new Set(
      registeredRoutes(server.app)
        .filter((r) => PROJECT_SCOPED.test(r.url) && r.method !== 'HEAD' && r.method !== 'OPTIONS')
        .map((r) => routeKey(r.method, r.url)),
    );
    expect(registered.size).toBeGreaterThan(0);
    const declared = new Set(
      CONTRACT_RESOURCES.flatMap((res) => res.routes.map((r) => routeKey(r.method, r.pattern))),
    );
    const uncovered = [...registered].filter((key) => !declared.has(key));
    const stale = [...declared].filter((key) => !registered.has(key));
    expect(uncovered, 'routes without a contract entry in test/contract/resources.ts').toEqual([]);
    expect(stale, 'contract entries for routes the app does not have').toEqual([]);
  });
});

function describeResource(resource: ContractResource): void {
  describe(`${resource.name}`, () => {
    for (const route of resource.routes) {
      describe(`${route.method} ${route.pattern} (${route.access})`, () => {
        it.each(ACTORS)('%s', async (actor) => {
          const { world, calledProjectId, client } = await worldFor(server, cast, actor);
          const fixture = (await resource.setup?.(world)) ?? {};
          const ownCtx: ContractContext = { ...world, fixture };
          const ctx: ContractContext = { ...ownCtx, projectId: calledProjectId };
          const stateBefore = await resource.state?.(ownCtx);
          const auditBefore = await auditCount(world.projectId);

          const res = await client.request(route.method, route.path(ctx), route.body?.(ctx));

          const expected = expectedFor(actor, route, route.path(ctx));
          const auditAfter = await auditCount(world.projectId);
          if (expected === 'ok') {
            expect(res.status, JSON.stringify(res.body)).toBe(200);
            expect(res.body.code).toBe(0);
            const rows = route.auditRows ?? (route.access === 'read' ? 0 : 1);
            expect(auditAfter - auditBefore, 'audit rows written').toBe(rows);
          } else {
            expect({ status: res.status, code: res.body.code }, JSON.stringify(res.body)).toEqual({
              status: httpStatusFor(expected),
              code: expected,
            });
            expect(res.body.requestId).toBe(res.headers.get('x-request-id'));
            expect(auditAfter, 'a refused call writes no audit row').toBe(auditBefore);
            if (resource.state)
              expect(await resource.state(ownCtx), 'a refused call changes nothing').toEqual(stateBefore);
          }
        });

        for (const invalid of route.invalid ?? []) {
          it(`refuses ${invalid.label} with ${invalid.code} and changes nothing`, async () => {
            const world = await createSharedProject(server, cast);
            const ctx: ContractContext = { ...world, fixture: (await resource.setup?.(world)) ?? {} };
            const stateBefore = await resource.state?.(ctx);
            const auditBefore = await auditCount(world.projectId);
            const res = await cast.owner.client.request(route.method, route.path(ctx), invalid.body);
            expect(res.body.code, JSON.stringify(res.body)).toBe(invalid.code);
            expect(res.status).toBe(httpStatusFor(invalid.code as Parameters<typeof httpStatusFor>[0]));
            expect(await auditCount(world.projectId)).toBe(auditBefore);
            if (resource.state) expect(await resource.state(ctx)).toEqual(stateBefore);
          });
        }
      });
    }

    it('answers a stranger exactly as it answers an id that does not exist, so ids do not leak', async () => {
      const world = await createSharedProject(server, cast);
      const ctx: ContractContext = { ...world, fixture: (await resource.setup?.(world)) ?? {} };
      const missing: ContractContext = { ...ctx, projectId: MISSING_PROJECT_ID };
      for (const route of resource.routes) {
        const a = await cast.stranger.client.request(route.method, route.path(ctx), route.body?.(ctx));
        const b = await cast.stranger.client.request(
          route.method,
          route.path(missing),
          route.body?.(missing),
        );
        const { requestId: _a, ...bodyA } = a.body;
        const { requestId: _b, ...bodyB } = b.body;
        expect({ status: a.status, ...bodyA }).toEqual({ status: b.status, ...bodyB });
      }
    });
  });
}

describe('permission matrix', () => {
  for (const resource of CONTRACT_RESOURCES) describeResource(resource);
});

describe('project list visibility', () => {
  it('lists the project for everyone who can open it, and for no one else', async () => {
    const world = await createSharedProject(server, cast);
    const sees = async (client: typeof cast.owner.client): Promise<ProjectView | undefined> => {
      const res = await client.get<{ items: ProjectView[] }>(
        '/projects?pageSize=200&sort=createdAt&order=desc',
      );
      return res.body.data.items.find((p) => p.id === world.projectId);
    };
    expect(await sees(cast.owner.client)).toMatchObject({ right: 'rw', property: 'own' });
    expect(await sees(cast.readWrite.client)).toMatchObject({
      right: 'rw',
      property: 'shared_manage',
      isShare: true,
    });
    expect(await sees(cast.readOnly.client)).toMatchObject({
      right: 'r',
      property: 'shared_read',
      isShare: true,
    });
    expect(await sees(cast.inviteeRead.client)).toMatchObject({ right: 'r', property: 'shared_read' });
    expect(await sees(cast.inviteeReadWrite.client)).toMatchObject({ right: 'r', property: 'shared_read' });
    expect(await sees(cast.offered.client)).toBeUndefined();
    expect(await sees(cast.transferee.client)).toBeUndefined();
    expect(await sees(cast.expired.client)).toBeUndefined();
    expect(await sees(cast.expiredGone.client)).toBeUndefined();
    expect(await sees(cast.removed.client)).toBeUndefined();
    expect(await sees(cast.stranger.client)).toBeUndefined();
    const demo = await cast.stranger.client.get<{ items: ProjectView[] }>('/projects');
    expect(demo.body.data.items.map((p) => p.id)).toEqual(
      expect.arrayContaining([DEMO_PROJECT_IDS.WLAN, DEMO_PROJECT_IDS.MESH]),
    );
  });
});
