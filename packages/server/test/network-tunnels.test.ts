import type { SimulatedDevice } from '@beacon/agent';
import type { ActionResultView, NetworkDocumentInput, NetworkView, RouteTableView } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../src/db/schema.ts';
import { deviceRow, insertProject, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * The gateway's guest network, PPPoE / PPTP / L2TP servers and PPTP / L2TP clients (issue 10,
 * docs/decisions/0046): every rule refused with its catalogue code and nothing stored, every
 * segment clash between the WAN, LAN, VLAN, guest, PPPoE, PPTP and L2TP networks (113-119,
 * 122-127, 5042) coded for the network added or changed, the networks compiled into the gateway's
 * document and run by the simulated gateway (its route table), their passwords kept and never
 * shown; and a device back from local management gets the network at once.
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
let gateway: SimulatedDevice;
let ap: SimulatedDevice;
const running: SimulatedDevice[] = [];

async function join(model: string, kind: string): Promise<SimulatedDevice> {
  const sn = testSn(kind);
  const d = await simulateOnline(server, sn, { model });
  running.push(d);
  await server.database.db.update(devices).set({ projectId }).where(eq(devices.sn, sn));
  return d;
}

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0', COMMAND_TIMEOUT_MS: '3000' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
  gateway = await join('BG-R1200', 'G');
  ap = await join('BA-W1200C', 'A');
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

const path = (tail = '') => `/projects/${projectId}/network${tail}`;
const get = async () => (await owner.client.get<NetworkView>(path())).body.data;
const save = (expectedRevision: number, document: NetworkDocumentInput) =>
  owner.client.request<NetworkView>('PUT', path(), { expectedRevision, document, reason: 'test' });

const VALID = {
  wan: { type: 'static', ip: '203.0.113.10', mask: 24, gateway: '203.0.113.1', dns: ['1.1.1.1'] },
  lan: { ip: '192.168.1.1', mask: 24 },
  vlans: [{ id: 20, name: 'staff', ip: '10.20.0.1', mask: 24 }],
  guest: { ip: '192.168.50.1', mask: '255.255.255.0' },
  pppoeServer: {
    ip: '10.60.0.1',
    mask: 24,
    startIp: '10.60.0.10',
    endIp: '10.60.0.50',
    dns: ['10.60.0.1'],
    accounts: [{ username: 'alice', password: 'pw-alice' }],
  },
  pptpServer: {
    ip: '10.70.0.1',
    mask: 24,
    startIp: '10.70.0.10',
    endIp: '10.70.0.50',
    accounts: [
      { username: 'bob', password: 'pw-bob' },
      { username: 'carol', password: 'pw-carol' },
    ],
  },
  l2tpServer: { ip: '10.80.0.1', mask: 24, startIp: '10.80.0.10', endIp: '10.80.0.50' },
  pptpClients: [
    {
      name: 'hq',
      server: 'vpn.example.com',
      username: 'branch',
      password: 'pw-hq',
      remoteIp: '172.20.0.0',
      remoteMask: 16,
    },
  ],
  l2tpClients: [
    {
      name: 'dc',
      server: '198.51.100.7',
      username: 'branch',
      password: 'pw-dc',
      remoteIp: '172.30.0.0',
      remoteMask: 16,
    },
  ],
  managementVlan: 20,
} satisfies NetworkDocumentInput;

type Doc = typeof VALID & Record<string, unknown>;
const clone = (): Doc => structuredClone(VALID) as Doc;
const staticWan = (ip: string, gw: string) => ({
  type: 'static' as const,
  ip,
  mask: 24,
  gateway: gw,
  dns: [],
});
const client = (name: string) => ({ ...VALID.pptpClients[0], name, remoteIp: '172.21.0.0' });

/** Each rule on a project without a stored network: a change of the valid document, its code and field. */
const RULES: [string, (d: Doc) => void, number, string][] = [
  ['guest IP host part all 0s', (d) => (d.guest.ip = '192.168.50.0'), 16, 'guest.ip'],
  ['guest mask not contiguous', (d) => (d.guest.mask = '255.0.255.0'), 16, 'guest.mask'],
  ['guest network on the LAN segment', (d) => (d.guest.ip = '192.168.1.50'), 5042, 'guest.ip'],
  ['VLAN on the guest segment (114)', (d) => (d.vlans[0].ip = '192.168.50.9'), 114, 'vlans.0.ip'],
  ['VLAN on the PPPoE server segment (115)', (d) => (d.vlans[0].ip = '10.60.0.9'), 115, 'vlans.0.ip'],
  ['VLAN on the PPTP server segment (116)', (d) => (d.vlans[0].ip = '10.70.0.9'), 116, 'vlans.0.ip'],
  ['VLAN in a PPTP client remote network (116)', (d) => (d.vlans[0].ip = '172.20.5.1'), 116, 'vlans.0.ip'],
  ['VLAN on the L2TP server segment (117)', (d) => (d.vlans[0].ip = '10.80.0.9'), 117, 'vlans.0.ip'],
  ['VLAN in an L2TP client remote network (117)', (d) => (d.vlans[0].ip = '172.30.9.1'), 117, 'vlans.0.ip'],
  [
    'WAN on the PPTP server segment (123)',
    (d) => (d.wan = staticWan('10.70.0.200', '10.70.0.254')),
    123,
    'wan.ip',
  ],
  [
    'WAN on the L2TP server segment (124)',
    (d) => (d.wan = staticWan('10.80.0.200', '10.80.0.254')),
    124,
    'wan.ip',
  ],
  [
    'WAN on the guest segment (125)',
    (d) => (d.wan = staticWan('192.168.50.200', '192.168.50.254')),
    125,
    'wan.ip',
  ],
  [
    'WAN on the PPPoE server segment (126)',
    (d) => (d.wan = staticWan('10.60.0.200', '10.60.0.254')),
    126,
    'wan.ip',
  ],
  ['WAN on a VLAN segment (127)', (d) => (d.wan = staticWan('10.20.0.200', '10.20.0.254')), 127, 'wan.ip'],
  [
    'WAN on the LAN segment (122)',
    (d) => (d.wan = staticWan('192.168.1.200', '192.168.1.254')),
    122,
    'wan.ip',
  ],
  [
    'L2TP server on the PPTP server segment',
    (d) => Object.assign(d.l2tpServer, { ip: '10.70.0.100', startIp: '10.70.0.110', endIp: '10.70.0.120' }),
    5042,
    'l2tpServer.ip',
  ],
  [
    'PPPoE client range end before start (109)',
    (d) => (d.pppoeServer.endIp = '10.60.0.5'),
    109,
    'pppoeServer.startIp',
  ],
  [
    'PPTP client range off the server segment (107)',
    (d) => Object.assign(d.pptpServer, { startIp: '10.71.0.10', endIp: '10.71.0.50' }),
    107,
    'pptpServer.startIp',
  ],
  [
    'L2TP server IP inside its client range (105)',
    (d) => (d.l2tpServer.ip = '10.80.0.20'),
    105,
    'l2tpServer.ip',
  ],
  ['L2TP server IP host part all 1s', (d) => (d.l2tpServer.ip = '10.80.0.255'), 16, 'l2tpServer.ip'],
  [
    'PPPoE server DNS the same twice (110)',
    (d) => (d.pppoeServer.dns = ['1.1.1.1', '1.1.1.1']),
    110,
    'pppoeServer.dns',
  ],
  [
    'PPTP account named twice (5038)',
    (d) => d.pptpServer.accounts.push({ username: 'bob', password: 'x' }),
    5038,
    'pptpServer.accounts.2.username',
  ],
  [
    'PPPoE account without a password',
    (d) => (d.pppoeServer.accounts[0].password = ''),
    16,
    'pppoeServer.accounts.0.password',
  ],
  ['PPTP client named twice (5038)', (d) => d.pptpClients.push(client('hq')), 5038, 'pptpClients.1.name'],
  [
    'L2TP client server not an address',
    (d) => (d.l2tpClients[0].server = '999.1.1.1'),
    16,
    'l2tpClients.0.server',
  ],
  ['PPTP client without a password', (d) => (d.pptpClients[0].password = ''), 16, 'pptpClients.0.password'],
  [
    'L2TP client remote network not an IP',
    (d) => (d.l2tpClients[0].remoteIp = '300.1.1.1'),
    16,
    'l2tpClients.0.remoteIp',
  ],
  [
    'five PPTP clients (at most 4)',
    (d) => d.pptpClients.push(client('b'), client('c'), client('d'), client('e')),
    16,
    'pptpClients',
  ],
];

const fieldsOf = (body: unknown) => Object.keys((body as { fields?: Record<string, string> }).fields ?? {});

describe('guest, PPPoE, PPTP and L2TP networks', () => {
  it.each(RULES)(
    'refuses %s with its code at its field, and stores nothing',
    async (_n, change, code, field) => {
      const before = await get();
      const doc = clone();
      change(doc);
      const res = await save(before.revision, doc);
      expect(res.body.code, JSON.stringify(res.body)).toBe(code);
      if (code !== 16 || field !== 'pptpClients') expect(fieldsOf(res.body)).toEqual([`document.${field}`]);
      const after = await get();
      expect(after.revision).toBe(before.revision);
      expect(after.document).toEqual(before.document);
    },
  );

  it('compiles them into the gateway, which runs them; passwords are never shown', async () => {
    const before = await get();
    const res = await save(before.revision, VALID);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await waitFor(async () => (await get()).progress.applied === 2, 'applied');
    expect(gateway.document).toMatchObject({
      guest: { ip: '192.168.50.1' },
      pppoeServer: { ip: '10.60.0.1', accounts: [{ username: 'alice', password: 'pw-alice' }] },
      pptpServer: { accounts: [{ username: 'bob' }, { username: 'carol', password: 'pw-carol' }] },
      l2tpServer: { startIp: '10.80.0.10' },
      pptpClients: [{ name: 'hq', password: 'pw-hq' }],
      l2tpClients: [{ name: 'dc', remoteIp: '172.30.0.0' }],
    });
    // Only the gateway takes them.
    expect(ap.document).not.toHaveProperty('guest');
    const view = await get();
    expect(view.document.pptpServer?.accounts.map((a) => a.password)).toEqual(['********', '********']);
    expect(view.document.l2tpClients[0]?.password).toBe('********');
    expect(JSON.stringify(view)).not.toContain('pw-');
    const table = await owner.client.get<RouteTableView>(path('/route-table'));
    expect(table.body.data.routes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ destination: '192.168.50.0', interface: 'br-guest', source: 'connected' }),
        expect.objectContaining({ destination: '10.60.0.0', interface: 'pppoe-server' }),
        expect.objectContaining({ destination: '10.70.0.0', interface: 'pptp-server' }),
        expect.objectContaining({ destination: '10.80.0.0', interface: 'l2tp-server' }),
        expect.objectContaining({ destination: '172.20.0.0', mask: '255.255.0.0', interface: 'pptp-hq' }),
        expect.objectContaining({ destination: '172.30.0.0', interface: 'l2tp-dc' }),
      ]),
    );
  });

  it('a password sent back as ******** keeps the stored one, matched by account name', async () => {
    const before = await get();
    const doc = structuredClone(before.document);
    // The first account removed: the second keeps its own password, not the first one's.
    doc.pptpServer!.accounts = doc.pptpServer!.accounts.filter((a) => a.username !== 'bob');
    const res = await save(before.revision, doc);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await waitFor(
      () => (gateway.document.pptpServer as { accounts: unknown[] } | undefined)?.accounts.length === 1,
      'gateway runs one account',
    );
    expect(gateway.document.pptpServer).toMatchObject({
      accounts: [{ username: 'carol', password: 'pw-carol' }],
    });
    expect(gateway.document.pptpClients).toMatchObject([{ password: 'pw-hq' }]);
  });

  /** With a stored revision, the network added or changed is the subject of the clash. */
  const CHANGES: [string, (d: NetworkDocumentInput) => void, number, string][] = [
    [
      'a VLAN added on the WAN segment (119)',
      (d) => d.vlans!.push({ id: 30, name: 'onwan', ip: '203.0.113.50', mask: 24 }),
      119,
      'vlans.1.ip',
    ],
    [
      'the WAN moved onto a VLAN segment (127)',
      (d) => (d.wan = staticWan('10.20.0.200', '10.20.0.254')),
      127,
      'wan.ip',
    ],
    [
      'the guest network moved onto a VLAN segment (114)',
      (d) => (d.guest = { ip: '10.20.0.77', mask: 24 }),
      114,
      'guest.ip',
    ],
    [
      'the LAN moved onto the WAN segment (122)',
      (d) => (d.lan = { ip: '203.0.113.77', mask: 24 }),
      122,
      'lan.ip',
    ],
    [
      'a PPTP client added into the WAN segment (123)',
      (d) => d.pptpClients!.push({ ...client('wan'), remoteIp: '203.0.113.0', remoteMask: 24 }),
      123,
      'pptpClients.1.remoteIp',
    ],
  ];

  it.each(CHANGES)(
    'on a stored network, refuses %s and keeps the revision',
    async (_n, change, code, field) => {
      const before = await get();
      const doc = structuredClone(before.document) as NetworkDocumentInput;
      change(doc);
      const res = await save(before.revision, doc);
      expect(res.body.code, JSON.stringify(res.body)).toBe(code);
      expect(fieldsOf(res.body)).toEqual([`document.${field}`]);
      expect((await get()).revision).toBe(before.revision);
    },
  );
});

describe('back from local management', () => {
  const action = (sn: string, name: string, body: unknown) =>
    owner.client.post<ActionResultView>(`/projects/${projectId}/devices/${sn}/actions/${name}`, body);

  it('a device switched back to cloud management gets the current network at once', async () => {
    await waitFor(async () => (await get()).progress.pending === 0, 'settled');
    expect((await action(ap.sn, 'local-management', { enabled: true })).body.code).toBe(0);
    await waitFor(async () => (await deviceRow(server, ap.sn))?.managementMode === 0, 'local mode');
    // A save while the AP is in local management leaves it out.
    const before = await get();
    const doc = structuredClone(before.document);
    doc.vlans.push({ ...doc.vlans[0]!, id: 40, name: 'mgmt', ip: '10.40.0.1' });
    doc.managementVlan = 40;
    const res = await save(before.revision, doc);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const left = await deviceRow(server, ap.sn);
    expect(ap.document.managementVlan).toBe(20);
    // Back in cloud management: compiled and sent without another save.
    expect((await action(ap.sn, 'local-management', { enabled: false })).body.code).toBe(0);
    await waitFor(() => ap.document.managementVlan === 40, 'AP runs the current network', 15_000);
    const row = await deviceRow(server, ap.sn);
    expect(row?.desiredRevision).toBe((left?.desiredRevision ?? 0) + 1);
    expect(row?.managementMode).toBe(1);
    await waitFor(async () => (await deviceRow(server, ap.sn))?.configStatus === 'applied', 'applied');
    expect((await get()).revision).toBe(before.revision + 1);
  });
});
