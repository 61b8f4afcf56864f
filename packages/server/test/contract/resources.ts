import { createHash } from 'node:crypto';
import { buildFirmwareImage, isDemoProjectId, type LinkNeighbour } from '@beacon/protocol';
import * as XLSX from '@e965/xlsx';
import { asc, eq, inArray } from 'drizzle-orm';
import { buildBackupFile } from '../../src/backups/file.ts';
import {
  accounts,
  alarmSettings,
  alarms,
  alarmWindows,
  backupSettings,
  clientBlacklist,
  configBackups,
  configRevisions,
  dataScreens,
  deviceLinks,
  devices,
  firmwareImages,
  floorPlans,
  networkRevisions,
  onlineClients,
  projectLogSettings,
  projectMembers,
  projects,
  projectTransfers,
  rebootSchedules,
  rfRuns,
  rfSettings,
  shareOffers,
  topologyNodeTypes,
  wifiRevisions,
} from '../../src/db/schema.ts';
import { selectDevices } from '../../src/devices/row.ts';
import { insertDevice } from '../devices.helpers.ts';
import type { TestServer } from '../helpers/harness.ts';
import { buildPng } from '../helpers/png.ts';

/**
 * The contract suites (DESIGN.md "Tests", after NetBox's generic API tests). Every route under
 * /api/v1/projects/:id is declared here once, with how to call it validly and whether it reads or
 * writes; two suites run from that one entry:
 *
 * - permissions.test.ts runs each route for every actor (owner, members, invitees, stranger, demo
 *   project, no session);
 * - bad-input.test.ts calls each route as the owner with malformed input derived from the valid
 *   call — bodies over 1 MB, malformed JSON, wrong types and NUL bytes in every leaf of `body`, NUL
 *   in every path parameter and query value of `path`, ids out of range in every all-digit path
 *   segment — and wants a 4xx catalogue code and no stored change for each.
 *
 * Both fail when the app registers a route that no entry covers. Routes outside a project (auth,
 * account, invitations, downloads …) are declared in inputs.ts for the bad-input suite.
 *
 * Adding project routes (e.g. a configuration domain): append one ContractResource to
 * CONTRACT_RESOURCES with a `setup` that creates what the routes act on, a `state` a refused call
 * must leave unchanged, and per route its `path` and a valid `body`. Give the body every field a
 * client may send, so that each one is probed with bad input; the suites need nothing else.
 */

/**
 * read: everyone who can see the project; write: owner and read-write members; owner: the owner
 * only; share: the owner only, read-only callers hear 5032 (sharing); member: anyone who can see
 * the project but its owner (leaving it); transfer: the owner only, others hear 2103.
 */
export type RouteAccess = 'read' | 'write' | 'owner' | 'share' | 'member' | 'transfer';

export interface ProjectWorld {
  server: TestServer;
  projectId: number;
  /** The project's owner account id (the system account for the demo project). */
  ownerId: number;
}

export interface ContractContext extends ProjectWorld {
  /** What the resource's setup returned (e.g. the id of a sub-resource to read or change). */
  fixture: Record<string, unknown>;
}

export interface ContractRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The URL pattern exactly as the route is registered, e.g. '/api/v1/projects/:id/logs'. */
  pattern: string;
  access: RouteAccess;
  /** The path to call, below /api/v1. */
  path(ctx: ContractContext): string;
  /** A valid body (POST, PUT, PATCH). */
  body?(ctx: ContractContext): unknown;
  /** Audit rows a successful call leaves in the project's log: 1 for a write (invariant 2), 0 for a read. */
  auditRows?: number;
  /**
   * More valid calls of the same route whose input bad-input.test.ts probes too (e.g. each action's
   * parameters on the action route); the permission suite does not use them.
   */
  variants?(ctx: ContractContext): { path: string; body?: unknown }[];
  /** Bodies the route must refuse (called by the owner), each with its catalogue code. */
  invalid?: { label: string; body: unknown; code: number }[];
}

export interface ContractResource {
  name: string;
  /**
   * Creates what the routes need inside a fresh project, straight in the database (it runs for the
   * demo project too, where the API refuses writes). Runs once per test.
   */
  setup?(world: ProjectWorld): Promise<Record<string, unknown>>;
  /** The stored state the routes act on: a refused call must leave it exactly as it was. */
  state?(ctx: ContractContext): Promise<unknown>;
  routes: ContractRoute[];
}

const projectRow = async (ctx: ContractContext): Promise<unknown> =>
  (await ctx.server.database.db.select().from(projects).where(eq(projects.id, ctx.projectId)))[0] ?? null;

const projectResource: ContractResource = {
  name: 'project',
  state: projectRow,
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id',
      access: 'read',
      path: (c) => `/projects/${c.projectId}`,
    },
    {
      method: 'PATCH',
      pattern: '/api/v1/projects/:id',
      access: 'write',
      path: (c) => `/projects/${c.projectId}`,
      body: () => ({ location: 'Contract City', timeZone: 'Europe/Berlin' }),
      invalid: [
        { label: 'a netMode change', body: { netMode: 1 }, code: 16 },
        { label: 'a name with a space', body: { name: 'a b' }, code: 16 },
        { label: 'an unknown scenario', body: { scenario: 'casino' }, code: 16 },
        { label: 'a time zone off the 15-minute grid', body: { timeZone: 7 }, code: 16 },
        { label: 'a time zone not in the IANA list', body: { timeZone: 'Mars/Olympus_Mons' }, code: 16 },
      ],
    },
    {
      method: 'DELETE',
      pattern: '/api/v1/projects/:id',
      access: 'owner',
      path: (c) => `/projects/${c.projectId}`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/logs',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/logs`,
    },
  ],
};

let sharingCounter = 0;

/** A fresh account straight in the database (a share's receiver or a transfer's target). */
async function freshAccount(world: ProjectWorld): Promise<{ id: number; account: string; cloudId: string }> {
  sharingCounter += 1;
  const email = `share${sharingCounter}-${process.pid}-${Date.now()}@example.com`;
  const [row] = await world.server.database.db
    .insert(accounts)
    .values({
      account: email,
      email,
      nick: `share${sharingCounter}`,
      passwordHash: 'x',
      cloudId: `S${sharingCounter}${Date.now().toString(36)}`.toUpperCase().slice(0, 16),
    })
    .returning({ id: accounts.id, account: accounts.account, cloudId: accounts.cloudId });
  return row;
}

const sharingState = async (ctx: ContractContext): Promise<unknown> => ({
  project: await projectRow(ctx),
  members: await ctx.server.database.db
    .select()
    .from(projectMembers)
    .where(eq(projectMembers.projectId, ctx.projectId))
    .orderBy(asc(projectMembers.accountId)),
  offers: await ctx.server.database.db
    .select()
    .from(shareOffers)
    .where(eq(shareOffers.projectId, ctx.projectId))
    .orderBy(asc(shareOffers.accountId)),
  transfer: await ctx.server.database.db
    .select()
    .from(projectTransfers)
    .where(eq(projectTransfers.projectId, ctx.projectId)),
});

/** Sharing (src/sharing/): share records, leaving, invitations and transfer of permission. */
const sharingResource: ContractResource = {
  name: 'sharing',
  state: sharingState,
  async setup(world) {
    const receiver = await freshAccount(world);
    const member = await freshAccount(world);
    // A read-only share to change or delete (the demo project gets none: every write is refused first).
    if (!isDemoProjectId(world.projectId)) {
      await world.server.database.db.insert(projectMembers).values({
        projectId: world.projectId,
        accountId: member.id,
        permission: 'r',
        acceptedAt: new Date(),
      });
    }
    return { receiver: receiver.account, receiverCloudId: receiver.cloudId, memberId: member.id };
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/shares',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/shares`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/shares',
      access: 'share',
      path: (c) => `/projects/${c.projectId}/shares`,
      body: (c) => ({ account: c.fixture.receiver, permission: 'r', validity: 'timed', hours: 24 }),
      invalid: [
        { label: 'an unknown permission', body: { account: 'a@b.c', permission: 'x' }, code: 16 },
        {
          label: 'both an account and a cloud id',
          body: { account: 'a@b.c', cloudId: 'X', permission: 'r' },
          code: 16,
        },
        {
          label: 'a timed share without hours',
          body: { account: 'a@b.c', permission: 'r', validity: 'timed' },
          code: 16,
        },
        {
          label: 'zero hours',
          body: { account: 'a@b.c', permission: 'r', validity: 'timed', hours: 0 },
          code: 16,
        },
        {
          label: 'an account that does not exist',
          body: { account: 'nobody@example.com', permission: 'r' },
          code: 22,
        },
      ],
    },
    {
      method: 'PATCH',
      pattern: '/api/v1/projects/:id/shares/:accountId',
      access: 'share',
      path: (c) => `/projects/${c.projectId}/shares/${c.fixture.memberId}`,
      body: () => ({ permission: 'rw' }),
      invalid: [
        { label: 'an empty change', body: {}, code: 16 },
        { label: 'an unknown validity', body: { validity: 'forever' }, code: 16 },
      ],
    },
    {
      method: 'DELETE',
      pattern: '/api/v1/projects/:id/shares/:accountId',
      access: 'share',
      path: (c) => `/projects/${c.projectId}/shares/${c.fixture.memberId}`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/unbind',
      access: 'member',
      path: (c) => `/projects/${c.projectId}/unbind`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/invites',
      access: 'share',
      path: (c) => `/projects/${c.projectId}/invites`,
      body: () => ({ permission: 'r' }),
      invalid: [
        { label: 'a code lifetime over 30 days', body: { permission: 'r', expiresInHours: 721 }, code: 16 },
        { label: 'a read-write invitation (SPEC.md §6)', body: { permission: 'rw' }, code: 16 },
      ],
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/transfer',
      access: 'transfer',
      path: (c) => `/projects/${c.projectId}/transfer`,
      body: (c) => ({ cloudId: c.fixture.receiverCloudId }),
      invalid: [{ label: 'no target', body: {}, code: 16 }],
    },
    {
      // Every shared project of the contract has a pending transfer (actors.ts) to withdraw.
      method: 'DELETE',
      pattern: '/api/v1/projects/:id/transfer',
      access: 'transfer',
      path: (c) => `/projects/${c.projectId}/transfer`,
    },
  ],
};

let deviceCounter = 0;

/** A serial number no other test uses (16+ letters and digits). */
function contractSn(kind: string): string {
  deviceCounter += 1;
  // Padded: in a container the PID may have two digits, and a serial must have 16 to 32 characters.
  return `CT${kind}${process.pid}${deviceCounter}${Date.now().toString(36)}`
    .toUpperCase()
    .padEnd(20, '0')
    .slice(0, 32);
}

/** An xlsx upload with one serial number per row (Serial number header). */
function importForm(sns: string[]): FormData {
  const sheet = XLSX.utils.aoa_to_sheet([['Serial number'], ...sns.map((sn) => [sn])]);
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Devices');
  const bytes = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'devices.xlsx');
  return form;
}

/** Device inventory (src/devices/): a bound AP to read and change, and a seen, unclaimed AP to add. */
const deviceResource: ContractResource = {
  name: 'devices',
  async setup(world) {
    const bound = contractSn('B');
    const free = contractSn('F');
    const seen = new Date();
    const ap = { model: 'BA-W1200C', type: 'ap', mac: null, status: 1, firstSeenAt: seen, lastSeenAt: seen };
    await insertDevice(world.server.database, {
      sn: bound,
      projectId: world.projectId,
      name: 'contract-ap',
      boundAt: seen,
      ...ap,
    });
    await insertDevice(world.server.database, { sn: free, projectId: null, ...ap });
    return { bound, free };
  },
  async state(ctx) {
    return selectDevices(ctx.server.database.db)
      .where(inArray(devices.sn, [ctx.fixture.bound as string, ctx.fixture.free as string]))
      .orderBy(asc(devices.sn));
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/devices',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/devices?ip=10.&sort=status&order=desc`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/devices',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/devices`,
      body: (c) => ({ sn: c.fixture.free, name: 'Lobby' }),
      invalid: [
        { label: 'a serial number of 15 characters', body: { sn: 'ABCDEFGHIJKLMNO' }, code: 16 },
        { label: 'a serial number with a dash', body: { sn: 'ABCDEFGH-IJKLMNOP' }, code: 16 },
        { label: 'an empty name', body: { sn: 'ABCDEFGHIJKLMNOPQ', name: ' ' }, code: 16 },
      ],
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/devices/import',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/devices/import`,
      body: (c) => importForm([c.fixture.free as string]),
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/devices/export',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/devices/export?format=csv`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/devices/:sn',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.bound}`,
    },
    {
      method: 'PATCH',
      pattern: '/api/v1/projects/:id/devices/:sn',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.bound}`,
      body: () => ({ name: 'Renamed AP', remark: 'Second floor' }),
      invalid: [
        { label: 'an empty name', body: { name: '' }, code: 16 },
        { label: 'a blank remark', body: { remark: '   ' }, code: 16 },
        { label: 'neither name nor remark', body: {}, code: 16 },
      ],
    },
    {
      method: 'DELETE',
      pattern: '/api/v1/projects/:id/devices/:sn',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.bound}?mode=unbind`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/devices/:sn/commands',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.bound}/commands`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/commands',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/commands?ids=00000000-0000-4000-8000-000000000000`,
    },
  ],
};

/** Valid parameters of every other maintenance action (the bad-input suite probes each field). */
function actionSamples(sn: string): Record<string, Record<string, unknown>> {
  return {
    reboot: {},
    reset: {},
    upgrade: { firmwareId: 1, version: '4.3.1' },
    password: { password: 'Str0ng!Pass' },
    locate: { seconds: 60 },
    'copy-config': { source: sn, targets: [sn] },
    'rate-limit': { upKbps: 1000, downKbps: 2000 },
    led: { on: true },
    'poe-reboot': { ports: [1, 2] },
    'local-management': { enabled: true },
    'remote-management': { enabled: true, ttlSeconds: 600 },
    'cpe-mode': { mode: 'ap' },
  };
}

/** Device maintenance (src/maintenance/): a bound AP whose reboot schedule the actions change. */
const maintenanceResource: ContractResource = {
  name: 'maintenance',
  async setup(world) {
    const sn = contractSn('M');
    const seen = new Date();
    await insertDevice(world.server.database, {
      sn,
      projectId: world.projectId,
      model: 'BA-W1200C',
      type: 'ap',
      status: 1,
      firstSeenAt: seen,
      lastSeenAt: seen,
    });
    return { sn };
  },
  async state(ctx) {
    const sn = ctx.fixture.sn as string;
    return {
      schedules: await ctx.server.database.db
        .select()
        .from(rebootSchedules)
        .where(eq(rebootSchedules.sn, sn)),
      images: await ctx.server.database.db
        .select({ id: firmwareImages.id })
        .from(firmwareImages)
        .where(eq(firmwareImages.projectId, ctx.projectId)),
    };
  },
  routes: [
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/devices/:sn/actions/:action',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.sn}/actions/reboot-schedule`,
      body: () => ({ days: [1, 5], time: '03:30' }),
      variants: (c) =>
        Object.entries(actionSamples(c.fixture.sn as string)).map(([action, body]) => ({
          path: `/projects/${c.projectId}/devices/${c.fixture.sn}/actions/${action}`,
          body,
        })),
      invalid: [
        { label: 'no day', body: { days: [], time: '03:30' }, code: 16 },
        { label: 'a time of 24:00', body: { days: [1], time: '24:00' }, code: 16 },
        { label: 'a day of 7', body: { days: [7], time: '03:30' }, code: 16 },
      ],
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/devices/actions/:action',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/devices/actions/reboot-schedule`,
      body: (c) => ({ sns: [c.fixture.sn], params: { days: [0], time: '02:00' } }),
      variants: (c) =>
        Object.entries(actionSamples(c.fixture.sn as string)).map(([action, params]) => ({
          path: `/projects/${c.projectId}/devices/actions/${action}`,
          body: { sns: [c.fixture.sn], params },
        })),
      invalid: [
        { label: 'no device', body: { sns: [], params: { days: [0], time: '02:00' } }, code: 16 },
        { label: 'no day', body: { sns: ['ABCDEFGHIJKLMNOP'], params: { days: [] } }, code: 16 },
      ],
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/devices/:sn/maintenance',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.sn}/maintenance`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/firmware',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/firmware`,
      body: () => {
        const form = new FormData();
        form.append('file', new Blob([buildFirmwareImage('BA-W1200C', '4.3.1')]), 'ap-4.3.1.bin');
        return form;
      },
    },
  ],
};

/** Device configuration revisions (src/config/): an offline AP at revision 1. */
const configResource: ContractResource = {
  name: 'config',
  async setup(world) {
    const sn = contractSn('C');
    const seen = new Date();
    const { db } = world.server.database;
    await insertDevice(world.server.database, {
      sn,
      projectId: world.projectId,
      model: 'BA-W1200C',
      type: 'ap',
      status: 0,
      firstSeenAt: seen,
      lastSeenAt: seen,
      desiredRevision: 1,
      desiredConfig: { name: 'first' },
      desiredHash: 'a'.repeat(64),
    });
    await db.insert(configRevisions).values({
      projectId: world.projectId,
      sn,
      revision: 1,
      document: { name: 'first' },
      hash: 'a'.repeat(64),
      authorName: 'contract',
    });
    return { sn };
  },
  async state(ctx) {
    const sn = ctx.fixture.sn as string;
    const { db } = ctx.server.database;
    return {
      revisions: await db.select().from(configRevisions).where(eq(configRevisions.sn, sn)),
      device: await db
        .select({ revision: devices.desiredRevision, config: devices.desiredConfig })
        .from(devices)
        .where(eq(devices.sn, sn)),
    };
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/devices/:sn/config',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.sn}/config`,
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/devices/:sn/config',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.sn}/config`,
      body: () => ({ expectedRevision: 1, document: { name: 'second' } }),
      invalid: [
        { label: 'a stale revision', body: { expectedRevision: 0, document: { name: 'x' } }, code: 5120 },
        {
          label: 'a name of 65 characters',
          body: { expectedRevision: 1, document: { name: 'n'.repeat(65) } },
          code: 16,
        },
        { label: 'no expected revision', body: { document: { name: 'x' } }, code: 16 },
      ],
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/devices/:sn/config/revisions',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.sn}/config/revisions`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/devices/:sn/config/revisions/:revision',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.sn}/config/revisions/1`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/devices/:sn/config/diff',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.sn}/config/diff?from=1&to=1`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/devices/:sn/config/rollback',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.sn}/config/rollback`,
      body: () => ({ revision: 1, expectedRevision: 1 }),
      invalid: [
        { label: 'a revision that does not exist', body: { revision: 99, expectedRevision: 1 }, code: 5033 },
        { label: 'a stale revision', body: { revision: 1, expectedRevision: 0 }, code: 5120 },
      ],
    },
  ],
};

/** The project's own configuration (src/config/): one revision saved. */
const projectConfigResource: ContractResource = {
  name: 'project config',
  async setup(world) {
    await world.server.database.db
      .insert(configRevisions)
      .values({
        projectId: world.projectId,
        sn: null,
        revision: 1,
        document: { name: 'site' },
        hash: 'b'.repeat(64),
        authorName: 'contract',
      })
      // The demo project is shared by every test: its revision 1 is made once.
      .onConflictDoNothing();
    return {};
  },
  async state(ctx) {
    return ctx.server.database.db
      .select()
      .from(configRevisions)
      .where(eq(configRevisions.projectId, ctx.projectId));
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/config',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/config`,
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/config',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/config`,
      body: () => ({ expectedRevision: 1, document: { name: 'site-2' } }),
      invalid: [
        { label: 'a stale revision', body: { expectedRevision: 0, document: { name: 'x' } }, code: 5120 },
        { label: 'a document that is not an object', body: { expectedRevision: 1, document: 'x' }, code: 16 },
      ],
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/config/revisions',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/config/revisions`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/config/revisions/:revision',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/config/revisions/1`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/config/diff',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/config/diff?from=1&to=1`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/config/rollback',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/config/rollback`,
      body: () => ({ revision: 1, expectedRevision: 1 }),
      invalid: [
        { label: 'a revision that does not exist', body: { revision: 7, expectedRevision: 1 }, code: 5033 },
      ],
    },
  ],
};

/** Switch ports (src/config/switch.ts, decision 0039): an online switch at revision 1. */
const SWITCH_BASE = {
  qvlan: true,
  managementVlan: 1,
  ip: {
    mode: 'static',
    ip: '192.168.1.20',
    mask: '255.255.255.0',
    gateway: '192.168.1.1',
    dns: ['8.8.8.8', '1.1.1.1'],
  },
  ports: [
    {
      id: 1,
      enabled: true,
      name: 'uplink',
      speed: 1000,
      duplex: 'full',
      rateIn: 0,
      rateOut: 1000,
      eee: false,
      trusted: true,
      mode: 'trunk',
      pvid: 1,
      allowed: [10, 20],
      stripped: [30],
      aggregation: 1,
      poe: { enabled: true, power: 15 },
    },
  ],
};

const SWITCH_SECTION = {
  ...SWITCH_BASE,
  ports: [SWITCH_BASE.ports[0], { ...SWITCH_BASE.ports[0], id: 2, name: 'uplink-2' }],
};

const switchResource: ContractResource = {
  name: 'switch ports',
  async setup(world) {
    const sn = contractSn('S');
    const seen = new Date();
    const { db } = world.server.database;
    await insertDevice(world.server.database, {
      sn,
      projectId: world.projectId,
      model: 'BS-S1008P',
      type: 'switch',
      status: 1,
      firstSeenAt: seen,
      lastSeenAt: seen,
      desiredRevision: 1,
      desiredConfig: { name: 'first' },
      desiredHash: 'c'.repeat(64),
    });
    await db.insert(configRevisions).values({
      projectId: world.projectId,
      sn,
      revision: 1,
      document: { name: 'first' },
      hash: 'c'.repeat(64),
      authorName: 'contract',
    });
    return { sn };
  },
  async state(ctx) {
    const sn = ctx.fixture.sn as string;
    const { db } = ctx.server.database;
    return {
      revisions: await db.select().from(configRevisions).where(eq(configRevisions.sn, sn)),
      device: await db
        .select({ revision: devices.desiredRevision, config: devices.desiredConfig })
        .from(devices)
        .where(eq(devices.sn, sn)),
    };
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/devices/:sn/switch',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.sn}/switch`,
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/devices/:sn/switch',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.sn}/switch`,
      body: () => ({ expectedRevision: 1, switch: SWITCH_SECTION, reason: 'contract' }),
      invalid: [
        { label: 'a stale revision', body: { expectedRevision: 0, switch: SWITCH_SECTION }, code: 5120 },
        {
          label: 'a stripped VLAN that is also allowed',
          body: {
            expectedRevision: 1,
            switch: { ...SWITCH_SECTION, ports: [{ ...SWITCH_BASE.ports[0], stripped: [10] }] },
          },
          code: 16,
        },
        { label: 'no switch section', body: { expectedRevision: 1 }, code: 16 },
      ],
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/switch-poe',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/switch-poe`,
    },
  ],
};

/** A network document with every field a client may send (valid for a BG-R1200 gateway). */
const NETWORK_BODY = {
  wan: {
    type: 'static',
    ip: '203.0.113.10',
    mask: '255.255.255.0',
    gateway: '203.0.113.1',
    dns: ['1.1.1.1', '8.8.8.8'],
    username: 'contract',
    password: 'contract-secret',
  },
  lan: { ip: '192.168.1.1', mask: 24 },
  vlans: [{ id: 20, name: 'staff', ip: '10.20.0.1', mask: 24, dhcp: true, tagged: [3], untagged: [2] }],
  dhcpPools: [
    {
      name: 'staff_pool',
      vlan: 20,
      startIp: '10.20.0.100',
      endIp: '10.20.0.200',
      mask: 24,
      gateway: '10.20.0.1',
      dns: ['10.20.0.1'],
      leaseMinutes: 60,
      staticLeases: [{ mac: 'AA:BB:CC:00:00:01', ip: '10.20.0.150', name: 'printer' }],
    },
  ],
  staticRoutes: [{ name: 'lab', destination: '172.16.0.0', mask: 16, nextHop: '10.20.0.254', outPort: 2 }],
  portMappings: [
    { name: 'web', protocol: 'tcp', internalIp: '192.168.1.10', internalPorts: '80', externalPorts: '8080' },
  ],
  managementVlan: 20,
};

const networkResource: ContractResource = {
  name: 'network',
  async setup(world) {
    const sn = contractSn('N');
    const seen = new Date();
    await insertDevice(world.server.database, {
      sn,
      projectId: world.projectId,
      model: 'BG-R1200',
      type: 'router',
      status: 0,
      firstSeenAt: seen,
      lastSeenAt: seen,
    });
    await world.server.database.db
      .insert(networkRevisions)
      .values({
        projectId: world.projectId,
        revision: 1,
        document: {},
        hash: 'c'.repeat(64),
        authorName: 'contract',
      })
      // The demo project is shared by every test: its revision 1 is made once.
      .onConflictDoNothing();
    return { sn };
  },
  async state(ctx) {
    const { db } = ctx.server.database;
    return {
      revisions: await db
        .select()
        .from(networkRevisions)
        .where(eq(networkRevisions.projectId, ctx.projectId)),
      device: await db
        .select({ revision: devices.desiredRevision, config: devices.desiredConfig })
        .from(devices)
        .where(eq(devices.sn, ctx.fixture.sn as string)),
    };
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/network',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/network`,
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/network',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/network`,
      body: () => ({ expectedRevision: 1, document: NETWORK_BODY, reason: 'contract' }),
      invalid: [
        { label: 'a stale revision', body: { expectedRevision: 0, document: NETWORK_BODY }, code: 5120 },
        {
          label: 'a WAN gateway off its segment',
          body: {
            expectedRevision: 1,
            document: { ...NETWORK_BODY, wan: { ...NETWORK_BODY.wan, gateway: '198.51.100.1' } },
          },
          code: 121,
        },
        {
          label: 'a VLAN id that is not an integer',
          body: { expectedRevision: 1, document: { vlans: [{ id: 20.5, name: 'x' }] } },
          code: 112,
        },
      ],
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/network/preview',
      access: 'read',
      auditRows: 0,
      path: (c) => `/projects/${c.projectId}/network/preview`,
      body: () => ({ document: NETWORK_BODY }),
      invalid: [
        {
          label: 'a static lease outside its pool',
          body: {
            document: {
              ...NETWORK_BODY,
              dhcpPools: [
                {
                  ...NETWORK_BODY.dhcpPools[0],
                  staticLeases: [{ mac: 'AA:BB:CC:00:00:02', ip: '10.20.0.2' }],
                },
              ],
            },
          },
          code: 108,
        },
      ],
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/network/revisions',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/network/revisions`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/network/diff',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/network/diff?from=1&to=1`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/network/rollback',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/network/rollback`,
      body: () => ({ revision: 1, expectedRevision: 1, reason: 'contract' }),
      invalid: [
        { label: 'a revision that does not exist', body: { revision: 7, expectedRevision: 1 }, code: 5033 },
        { label: 'a stale revision', body: { revision: 1, expectedRevision: 0 }, code: 5120 },
      ],
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/network/route-table',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/network/route-table`,
    },
  ],
};

/** A Wi-Fi policy with every field a client may send (WPA2 enterprise guest network for one AP). */
const wifiPolicyBody = (sn: string, n = 1) => ({
  name: `contract_${n}`,
  ssid: `Contract-${n}`,
  encryption: 8,
  cipher: 'aes',
  password: '',
  keyUpdateInterval: 3600,
  vlan: 30,
  maxClients: 32,
  hidden: false,
  guest: true,
  guestRateKbps: 4096,
  clientIsolation: true,
  radius: { ip: '10.0.0.5', port: 1812, password: 'radius-secret' },
  bands: ['2.4G', '5G'],
  scope: 'devices',
  devices: [sn],
  schedule: [{ start: '01:00', end: '05:00' }],
  signalExtension: true,
  enabled: true,
});

/** Wi-Fi policies (src/wifi/, decision 0047): an AP and revision 1 with policy 1 for all devices. */
const wifiResource: ContractResource = {
  name: 'wifi',
  async setup(world) {
    const sn = contractSn('W');
    const seen = new Date();
    await insertDevice(world.server.database, {
      sn,
      projectId: world.projectId,
      model: 'BA-W1200C',
      type: 'ap',
      status: 0,
      firstSeenAt: seen,
      lastSeenAt: seen,
    });
    await world.server.database.db
      .insert(wifiRevisions)
      .values({
        projectId: world.projectId,
        revision: 1,
        document: {
          policies: [
            {
              id: 1,
              name: 'office',
              ssid: 'Office',
              encryption: 2,
              cipher: 'aes',
              password: 'office-passphrase',
              bands: ['2.4G'],
              maxClients: 32,
            },
          ],
        },
        hash: 'd'.repeat(64),
        authorName: 'contract',
      })
      // The demo project is shared by every test: its revision 1 is made once.
      .onConflictDoNothing();
    return { sn };
  },
  async state(ctx) {
    const { db } = ctx.server.database;
    return {
      revisions: await db.select().from(wifiRevisions).where(eq(wifiRevisions.projectId, ctx.projectId)),
      device: await db
        .select({ revision: devices.desiredRevision, config: devices.desiredConfig })
        .from(devices)
        .where(eq(devices.sn, ctx.fixture.sn as string)),
    };
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/wifi',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/wifi`,
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/wifi',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/wifi`,
      body: (c) => ({
        expectedRevision: 1,
        document: { policies: [wifiPolicyBody(c.fixture.sn as string)] },
        reason: 'contract',
      }),
      invalid: [
        {
          label: 'a stale revision',
          body: { expectedRevision: 0, document: { policies: [] } },
          code: 5120,
        },
        {
          label: 'two policies of one SSID',
          body: {
            expectedRevision: 1,
            document: {
              policies: [
                { name: 'a', ssid: 'Same', encryption: 0, bands: ['2.4G'], maxClients: 10 },
                { name: 'b', ssid: 'Same', encryption: 0, bands: ['2.4G'], maxClients: 10 },
              ],
            },
          },
          code: 24,
        },
      ],
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/wifi/policies',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/wifi/policies`,
      body: (c) => ({
        expectedRevision: 1,
        policy: wifiPolicyBody(c.fixture.sn as string, 2),
        reason: 'contract',
      }),
      invalid: [
        {
          label: 'a reserved name',
          body: {
            expectedRevision: 1,
            policy: { name: 'app_default_1', ssid: 'X', encryption: 0, bands: ['2.4G'], maxClients: 10 },
          },
          code: 5044,
        },
        {
          label: 'a short password',
          body: {
            expectedRevision: 1,
            policy: {
              name: 'x',
              ssid: 'X',
              encryption: 2,
              cipher: 'aes',
              password: 'short',
              bands: ['2.4G'],
            },
          },
          code: 6,
        },
      ],
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/wifi/policies/:policyId',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/wifi/policies/1`,
      body: (c) => ({
        expectedRevision: 1,
        policy: wifiPolicyBody(c.fixture.sn as string),
        reason: 'contract',
      }),
      invalid: [
        {
          label: 'overlapping timer shutdown periods',
          body: {
            expectedRevision: 1,
            policy: {
              name: 'office',
              ssid: 'Office',
              encryption: 0,
              bands: ['2.4G'],
              maxClients: 10,
              schedule: [
                { start: '01:00', end: '03:00' },
                { start: '02:00', end: '04:00' },
              ],
            },
          },
          code: 59,
        },
      ],
    },
    {
      method: 'DELETE',
      pattern: '/api/v1/projects/:id/wifi/policies/:policyId',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/wifi/policies/1?expectedRevision=1`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/wifi/revisions',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/wifi/revisions`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/wifi/diff',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/wifi/diff?from=1&to=1`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/wifi/rollback',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/wifi/rollback`,
      body: () => ({ revision: 1, expectedRevision: 1, reason: 'contract' }),
      invalid: [
        { label: 'a revision that does not exist', body: { revision: 7, expectedRevision: 1 }, code: 5033 },
        { label: 'a stale revision', body: { revision: 1, expectedRevision: 0 }, code: 5120 },
      ],
    },
  ],
};

/** Alarms (src/alarms/): a device with one unread alarm, and a maintenance window. */
const alarmResource: ContractResource = {
  name: 'alarms',
  async setup(world) {
    const sn = contractSn('A');
    const seen = new Date();
    await insertDevice(world.server.database, {
      sn,
      projectId: world.projectId,
      model: 'BA-W1200C',
      type: 'ap',
      status: 1,
      firstSeenAt: seen,
      lastSeenAt: seen,
    });
    const [alarm] = await world.server.database.db
      .insert(alarms)
      .values({
        projectId: world.projectId,
        sn,
        kind: 'ip-conflict',
        level: 'warning',
        message: 'IP address 192.168.1.20 is also used by 02:00:00:00:00:01',
        model: 'BA-W1200C',
        raisedAt: seen,
        lastAt: seen,
      })
      .returning({ id: alarms.id });
    const [window] = await world.server.database.db
      .insert(alarmWindows)
      .values({
        projectId: world.projectId,
        sns: [sn],
        startsAt: seen,
        endsAt: new Date(seen.getTime() + 3_600_000),
        createdAt: seen,
      })
      .returning({ id: alarmWindows.id });
    return { sn, alarmId: alarm.id, windowId: window.id };
  },
  async state(ctx) {
    const { db } = ctx.server.database;
    return {
      alarms: await db.select().from(alarms).where(eq(alarms.projectId, ctx.projectId)),
      settings: await db.select().from(alarmSettings).where(eq(alarmSettings.projectId, ctx.projectId)),
      windows: await db.select().from(alarmWindows).where(eq(alarmWindows.projectId, ctx.projectId)),
    };
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/alarms',
      access: 'read',
      path: (c) =>
        `/projects/${c.projectId}/alarms?kind=ip-conflict&read=0&sn=${c.fixture.sn}&from=2020-01-01T00:00:00Z&to=2999-01-01T00:00:00Z&page=1&pageSize=20`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/alarms/unread',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/alarms/unread`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/alarms/read',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/alarms/read`,
      body: (c) => ({ ids: [c.fixture.alarmId] }),
      invalid: [{ label: 'no id', body: { ids: [] }, code: 16 }],
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/alarms/read-all',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/alarms/read-all`,
      body: () => ({}),
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/alarms/settings',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/alarms/settings`,
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/alarms/settings',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/alarms/settings`,
      body: () => ({
        emails: ['noc@example.com'],
        webhookUrl: 'https://hooks.example.com/beacon',
        webhookSecret: 'contract-signing-secret',
        offlineMinutes: 10,
        cpuPercent: 85,
        memoryPercent: 95,
      }),
      invalid: [
        {
          label: 'a loopback webhook',
          body: {
            emails: [],
            webhookUrl: 'http://127.0.0.1/x',
            webhookSecret: 'contract-signing-secret',
            offlineMinutes: 5,
            cpuPercent: 90,
            memoryPercent: 90,
          },
          code: 5240,
        },
        {
          label: 'a webhook without a secret',
          body: {
            emails: [],
            webhookUrl: 'https://hooks.example.com/x',
            offlineMinutes: 5,
            cpuPercent: 90,
            memoryPercent: 90,
          },
          code: 5241,
        },
        {
          label: 'a CPU threshold of 101',
          body: { emails: [], webhookUrl: '', offlineMinutes: 5, cpuPercent: 101, memoryPercent: 90 },
          code: 16,
        },
      ],
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/alarms/deliveries',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/alarms/deliveries?page=1&pageSize=20`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/alarms/windows',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/alarms/windows`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/alarms/windows',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/alarms/windows`,
      body: (c) => ({
        sns: [c.fixture.sn],
        startsAt: '2030-01-01T00:00:00.000Z',
        endsAt: '2030-01-01T02:00:00.000Z',
        reason: 'Cabling',
      }),
      invalid: [
        {
          label: 'an end before the start',
          body: {
            sns: ['ABCDEFGHIJKLMNOP'],
            startsAt: '2030-01-02T00:00:00.000Z',
            endsAt: '2030-01-01T00:00:00.000Z',
          },
          code: 5242,
        },
      ],
    },
    {
      method: 'DELETE',
      pattern: '/api/v1/projects/:id/alarms/windows/:windowId',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/alarms/windows/${c.fixture.windowId}`,
    },
  ],
};

/** The Log screen (src/logs/, docs/decisions/0036): device and audit logs, downloads, retention. */
const logResource: ContractResource = {
  name: 'logs',
  async state(ctx) {
    return (
      (
        await ctx.server.database.db
          .select()
          .from(projectLogSettings)
          .where(eq(projectLogSettings.projectId, ctx.projectId))
      )[0] ?? null
    );
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/logs/device',
      access: 'read',
      path: (c) =>
        `/projects/${c.projectId}/logs/device?from=2026-01-01T00:00:00Z&to=2030-01-01T00:00:00Z&sn=CONTRACTSN000001&type=port-down&level=warning`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/logs/audit',
      access: 'read',
      path: (c) =>
        `/projects/${c.projectId}/logs/audit?from=2026-01-01T00:00:00Z&to=2030-01-01T00:00:00Z&sn=x&type=device.add`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/logs/device/download',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/logs/device/download?format=csv&type=port-down`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/logs/audit/download',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/logs/audit/download?format=xlsx&from=2026-01-01T00:00:00Z`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/logs/settings',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/logs/settings`,
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/logs/settings',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/logs/settings`,
      body: () => ({ retentionDays: 90 }),
      auditRows: 1,
      invalid: [
        { label: 'a retention that is not a choice', body: { retentionDays: 14 }, code: 16 },
        { label: 'an unknown field', body: { retentionDays: 7, audit: 1 }, code: 16 },
      ],
    },
  ],
};

/** Device statistics (src/stats/): read-only charts of the project and of one bound AP. */
const statsResource: ContractResource = {
  name: 'stats',
  async setup(world) {
    const sn = contractSn('T');
    const seen = new Date();
    await insertDevice(world.server.database, {
      sn,
      projectId: world.projectId,
      model: 'BA-W1200C',
      type: 'ap',
      mac: null,
      status: 1,
      firstSeenAt: seen,
      lastSeenAt: seen,
      boundAt: seen,
    });
    return { sn };
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/stats/status',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/stats/status?range=12h`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/stats/devices',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/stats/devices?range=30d`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/stats/devices/:sn',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/stats/devices/${c.fixture.sn}?range=72h`,
    },
  ],
};

let clientCounter = 0;

/** Online clients (src/clients/, decision 0035): an AP with one online client and one blacklisted MAC. */
const clientsResource: ContractResource = {
  name: 'clients',
  async setup(world) {
    const sn = contractSn('L');
    const seen = new Date();
    const { db } = world.server.database;
    await insertDevice(world.server.database, {
      sn,
      projectId: world.projectId,
      model: 'BA-W1200C',
      type: 'ap',
      status: 0,
      firstSeenAt: seen,
      lastSeenAt: seen,
    });
    clientCounter += 1;
    const n = (process.pid * 1000 + clientCounter) % 0xffffff;
    const mac = `02:CC:${[n >> 16, (n >> 8) & 255, n & 255, 1].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':')}`;
    await db.insert(onlineClients).values({
      projectId: world.projectId,
      mac,
      sn,
      name: 'Contract-Phone',
      ip: '10.0.0.9',
      kind: 'phone',
      ssid: 'Contract',
      band: '5G',
      rssi: -50,
      joinedAt: seen,
      seenAt: seen,
    });
    await db
      .insert(clientBlacklist)
      .values({ projectId: world.projectId, mac: '02:BB:00:00:00:01', createdAt: seen })
      .onConflictDoNothing();
    return { sn, mac };
  },
  async state(ctx) {
    const { db } = ctx.server.database;
    return {
      online: await db
        .select()
        .from(onlineClients)
        .where(eq(onlineClients.projectId, ctx.projectId))
        .orderBy(asc(onlineClients.mac)),
      blacklist: await db
        .select()
        .from(clientBlacklist)
        .where(eq(clientBlacklist.projectId, ctx.projectId))
        .orderBy(asc(clientBlacklist.mac)),
    };
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/clients',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/clients?sort=name&order=asc&band=5G&q=Contract`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/clients/stats',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/clients/stats?range=7d&days=3`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/clients/force-offline',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/clients/force-offline`,
      body: (c) => ({ clients: [{ sn: c.fixture.sn, mac: c.fixture.mac }] }),
      invalid: [
        { label: 'no clients', body: { clients: [] }, code: 16 },
        { label: 'a MAC that is not one', body: { clients: [{ sn: 'X', mac: 'nope' }] }, code: 16 },
        {
          label: 'more than 100 clients',
          body: { clients: Array.from({ length: 101 }, () => ({ sn: 'X', mac: '02:00:00:00:00:01' })) },
          code: 16,
        },
      ],
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/clients/blacklist',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/clients/blacklist`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/clients/blacklist',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/clients/blacklist`,
      body: () => ({ macs: ['02:BB:00:00:00:02'], note: 'contract' }),
      invalid: [
        { label: 'no MACs', body: { macs: [] }, code: 16 },
        { label: 'a MAC that is not one', body: { macs: ['02:BB'] }, code: 16 },
        {
          label: 'more than 100 MACs',
          body: {
            macs: Array.from(
              { length: 101 },
              (_, i) =>
                `02:BB:00:00:${String(Math.floor(i / 100)).padStart(2, '0')}:${String(i % 100).padStart(2, '0')}`,
            ),
          },
          code: 16,
        },
      ],
    },
    {
      method: 'DELETE',
      pattern: '/api/v1/projects/:id/clients/blacklist/:mac',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/clients/blacklist/${encodeURIComponent('02:BB:00:00:00:01')}`,
    },
  ],
};

/** Project overview counts and the data screen (src/overview/, decision 0041): one online AP. */
const overviewResource: ContractResource = {
  name: 'overview',
  async setup(world) {
    const sn = contractSn('O');
    const seen = new Date();
    await insertDevice(world.server.database, {
      sn,
      projectId: world.projectId,
      model: 'BA-W1200C',
      type: 'ap',
      status: 1,
      clientCount: 3,
      firstSeenAt: seen,
      lastSeenAt: seen,
    });
    return { sn };
  },
  async state(ctx) {
    return ctx.server.database.db.select().from(dataScreens).where(eq(dataScreens.projectId, ctx.projectId));
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/overview',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/overview`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/data-screen',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/data-screen`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/data-screen/online',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/data-screen/online?range=24h`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/data-screen/map',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/data-screen/map`,
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/data-screen',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/data-screen`,
      body: () => ({ title: 'Contract wall', subtitle: 'Lobby', countries: ['DE', 'FR'] }),
      invalid: [
        {
          label: 'a title of 19 characters',
          body: { title: 'a'.repeat(19), subtitle: '', countries: [] },
          code: 16,
        },
        {
          label: '6 countries',
          body: { title: 'ok', subtitle: '', countries: ['DE', 'FR', 'CN', 'JP', 'US', 'GB'] },
          code: 5045,
        },
        { label: 'an unknown country', body: { title: 'ok', subtitle: '', countries: ['XX'] }, code: 5270 },
      ],
    },
  ],
};

/** The DHCP server of a switch or an AP (src/config/dhcp-server.ts, decision 0043): an online AP at revision 1. */
const DHCP_SERVER_SECTION = {
  enabled: true,
  name: 'ap_pool',
  startIp: '192.168.50.100',
  endIp: '192.168.50.200',
  mask: 24,
  gateway: '192.168.50.1',
  dns: ['192.168.50.1'],
  leaseMinutes: 60,
  staticLeases: [{ mac: 'AA:BB:CC:00:00:09', ip: '192.168.50.150', name: 'printer' }],
};

const dhcpServerResource: ContractResource = {
  name: 'device DHCP server',
  async setup(world) {
    const sn = contractSn('A');
    const seen = new Date();
    const { db } = world.server.database;
    await insertDevice(world.server.database, {
      sn,
      projectId: world.projectId,
      model: 'BA-W1200C',
      type: 'ap',
      status: 1,
      firstSeenAt: seen,
      lastSeenAt: seen,
      desiredRevision: 1,
      desiredConfig: { name: 'first' },
      desiredHash: 'c'.repeat(64),
    });
    await db.insert(configRevisions).values({
      projectId: world.projectId,
      sn,
      revision: 1,
      document: { name: 'first' },
      hash: 'c'.repeat(64),
      authorName: 'contract',
    });
    return { sn };
  },
  async state(ctx) {
    const sn = ctx.fixture.sn as string;
    const { db } = ctx.server.database;
    return {
      revisions: await db.select().from(configRevisions).where(eq(configRevisions.sn, sn)),
      device: await db
        .select({ revision: devices.desiredRevision, config: devices.desiredConfig })
        .from(devices)
        .where(eq(devices.sn, sn)),
    };
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/devices/:sn/dhcp-server',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.sn}/dhcp-server`,
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/devices/:sn/dhcp-server',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/devices/${c.fixture.sn}/dhcp-server`,
      body: () => ({ expectedRevision: 1, dhcpServer: DHCP_SERVER_SECTION, reason: 'contract' }),
      invalid: [
        {
          label: 'a stale revision',
          body: { expectedRevision: 0, dhcpServer: DHCP_SERVER_SECTION },
          code: 5120,
        },
        {
          label: 'a static lease outside the pool',
          body: {
            expectedRevision: 1,
            dhcpServer: {
              ...DHCP_SERVER_SECTION,
              staticLeases: [{ mac: 'AA:BB:CC:00:00:09', ip: '192.168.50.20', name: 'x' }],
            },
          },
          code: 108,
        },
        { label: 'no dhcpServer section', body: { expectedRevision: 1 }, code: 16 },
      ],
    },
  ],
};

/**
 * Configuration backups (src/backups/, decision 0049): an offline AP (a backup request waits for it,
 * a restore is a pending revision), an AP of another model, two synchronized backups of the first.
 */
const backupResource: ContractResource = {
  name: 'backups',
  async setup(world) {
    const sn = contractSn('K');
    const other = contractSn('L');
    const seen = new Date();
    const { db } = world.server.database;
    for (const [s, model] of [
      [sn, 'BA-W1200C'],
      [other, 'BA-W3000X'],
    ] as const) {
      await insertDevice(world.server.database, {
        sn: s,
        projectId: world.projectId,
        model,
        type: 'ap',
        mac: 'AA:BB:CC:00:11:22',
        status: 0,
        firstSeenAt: seen,
        lastSeenAt: seen,
      });
    }
    const secrets = world.server.gateway.commands.secrets;
    const facts = {
      sn,
      model: 'BA-W1200C',
      mac: 'AA:BB:CC:00:11:22',
      firmware: '4.3.0',
      revision: 1,
      takenAt: seen,
    };
    const ids: number[] = [];
    for (const name of ['Lobby', 'Lobby 2']) {
      const built = await buildBackupFile(secrets, facts, { name, admin: { password: 'Contract#123' } });
      const [row] = await db
        .insert(configBackups)
        .values({
          projectId: world.projectId,
          sn,
          model: 'BA-W1200C',
          mac: facts.mac,
          type: 'general',
          trigger: 'manual',
          status: 'synchronized',
          revision: 1,
          configHash: built.configHash,
          fileName: `${name.replace(' ', '_')}.json`,
          size: built.bytes.length,
          checksum: built.checksum,
          content: built.bytes,
          requestedBy: 'contract',
          // Older than the 3-minute interval, so a backup request of the device goes through.
          requestedAt: new Date(seen.getTime() - 600_000),
          takenAt: new Date(seen.getTime() - 600_000),
        })
        .returning({ id: configBackups.id });
      ids.push(row.id);
    }
    const upload = await buildBackupFile(secrets, facts, { name: 'Uploaded' });
    return { sn, other, backupId: ids[0], otherId: ids[1], upload: upload.bytes.toString('utf8') };
  },
  async state(ctx) {
    const { db } = ctx.server.database;
    return {
      backups: await db
        .select()
        .from(configBackups)
        .where(eq(configBackups.projectId, ctx.projectId))
        .orderBy(asc(configBackups.id)),
      settings: await db.select().from(backupSettings).where(eq(backupSettings.projectId, ctx.projectId)),
      devices: await db
        .select({ sn: devices.sn, revision: devices.desiredRevision, config: devices.desiredConfig })
        .from(devices)
        .where(eq(devices.projectId, ctx.projectId))
        .orderBy(asc(devices.sn)),
    };
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/backups',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/backups?type=general&page=1&pageSize=20`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/backups',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/backups`,
      body: (c) => ({ sns: [c.fixture.sn], type: 'general', confirmOverwrite: false }),
      invalid: [
        { label: 'no device', body: { sns: [] }, code: 16 },
        { label: 'an unknown type', body: { sns: ['ABCDEFGHIJKLMNOP'], type: 'weekly' }, code: 16 },
      ],
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/backups/upload',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/backups/upload?confirmOverwrite=false`,
      body: (c) => {
        const form = new FormData();
        form.append('file', new Blob([c.fixture.upload as string]), 'uploaded.json');
        return form;
      },
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/backups/settings',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/backups/settings`,
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/backups/settings',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/backups/settings`,
      body: () => ({ afterChange: true, everyHours: 24 }),
      invalid: [{ label: 'every 5 hours', body: { afterChange: false, everyHours: 5 }, code: 16 }],
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/backups/:backupId',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/backups/${c.fixture.backupId}`,
    },
    {
      method: 'PATCH',
      pattern: '/api/v1/projects/:id/backups/:backupId',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/backups/${c.fixture.backupId}`,
      body: () => ({ type: 'restore_point', confirmOverwrite: false }),
      invalid: [{ label: 'an unknown type', body: { type: 'daily' }, code: 16 }],
    },
    {
      method: 'DELETE',
      pattern: '/api/v1/projects/:id/backups/:backupId',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/backups/${c.fixture.backupId}`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/backups/:backupId/file',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/backups/${c.fixture.backupId}/file`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/backups/:backupId/compare',
      access: 'read',
      path: (c) =>
        `/projects/${c.projectId}/backups/${c.fixture.backupId}/compare?other=${c.fixture.otherId}`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/backups/:backupId/restore',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/backups/${c.fixture.backupId}/restore`,
      body: (c) => ({ sn: c.fixture.sn }),
      invalid: [{ label: 'a device not in the project', body: { sn: 'NOSUCHDEVICE0001' }, code: 5033 }],
    },
  ],
};

/** RF optimisation (src/rf/, decision 0048): two online APs and a finished run for the log. */
const rfResource: ContractResource = {
  name: 'rf',
  async setup(world) {
    const seen = new Date();
    const sns = [contractSn('R'), contractSn('R')];
    for (const sn of sns) {
      await insertDevice(world.server.database, {
        sn,
        projectId: world.projectId,
        model: 'BA-W1200C',
        type: 'ap',
        status: 1,
        firstSeenAt: seen,
        lastSeenAt: seen,
      });
    }
    const [run] = await world.server.database.db
      .insert(rfRuns)
      .values({
        projectId: world.projectId,
        kind: 'auto',
        state: 'completed',
        progress: 100,
        devices: sns,
        authorName: 'contract',
        startedAt: seen,
        deadlineAt: seen,
        finishedAt: seen,
      })
      .returning();
    return { sns, runId: run!.id };
  },
  async state(ctx) {
    const { db } = ctx.server.database;
    return {
      settings: await db.select().from(rfSettings).where(eq(rfSettings.projectId, ctx.projectId)),
      runs: await db.select().from(rfRuns).where(eq(rfRuns.projectId, ctx.projectId)).orderBy(asc(rfRuns.id)),
      devices: await db
        .select({ revision: devices.desiredRevision, config: devices.desiredConfig })
        .from(devices)
        .where(inArray(devices.sn, ctx.fixture.sns as string[]))
        .orderBy(asc(devices.sn)),
    };
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/rf',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/rf`,
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/rf/country',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/rf/country`,
      body: () => ({ country: 'US' }),
      invalid: [{ label: 'a country that is no ISO code', body: { country: 'XX' }, code: 5270 }],
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/rf/radios',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/rf/radios`,
      body: (c) => ({
        sns: [(c.fixture.sns as string[])[0]],
        radios: [
          { band: '2.4G', channel: 6, width: 20, power: 18, accessThreshold: -75 },
          { band: '5G', channel: 36, width: 40, power: 20 },
        ],
      }),
      invalid: [
        {
          label: 'channel 14 (not allowed in CN)',
          body: { sns: ['CONTRACTAP000001'], radios: [{ band: '2.4G', channel: 14, width: 20, power: 18 }] },
          code: 5340,
        },
        {
          label: 'no AP',
          body: { sns: [], radios: [{ band: '2.4G', channel: 6, width: 20, power: 18 }] },
          code: 5344,
        },
        {
          label: 'a transmit power of 30',
          body: { sns: ['CONTRACTAP000001'], radios: [{ band: '2.4G', channel: 6, width: 20, power: 30 }] },
          code: 16,
        },
        {
          label: 'an access threshold of −95',
          body: {
            sns: ['CONTRACTAP000001'],
            radios: [{ band: '2.4G', channel: 6, width: 20, power: 18, accessThreshold: -95 }],
          },
          code: 16,
        },
      ],
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/rf/roaming',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/rf/roaming`,
      body: (c) => ({
        devices: [
          {
            sn: (c.fixture.sns as string[])[1],
            accessThreshold: -72,
            bandSteering: true,
            loadBalanceClients: 30,
          },
        ],
      }),
      invalid: [
        {
          label: 'load balancing at 200 clients',
          body: {
            devices: [{ sn: 'CONTRACTAP000001', bandSteering: false, loadBalanceClients: 200 }],
          },
          code: 47,
        },
      ],
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/rf/optimise',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/rf/optimise`,
      body: () => ({}),
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/rf/runs',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/rf/runs`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/rf/runs/:runId',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/rf/runs/${c.fixture.runId}`,
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/rf/schedule',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/rf/schedule`,
      body: () => ({ enabled: true, days: [1, 3, 5], time: '03:30' }),
      invalid: [
        { label: 'no day', body: { enabled: true, days: [], time: '03:30' }, code: 5343 },
        { label: 'a time of 25:00', body: { enabled: true, days: [1], time: '25:00' }, code: 5343 },
      ],
    },
  ],
};

/** Network topology (src/topology/, decision 0050): a switch reporting an AP and a host it sees. */
const topologyResource: ContractResource = {
  name: 'topology',
  async setup(world) {
    const seen = new Date();
    const [sw, ap] = [contractSn('T'), contractSn('T')];
    const macs = { [sw]: '02:70:00:00:00:01', [ap]: '02:70:00:00:00:02' };
    for (const [sn, model, type] of [
      [sw, 'BS-S1008P', 'switch'],
      [ap, 'BA-W1200C', 'ap'],
    ] as const) {
      await insertDevice(world.server.database, {
        sn,
        projectId: world.projectId,
        model,
        type,
        mac: macs[sn],
        status: 1,
        firstSeenAt: seen,
        lastSeenAt: seen,
      });
    }
    const link = (port: number, mac: string, sn?: string): LinkNeighbour => ({
      port,
      mac,
      ...(sn ? { sn } : {}),
      remotePort: '1',
      role: sn ? 'ap' : 'station',
      medium: 'wired' as const,
      speed: 1000,
      rssi: null,
      vlan: 1,
    });
    await world.server.database.db.insert(deviceLinks).values({
      sn: sw,
      links: [link(2, macs[ap], ap), link(3, '02:70:00:00:00:99')],
      hash: 'contract',
      reportedAt: seen,
    });
    return { sw, ap };
  },
  async state(ctx) {
    return ctx.server.database.db
      .select()
      .from(topologyNodeTypes)
      .where(eq(topologyNodeTypes.projectId, ctx.projectId))
      .orderBy(asc(topologyNodeTypes.node));
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/topology',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/topology`,
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/topology/types',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/topology/types`,
      body: (c) => ({ node: c.fixture.ap, code: 6 }),
      variants: (c) => [
        { path: `/projects/${c.projectId}/topology/types`, body: { node: '02:70:00:00:00:99', code: 10 } },
      ],
      invalid: [
        { label: 'code 0', body: { node: 'AAAAAAAAAAAAAAAA', code: 0 }, code: 5380 },
        { label: 'code 13', body: { node: 'AAAAAAAAAAAAAAAA', code: 13 }, code: 5380 },
        { label: 'a node no device reports', body: { node: '02:70:00:00:00:77', code: 2 }, code: 5381 },
      ],
    },
  ],
};

/** The Wi-Fi map (src/wifi-map/, decisions 0052-0053): an AP of the project and one floor plan. */
const wifiMapResource: ContractResource = {
  name: 'wifi-map',
  async setup(world) {
    const seen = new Date();
    const sn = contractSn('M');
    // Offline: the map only needs an AP of the project, and an offline one is left alone by the
    // server's own jobs (an online one without a connection would be marked away mid-test).
    await insertDevice(world.server.database, {
      sn,
      projectId: world.projectId,
      model: 'BA-W1200C',
      type: 'ap',
      status: 0,
    });
    const image = buildPng(100, 60);
    const [plan] = await world.server.database.db
      .insert(floorPlans)
      .values({
        projectId: world.projectId,
        name: 'Ground floor',
        mime: 'image/png',
        width: 100,
        height: 60,
        size: image.length,
        checksum: createHash('sha256').update(image).digest('hex'),
        image,
        createdAt: seen,
        updatedAt: seen,
      })
      .returning({ id: floorPlans.id });
    return { sn, planId: plan!.id, upload: buildPng(50, 30) };
  },
  async state(ctx) {
    return ctx.server.database.db
      .select()
      .from(floorPlans)
      .where(eq(floorPlans.projectId, ctx.projectId))
      .orderBy(asc(floorPlans.id));
  },
  routes: [
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/wifi-map',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/wifi-map`,
    },
    {
      method: 'POST',
      pattern: '/api/v1/projects/:id/wifi-map/plans',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/wifi-map/plans?name=Second%20floor`,
      body: (c) => {
        const form = new FormData();
        form.append('file', new Blob([c.fixture.upload as Buffer]), 'second.png');
        return form;
      },
    },
    {
      method: 'PUT',
      pattern: '/api/v1/projects/:id/wifi-map/plans/:planId',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/wifi-map/plans/${c.fixture.planId}`,
      body: (c) => ({
        name: 'Ground floor',
        scale: { x1: 0, y1: 50, x2: 100, y2: 50, metres: 25 },
        walls: [{ x1: 50, y1: 0, x2: 50, y2: 60, material: 'brick' }],
        aps: [{ sn: c.fixture.sn, x: 20, y: 30 }],
      }),
      invalid: [
        {
          label: 'a wall off the image',
          body: {
            name: 'G',
            scale: null,
            walls: [{ x1: 0, y1: 0, x2: 500, y2: 0, material: 'brick' }],
            aps: [],
          },
          code: 5393,
        },
        {
          label: 'an unknown material',
          body: {
            name: 'G',
            scale: null,
            walls: [{ x1: 0, y1: 0, x2: 5, y2: 0, material: 'paper' }],
            aps: [],
          },
          code: 16,
        },
        {
          label: 'a device that is not an AP of the project',
          body: { name: 'G', scale: null, walls: [], aps: [{ sn: 'NOSUCHDEVICE0001', x: 1, y: 1 }] },
          code: 5392,
        },
        {
          label: 'a scale line of 2 pixels',
          body: { name: 'G', scale: { x1: 0, y1: 0, x2: 2, y2: 0, metres: 5 }, walls: [], aps: [] },
          code: 16,
        },
      ],
    },
    {
      method: 'DELETE',
      pattern: '/api/v1/projects/:id/wifi-map/plans/:planId',
      access: 'write',
      path: (c) => `/projects/${c.projectId}/wifi-map/plans/${c.fixture.planId}`,
    },
    {
      method: 'GET',
      pattern: '/api/v1/projects/:id/wifi-map/plans/:planId/image',
      access: 'read',
      path: (c) => `/projects/${c.projectId}/wifi-map/plans/${c.fixture.planId}/image?v=abc`,
    },
  ],
};

export const CONTRACT_RESOURCES: ContractResource[] = [
  projectResource,
  sharingResource,
  deviceResource,
  maintenanceResource,
  configResource,
  projectConfigResource,
  clientsResource,
  statsResource,
  logResource,
  alarmResource,
  networkResource,
  wifiResource,
  switchResource,
  dhcpServerResource,
  rfResource,
  overviewResource,
  backupResource,
  wifiMapResource,
  topologyResource,
];
