import { generateSolution, SolutionInput } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import {
  accounts,
  apiKeys,
  customScenarios,
  projectMembers,
  projects,
  solutionShares,
  solutions,
} from '../../src/db/schema.ts';
import { createAccount, type TestAccount } from '../helpers/accounts.ts';
import type { TestServer } from '../helpers/harness.ts';

/**
 * The bad-input contract (bad-input.test.ts) for the routes OUTSIDE /api/v1/projects/:id; the
 * project routes join it through their permission entry in resources.ts (one entry, both suites).
 *
 * An entry is a route as registered, how to call it validly (path and, for POST/PUT/PATCH, a valid
 * body) and who calls. The suite derives every bad request from it: the string fields are the valid
 * body's string leaves, the id parameters are the path segments whose valid value is all digits, the
 * query values are those of the valid path. Nothing else needs declaring. The suite sends the valid
 * call last, to check that it passes validation: it must not leave work running after its answer.
 *
 * Adding a route outside /api/v1/projects/:id: append one InputRoute to INPUT_ROUTES.
 */

export interface InputWorld {
  server: TestServer;
  /** The signed-in account that calls (caller 'account'), fresh for the suite. */
  account: TestAccount;
}

export interface InputContext extends InputWorld {
  fixture: Record<string, unknown>;
}

export interface InputRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The URL pattern exactly as the route is registered, e.g. '/api/v1/account/scenarios/:id'. */
  pattern: string;
  /** 'account' (default): the suite's signed-in account; 'anonymous': no session. */
  caller?: 'account' | 'anonymous';
  /**
   * Creates what the route needs (e.g. the scenario to delete), straight in the database. A
   * `session` it returns (a token) calls instead of the suite's account: for routes that would end
   * the shared session if they wrongly accepted a bad request.
   */
  setup?(world: InputWorld): Promise<Record<string, unknown>>;
  /** The full path to call, from the root (e.g. '/api/v1/auth/login'), with a valid query if any. */
  path(ctx: InputContext): string;
  /** A valid body: a JSON value or a FormData (multipart uploads). */
  body?(ctx: InputContext): unknown;
}

const PASSWORD = 'secret-pass-1';
/** A 1×1 PNG: a valid avatar. */
const PNG = Uint8Array.from(
  Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==',
    'base64',
  ),
);

let counter = 0;
const freshEmail = (tag: string): string => `${tag}-${++counter}-${process.pid}@example.com`;

/** A fresh account of its own, signed in. */
async function ownSession({ server }: InputWorld): Promise<Record<string, unknown>> {
  const own = await createAccount(server, { password: PASSWORD });
  return { session: own.client.cookieToken };
}

const SOLUTION_INPUT = {
  scenario: 'hotel',
  rooms: 20,
  dormitories: 0,
  classrooms: 0,
  offices: 0,
  wards: 0,
  area: 500,
  floors: 2,
  clientsPerRoom: 2,
  corridorLength: 0,
  installHeight: 3,
  broadband: 300,
  maxBandwidthPerLine: 300,
  connectedClients: 0,
  apModel: 'BA-W1200C',
  gatewayModel: 'BG-R3000P',
  accessSwitchModel: 'BS-S2024P',
  coreSwitchModel: 'BS-S2024P',
  overrides: { aps: 20 },
};

/** A solution of the suite's account, straight in the database. */
async function ownSolution({ server, account }: InputWorld): Promise<Record<string, unknown>> {
  const input = SolutionInput.parse(SOLUTION_INPUT);
  const [row] = await server.database.db
    .insert(solutions)
    .values({
      ownerId: account.id,
      name: `Sol${++counter}`,
      scenario: 'hotel',
      input,
      recommendation: generateSolution(input),
    })
    .returning({ id: solutions.id });
  return { id: row.id };
}

/** A subordinate account of the suite's account, straight in the database. */
async function subordinateOf({ server, account }: InputWorld): Promise<Record<string, unknown>> {
  const email = freshEmail('sub');
  const [row] = await server.database.db
    .insert(accounts)
    .values({
      account: email,
      email,
      nick: 'sub',
      passwordHash: 'x',
      cloudId: `SUB${++counter}${process.pid}`,
      parentId: account.id,
      level: 1,
    })
    .returning({ id: accounts.id });
  return { id: row.id };
}

/** A subordinate account and a project of the suite's account to give it. */
async function subordinateWithProject(world: InputWorld): Promise<Record<string, unknown>> {
  const { id } = await subordinateOf(world);
  const [project] = await world.server.database.db
    .insert(projects)
    .values({ ownerId: world.account.id, name: `given${++counter}`, scenario: 'hotel' })
    .returning({ id: projects.id });
  return { id, projectId: project.id };
}

/** A GET that takes no input of its own (documents, templates, probes). */
const plainGet = (pattern: string, caller: InputRoute['caller'] = 'anonymous'): InputRoute => ({
  method: 'GET',
  pattern,
  caller,
  path: () => pattern.replace('*', 'index.html'),
});

export const INPUT_ROUTES: InputRoute[] = [
  // ── auth (src/auth/routes.ts)
  {
    method: 'POST',
    pattern: '/api/v1/auth/codes',
    caller: 'anonymous',
    path: () => '/api/v1/auth/codes',
    // A reset for an unknown address: valid, and no mail is written after the answer (the suite's
    // valid call would otherwise race the next route's fingerprint).
    body: () => ({ email: freshEmail('codes'), purpose: 'reset' }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/auth/signup',
    caller: 'anonymous',
    path: () => '/api/v1/auth/signup',
    body: () => ({
      email: freshEmail('signup'),
      password: PASSWORD,
      confirmPassword: PASSWORD,
      code: '123456',
      nick: 'newcomer',
    }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/auth/login',
    caller: 'anonymous',
    path: () => '/api/v1/auth/login',
    body: (c) => ({ account: c.account.email, password: PASSWORD, remember: true, force: false }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/auth/logout',
    setup: ownSession,
    path: () => '/api/v1/auth/logout',
  },
  plainGet('/api/v1/auth/session', 'account'),
  {
    method: 'POST',
    pattern: '/api/v1/auth/reset',
    caller: 'anonymous',
    path: () => '/api/v1/auth/reset',
    body: (c) => ({ email: c.account.email, code: '123456', password: PASSWORD, confirmPassword: PASSWORD }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/auth/invitation',
    caller: 'anonymous',
    path: () => '/api/v1/auth/invitation',
    body: () => ({
      email: freshEmail('invited'),
      token: 'a'.repeat(43),
      password: PASSWORD,
      confirmPassword: PASSWORD,
    }),
  },

  // ── account (src/accounts/routes.ts)
  plainGet('/api/v1/account', 'account'),
  {
    method: 'PATCH',
    pattern: '/api/v1/account',
    path: () => '/api/v1/account',
    body: () => ({ nick: 'renamed', companyName: 'Acme', companyLocation: 'Lyon', remindTags: ['wifi'] }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/account/avatar',
    path: () => '/api/v1/account/avatar',
    body: () => {
      const form = new FormData();
      form.append('file', new Blob([PNG], { type: 'image/png' }), 'me.png');
      return form;
    },
  },
  {
    method: 'GET',
    pattern: '/api/v1/accounts/:id/avatar',
    path: (c) => `/api/v1/accounts/${c.account.id}/avatar?v=1`,
  },
  {
    method: 'POST',
    pattern: '/api/v1/account/password',
    setup: ownSession,
    path: () => '/api/v1/account/password',
    body: () => ({ oldPassword: PASSWORD, password: 'other-pass-2', confirmPassword: 'other-pass-2' }),
  },
  plainGet('/api/v1/account/scenarios', 'account'),
  {
    method: 'POST',
    pattern: '/api/v1/account/scenarios',
    path: () => '/api/v1/account/scenarios',
    body: () => ({ name: 'Stadium' }),
  },
  {
    method: 'DELETE',
    pattern: '/api/v1/account/scenarios/:id',
    async setup({ server, account }) {
      const [row] = await server.database.db
        .insert(customScenarios)
        .values({ accountId: account.id, name: `Scn${++counter}` })
        .returning({ id: customScenarios.id });
      return { id: row.id };
    },
    path: (c) => `/api/v1/account/scenarios/${c.fixture.id}`,
  },
  plainGet('/api/v1/account/api-keys', 'account'),
  {
    method: 'POST',
    pattern: '/api/v1/account/api-keys',
    path: () => '/api/v1/account/api-keys',
    body: () => ({ name: 'ci-key', scope: 'read', expiresAt: '2099-01-01T00:00:00.000Z', ratePerMinute: 60 }),
  },
  {
    method: 'DELETE',
    pattern: '/api/v1/account/api-keys/:id',
    async setup({ server, account }) {
      const [row] = await server.database.db
        .insert(apiKeys)
        .values({ accountId: account.id, name: `key${++counter}`, prefix: 'bk_test', keyHash: `h${counter}` })
        .returning({ id: apiKeys.id });
      return { id: row.id };
    },
    path: (c) => `/api/v1/account/api-keys/${c.fixture.id}`,
  },

  // ── sign-in methods (src/auth/identity-routes.ts): this suite's server has no OIDC provider, so
  // the social starts answer 5423 and the callback 5422; the second-factor checks answer 5429/5430.
  plainGet('/api/v1/auth/social/providers'),
  {
    method: 'POST',
    pattern: '/api/v1/auth/social/:provider/start',
    caller: 'anonymous',
    path: () => '/api/v1/auth/social/google/start',
    body: () => ({ remember: true, force: false }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/auth/phone/code',
    caller: 'anonymous',
    path: () => '/api/v1/auth/phone/code',
    body: () => ({ regionCode: '86', phone: `1390013${String(++counter).padStart(4, '0')}` }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/auth/phone/login',
    caller: 'anonymous',
    path: () => '/api/v1/auth/phone/login',
    body: () => ({
      regionCode: '86',
      phone: '13900139000',
      password: PASSWORD,
      remember: true,
      force: false,
    }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/auth/social/callback',
    caller: 'anonymous',
    path: () => '/api/v1/auth/social/callback',
    body: () => ({ search: '?code=abc&state=def' }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/auth/second-factor',
    caller: 'anonymous',
    path: () => '/api/v1/auth/second-factor',
    body: () => ({ code: '123456' }),
  },
  plainGet('/api/v1/account/security', 'account'),
  {
    method: 'POST',
    pattern: '/api/v1/account/identities/:provider',
    path: () => '/api/v1/account/identities/wechat',
  },
  {
    method: 'DELETE',
    pattern: '/api/v1/account/identities/:provider',
    path: () => '/api/v1/account/identities/facebook',
  },
  {
    method: 'PUT',
    pattern: '/api/v1/account/single-session',
    // Turning it on ends the account's other sessions: an account of its own.
    setup: ownSession,
    path: () => '/api/v1/account/single-session',
    body: () => ({ enabled: true }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/account/two-factor/setup',
    path: () => '/api/v1/account/two-factor/setup',
  },
  {
    method: 'POST',
    pattern: '/api/v1/account/two-factor/enable',
    setup: ownSession,
    path: () => '/api/v1/account/two-factor/enable',
    body: () => ({ code: '123456' }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/account/two-factor/disable',
    path: () => '/api/v1/account/two-factor/disable',
    body: () => ({ code: 'abcd-efgh' }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/account/two-factor/recovery-codes',
    path: () => '/api/v1/account/two-factor/recovery-codes',
    body: () => ({ code: '123456' }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/account/phone/code',
    path: () => '/api/v1/account/phone/code',
    body: () => ({ regionCode: '86', phone: `1380013${String(++counter).padStart(4, '0')}` }),
  },
  {
    method: 'PUT',
    pattern: '/api/v1/account/phone',
    path: () => '/api/v1/account/phone',
    body: () => ({ regionCode: '86', phone: '13800138000', code: '1234' }),
  },
  { method: 'DELETE', pattern: '/api/v1/account/phone', path: () => '/api/v1/account/phone' },
  // ── the help centre's documents (src/help/routes.ts)
  plainGet('/api/v1/help/device-protocol.yaml'),

  // ── account management and the joining alert (src/team/routes.ts)
  plainGet('/api/v1/account/subordinates', 'account'),
  {
    method: 'POST',
    pattern: '/api/v1/account/subordinates',
    path: () => '/api/v1/account/subordinates',
    body: () => ({ email: freshEmail('sub'), nick: 'subnick', role: 1, level: 1 }),
  },
  {
    method: 'PATCH',
    pattern: '/api/v1/account/subordinates/:id',
    setup: subordinateOf,
    path: (c) => `/api/v1/account/subordinates/${c.fixture.id}`,
    body: () => ({ nick: 'renamed', role: 0, level: 1 }),
  },
  {
    method: 'DELETE',
    pattern: '/api/v1/account/subordinates/:id',
    setup: subordinateOf,
    path: (c) => `/api/v1/account/subordinates/${c.fixture.id}`,
  },
  {
    method: 'POST',
    pattern: '/api/v1/account/subordinates/:id/invitation',
    setup: subordinateOf,
    path: (c) => `/api/v1/account/subordinates/${c.fixture.id}/invitation`,
  },
  {
    method: 'POST',
    pattern: '/api/v1/account/subordinates/:id/projects',
    setup: subordinateWithProject,
    path: (c) => `/api/v1/account/subordinates/${c.fixture.id}/projects`,
    body: (c) => ({ projectId: c.fixture.projectId, permission: 'r' }),
  },
  {
    method: 'DELETE',
    pattern: '/api/v1/account/subordinates/:id/projects/:projectId',
    async setup(world) {
      const fixture = await subordinateWithProject(world);
      await world.server.database.db.insert(projectMembers).values({
        projectId: fixture.projectId as number,
        accountId: fixture.id as number,
        permission: 'r',
        via: 'subordinate',
        acceptedAt: new Date(),
      });
      return fixture;
    },
    path: (c) => `/api/v1/account/subordinates/${c.fixture.id}/projects/${c.fixture.projectId}`,
  },
  plainGet('/api/v1/account/joined-devices', 'account'),
  {
    method: 'POST',
    pattern: '/api/v1/account/joined-devices/seen',
    path: () => '/api/v1/account/joined-devices/seen',
    body: () => ({ through: '2026-01-01T00:00:00.000Z' }),
  },

  // ── projects outside one project (src/projects/routes.ts)
  {
    method: 'GET',
    pattern: '/api/v1/projects',
    path: () => '/api/v1/projects?page=1&pageSize=20&q=lobby&sort=name&order=asc&netMode=0',
  },
  {
    method: 'POST',
    pattern: '/api/v1/projects',
    path: () => '/api/v1/projects',
    body: () => ({
      name: `Site${++counter}`,
      netMode: 0,
      scenario: 'hotel',
      location: 'Lyon',
      address: '1 Main St',
      timeZone: 60,
    }),
  },

  // ── devices outside a project (src/devices/routes.ts)
  plainGet('/api/v1/devices/import-template', 'account'),

  // ── invitations (src/sharing/routes.ts)
  { method: 'GET', pattern: '/api/v1/invites/:code', path: () => '/api/v1/invites/ABCDEFGHJKLM' },
  {
    method: 'POST',
    pattern: '/api/v1/invites/:code/accept',
    path: () => '/api/v1/invites/ABCDEFGHJKLM/accept',
  },

  // ── share and transfer offers to the calling account (src/sharing/routes.ts)
  { method: 'GET', pattern: '/api/v1/offers', path: () => '/api/v1/offers' },
  {
    method: 'POST',
    pattern: '/api/v1/offers/:kind/:projectId/accept',
    path: () => '/api/v1/offers/share/123456/accept',
  },
  {
    method: 'POST',
    pattern: '/api/v1/offers/:kind/:projectId/decline',
    path: () => '/api/v1/offers/transfer/123456/decline',
  },

  // ── remote management and firmware downloads (src/maintenance/routes.ts)
  {
    method: 'GET',
    pattern: '/api/v1/remote/:token/*',
    path: () => `/api/v1/remote/${'a'.repeat(32)}/status.html?tab=wifi`,
  },
  {
    method: 'GET',
    pattern: '/api/v1/firmware/:fid/download',
    caller: 'anonymous',
    path: () => '/api/v1/firmware/12/download?sn=CTFIRMWARE0000001&exp=1900000000&sig=abcdef',
  },

  // ── solutions (src/solutions/routes.ts)
  plainGet('/api/v1/solutions', 'account'),
  {
    method: 'POST',
    pattern: '/api/v1/solutions/generate',
    path: () => '/api/v1/solutions/generate',
    body: () => ({ input: SOLUTION_INPUT }),
  },
  {
    method: 'POST',
    pattern: '/api/v1/solutions',
    path: () => '/api/v1/solutions',
    body: () => ({ name: 'Contract hotel', input: SOLUTION_INPUT }),
  },
  {
    method: 'GET',
    pattern: '/api/v1/solutions/:solutionId',
    setup: ownSolution,
    path: (c) => `/api/v1/solutions/${c.fixture.id}`,
  },
  {
    method: 'PUT',
    pattern: '/api/v1/solutions/:solutionId',
    setup: ownSolution,
    path: (c) => `/api/v1/solutions/${c.fixture.id}`,
    body: () => ({ name: 'Contract hotel 2', input: SOLUTION_INPUT }),
  },
  {
    method: 'DELETE',
    pattern: '/api/v1/solutions/:solutionId',
    setup: ownSolution,
    path: (c) => `/api/v1/solutions/${c.fixture.id}`,
  },
  {
    method: 'GET',
    pattern: '/api/v1/solutions/:solutionId/pdf',
    setup: ownSolution,
    path: (c) => `/api/v1/solutions/${c.fixture.id}/pdf`,
  },
  {
    method: 'GET',
    pattern: '/api/v1/solutions/:solutionId/shares',
    setup: ownSolution,
    path: (c) => `/api/v1/solutions/${c.fixture.id}/shares`,
  },
  {
    method: 'POST',
    pattern: '/api/v1/solutions/:solutionId/shares',
    async setup(world) {
      const fixture = await ownSolution(world);
      const peer = await createAccount(world.server, { password: PASSWORD });
      return { ...fixture, peer: peer.email };
    },
    path: (c) => `/api/v1/solutions/${c.fixture.id}/shares`,
    body: (c) => ({ account: c.fixture.peer }),
  },
  {
    method: 'DELETE',
    pattern: '/api/v1/solutions/:solutionId/shares/:accountId',
    async setup(world) {
      const fixture = await ownSolution(world);
      const peer = await createAccount(world.server, { password: PASSWORD });
      await world.server.database.db
        .insert(solutionShares)
        .values({ solutionId: fixture.id as number, accountId: peer.id });
      return { ...fixture, peer: peer.id };
    },
    path: (c) => `/api/v1/solutions/${c.fixture.id}/shares/${c.fixture.peer}`,
  },

  // ── reports and the model list (src/reports/routes.ts, src/models/routes.ts)
  {
    method: 'GET',
    pattern: '/api/v1/reports/activated-devices',
    path: () =>
      '/api/v1/reports/activated-devices?rows=model&columns=location&brand=Beacon&type=ap&model=BA-W1200C&location=Lyon&projectId=1000000',
  },
  {
    method: 'GET',
    pattern: '/api/v1/reports/activated-devices/export',
    path: () => '/api/v1/reports/activated-devices/export?rows=type&columns=brand&location=Lyon',
  },
  { method: 'GET', pattern: '/api/v1/models', path: () => '/api/v1/models?q=poe&type=switch' },
  {
    method: 'POST',
    pattern: '/api/v1/models',
    async setup({ server, account }) {
      await server.database.db.update(accounts).set({ role: 2 }).where(eq(accounts.id, account.id));
      return {};
    },
    path: () => '/api/v1/models',
    body: () => ({
      model: `CT-M${++counter}`,
      brand: 'Contract',
      type: 'switch',
      description: 'A contract switch',
      ports: 10,
      poePorts: 8,
      poeBudget: 120,
      bands: [],
      minVlan: 2,
      maxVlan: 4094,
      capabilities: ['poe', 'vlan'],
    }),
  },
  { method: 'GET', pattern: '/api/v1/models/:model/image', path: () => '/api/v1/models/BA-W1200C/image' },

  // ── live events, development outbox, documents and probes
  plainGet('/api/v1/events', 'account'),
  {
    method: 'GET',
    pattern: '/api/v1/dev/outbox',
    caller: 'anonymous',
    path: (c) => `/api/v1/dev/outbox?email=${encodeURIComponent(c.account.email)}`,
  },
  plainGet('/api/v1/health'),
  plainGet('/api/v1/openapi.json'),
];
