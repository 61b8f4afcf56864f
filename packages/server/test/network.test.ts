import type { SimulatedDevice } from '@beacon/agent';
import type {
  ConfigDiffView,
  ConfigRevisionList,
  NetworkDocumentInput,
  NetworkPreviewView,
  NetworkView,
  RouteTableView,
  SwitchView,
} from '@beacon/protocol';
import * as XLSX from '@e965/xlsx';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, configRevisions, deviceEvents, devices } from '../src/db/schema.ts';
import { deviceRow, insertProject, simulate, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * The project's network configuration (issue 10): every SPEC.md §5 rule refused with its code and
 * nothing stored; a change compiled into the gateway, switch and AP documents and applied by the
 * simulated devices; the route table read from the gateway; an offline device converging on
 * return; rollback; two saves on one revision.
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
let gateway: SimulatedDevice;
let sw: SimulatedDevice;
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
  sw = await join('BS-S1008P', 'S');
  ap = await join('BA-W1200C', 'A');
  // The switch's uplink (port 1) carries VLANs 20 and 50, so it can be managed in either
  // (a switch's management VLAN must be carried by an enabled port: decision 0039, 0042).
  await carry(sw.sn, [20, 50]);
});

async function carry(sn: string, allowed: number[]): Promise<void> {
  const url = `/projects/${projectId}/devices/${sn}/switch`;
  const view = (await owner.client.get<SwitchView>(url)).body.data;
  const ports = view.switch.ports.map((p) => (p.id === 1 ? { ...p, mode: 'trunk' as const, allowed } : p));
  const res = await owner.client.request<SwitchView>('PUT', url, {
    expectedRevision: view.revision,
    switch: { ...view.switch, ports },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await waitFor(async () => {
    const row = await deviceRow(server, sn);
    return row?.configStatus === 'applied' && row.reportedRevision === row.desiredRevision;
  }, 'switch ports applied');
}

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

const path = (tail = '') => `/projects/${projectId}/network${tail}`;
const get = async () => (await owner.client.get<NetworkView>(path())).body.data;
const save = (expectedRevision: number, document: NetworkDocumentInput, reason = 'test') =>
  owner.client.request<NetworkView>('PUT', path(), { expectedRevision, document, reason });

const VALID: NetworkDocumentInput = {
  wan: {
    type: 'static',
    ip: '203.0.113.10',
    mask: '255.255.255.0',
    gateway: '203.0.113.1',
    dns: ['1.1.1.1'],
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
  staticRoutes: [{ name: 'lab', destination: '172.16.0.0', mask: 16, nextHop: '10.20.0.254' }],
  portMappings: [
    { name: 'web', protocol: 'tcp', internalIp: '192.168.1.10', internalPorts: '80', externalPorts: '8080' },
  ],
  managementVlan: 20,
};

type Doc = typeof VALID & Record<string, unknown>;
const clone = (): Doc => structuredClone(VALID) as Doc;
const vlan = (d: Doc) => d.vlans![0]!;
const pool = (d: Doc) => d.dhcpPools![0]!;

/** Each SPEC.md §5 rule: a change of the valid document and the code it is refused with. */
const RULES: [string, (d: Doc) => void, number][] = [
  ['LAN IP first octet 127 (101)', (d) => (d.lan = { ip: '127.0.0.1', mask: 24 }), 101],
  ['LAN IP host part all 1s (101)', (d) => (d.lan = { ip: '192.168.1.255', mask: 24 }), 101],
  ['LAN mask not contiguous', (d) => (d.lan = { ip: '192.168.1.1', mask: '255.0.255.0' }), 16],
  ['VLAN IP same as LAN IP (103)', (d) => (vlan(d).ip = '192.168.1.1'), 103],
  ['VLAN segment clashes with LAN (113)', (d) => (vlan(d).ip = '192.168.1.7'), 113],
  [
    'second VLAN with the same IP (104)',
    (d) => d.vlans!.push({ id: 30, name: 'guests', ip: '10.20.0.1', mask: 24 }),
    104,
  ],
  [
    'VLAN segment clashes with another VLAN (118)',
    (d) => d.vlans!.push({ id: 30, name: 'guests', ip: '10.20.0.9', mask: 24 }),
    118,
  ],
  ['VLAN id exists (111)', (d) => d.vlans!.push({ id: 20, name: 'other' }), 111],
  ['VLAN id not an integer (112)', (d) => (vlan(d).id = 20.5), 112],
  ['VLAN id out of range', (d) => (vlan(d).id = 5), 16],
  ['VLAN name reserved (120)', (d) => (vlan(d).name = 'br0'), 120],
  ['VLAN name taken (120)', (d) => d.vlans!.push({ id: 30, name: 'staff' }), 120],
  [
    'tagged differs from the PVID (a port untagged and tagged in one VLAN)',
    (d) => (vlan(d).tagged = [2]),
    16,
  ],
  ['a port untagged in two VLANs (5012)', (d) => d.vlans!.push({ id: 30, name: 'two', untagged: [2] }), 5012],
  ['a port the gateway does not have', (d) => (vlan(d).untagged = [9]), 16],
  ['management VLAN does not exist (5013)', (d) => (d.managementVlan = 99), 5013],
  ['WAN IP and gateway on other segments (121)', (d) => (d.wan!.gateway = '198.51.100.1'), 121],
  [
    'WAN on the LAN segment (122)',
    (d) => (d.wan = { type: 'static', ip: '192.168.1.20', mask: 24, gateway: '192.168.1.254' }),
    122,
  ],
  [
    'WAN on a VLAN segment (127)',
    (d) => (d.wan = { type: 'static', ip: '10.20.0.20', mask: 24, gateway: '10.20.0.254' }),
    127,
  ],
  ['WAN DNS the same twice (110)', (d) => (d.wan!.dns = ['1.1.1.1', '1.1.1.1']), 110],
  ['static WAN without a gateway', (d) => (d.wan!.gateway = undefined), 16],
  ['PPPoE without a password', (d) => (d.wan = { type: 'pppoe', username: 'user' }), 16],
  ['multi-dial WAN with port mappings (165)', (d) => (d.wan = { type: 'multi_dhcp' }), 165],
  ['DHCP end not greater than start (109)', (d) => (pool(d).endIp = '10.20.0.50'), 109],
  ['DHCP range across segments (107)', (d) => (pool(d).endIp = '10.21.0.200'), 107],
  ['DHCP gateway on another segment (107)', (d) => (pool(d).gateway = '10.30.0.1'), 107],
  ['DHCP DNS the same twice (110)', (d) => (pool(d).dns = ['8.8.8.8', '8.8.8.8']), 110],
  ['DHCP lease below 30 minutes', (d) => (pool(d).leaseMinutes = 10), 16],
  ['DHCP pool name characters', (d) => (pool(d).name = 'staff pool'), 16],
  ['DHCP pool on a VLAN that does not exist (5013)', (d) => (pool(d).vlan = 77), 5013],
  [
    'static lease outside the pool (108)',
    (d) => (pool(d).staticLeases = [{ mac: 'AA:BB:CC:00:00:02', ip: '10.20.0.20' }]),
    108,
  ],
  [
    'two leases of one IP (105)',
    (d) => pool(d).staticLeases!.push({ mac: 'AA:BB:CC:00:00:03', ip: '10.20.0.150' }),
    105,
  ],
  [
    'two leases of one MAC (106)',
    (d) => pool(d).staticLeases!.push({ mac: 'aa-bb-cc-00-00-01', ip: '10.20.0.151' }),
    106,
  ],
  [
    'default route as a static route (164)',
    (d) => d.staticRoutes!.push({ name: 'def', destination: '0.0.0.0', mask: 0, nextHop: '10.20.0.254' }),
    164,
  ],
  [
    'static route destination taken',
    (d) =>
      d.staticRoutes!.push({
        name: 'lab2',
        destination: '172.16.9.9',
        mask: '255.255.0.0',
        nextHop: '10.20.0.253',
      }),
    5043,
  ],
  [
    'static route name taken',
    (d) => d.staticRoutes!.push({ name: 'lab', destination: '172.17.0.0', mask: 16, nextHop: '10.20.0.253' }),
    5038,
  ],
  ['port mapping counts differ', (d) => (d.portMappings![0]!.externalPorts = '8080-8081'), 16],
  ['port mapping mixes ranges and lists', (d) => (d.portMappings![0]!.internalPorts = '80-81;90'), 16],
  ['DHCP server and relay on one VLAN (5011)', (d) => (vlan(d).dhcpRelay = '10.99.0.5'), 5011],
  ['DHCP server and snooping on one VLAN (5011)', (d) => (vlan(d).dhcpSnooping = true), 5011],
  [
    'DHCP relay and snooping on one VLAN (5011)',
    (d) => Object.assign(vlan(d), { dhcp: false, dhcpRelay: '10.99.0.5', dhcpSnooping: true }),
    5011,
  ],
  ['DHCP relay server not an IP', (d) => Object.assign(vlan(d), { dhcp: false, dhcpRelay: '10.99.0' }), 16],
  [
    'DHCP relay on a VLAN without an IP',
    (d) => d.vlans!.push({ id: 33, name: 'relay', dhcpRelay: '10.99.0.5' }),
    16,
  ],
  ['L3 virtual interface off with an IP', (d) => (vlan(d).l3 = false), 16],
  ['L3 virtual interface on without an IP', (d) => d.vlans!.push({ id: 33, name: 'l3', l3: true }), 16],
];

describe('network configuration', () => {
  it('starts empty, and the preview names the devices a change touches', async () => {
    const view = await get();
    expect(view).toMatchObject({ revision: 0, progress: { skipped: 0 } });
    expect(view.devices.map((d) => d.sn).sort()).toEqual([gateway.sn, sw.sn, ap.sn].sort());
    expect(view.gatewayPorts).toEqual([2, 3, 4, 5]);
    const preview = await owner.client.request<NetworkPreviewView>('POST', path('/preview'), {
      document: VALID,
    });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const bySn = new Map(preview.body.data.devices.map((d) => [d.sn, d]));
    expect(bySn.get(gateway.sn)).toMatchObject({
      changed: true,
      sections: expect.arrayContaining(['wan', 'dhcpPools']),
    });
    expect(bySn.get(sw.sn)).toMatchObject({ changed: true, sections: ['vlans', 'switch.managementVlan'] });
    expect(bySn.get(ap.sn)).toMatchObject({ changed: true, sections: ['managementVlan'] });
  });

  it.each(RULES)('refuses %s with its code and stores nothing', async (_name, change, code) => {
    const before = await get();
    const doc = clone();
    change(doc);
    const res = await save(before.revision, doc);
    expect(res.body.code, JSON.stringify(res.body)).toBe(code);
    const after = await get();
    expect(after.revision).toBe(before.revision);
    expect(after.document).toEqual(before.document);
  });

  it('a save reaches the gateway, the switch and the AP; each reports it applied', async () => {
    const before = await get();
    const res = await save(before.revision, VALID);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.revision).toBe(before.revision + 1);
    await waitFor(async () => {
      const v = await get();
      return v.progress.applied === 3 && v.progress.pending === 0;
    }, 'all applied');
    expect(gateway.document).toMatchObject({
      wan: { type: 'static', ip: '203.0.113.10' },
      lan: { ip: '192.168.1.1' },
      vlans: [{ id: 20, name: 'staff', ip: '10.20.0.1', untagged: [2] }],
      dhcpPools: [{ name: 'staff_pool', staticLeases: [{ ip: '10.20.0.150' }] }],
      staticRoutes: [{ name: 'lab' }],
      portMappings: [{ name: 'web' }],
    });
    // One management VLAN on a switch: its switch section's (decision 0042), ports kept.
    expect(sw.document).toMatchObject({
      vlans: [{ id: 20, name: 'staff', tagged: [], untagged: [] }],
      switch: {
        managementVlan: 20,
        ports: expect.arrayContaining([expect.objectContaining({ id: 1, allowed: [20, 50] })]),
      },
    });
    expect(sw.document).not.toHaveProperty('managementVlan');
    expect(sw.document).not.toHaveProperty('wan');
    expect(ap.document).toMatchObject({ managementVlan: 20 });
    expect(ap.document).not.toHaveProperty('vlans');
    const row = await deviceRow(server, gateway.sn);
    expect(row?.reportedRevision).toBe(row?.desiredRevision);
    const audits = await server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'network-save'));
    expect(audits.length).toBeGreaterThan(0);
  });

  it('accepts DHCP relay alone, snooping alone and a layer-2 VLAN, and the gateway runs them', async () => {
    const before = await get();
    const doc = clone();
    doc.vlans!.push(
      { id: 34, name: 'relayed', ip: '10.34.0.1', mask: 24, l3: true, dhcpRelay: '10.20.0.5' },
      { id: 35, name: 'snooped', dhcpSnooping: true, l3: false },
    );
    const res = await save(before.revision, doc);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await waitFor(
      () =>
        (gateway.document.vlans as { id: number; dhcpRelay?: string }[] | undefined)?.some(
          (v) => v.id === 34 && v.dhcpRelay === '10.20.0.5',
        ) ?? false,
      'gateway runs the relay',
    );
    expect(gateway.document.vlans).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 35, dhcpSnooping: true, l3: false })]),
    );
  });

  it('the route table is what the gateway reports it runs', async () => {
    const res = await owner.client.get<RouteTableView>(path('/route-table'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.sn).toBe(gateway.sn);
    expect(res.body.data.routes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ destination: '10.20.0.0', mask: '255.255.255.0', source: 'connected' }),
        expect.objectContaining({ destination: '172.16.0.0', gateway: '10.20.0.254', source: 'static' }),
        expect.objectContaining({ destination: '0.0.0.0', gateway: '203.0.113.1', source: 'default' }),
      ]),
    );
  });

  it('two saves on one revision: one wins, the other is refused with 5120', async () => {
    const { revision } = await get();
    const a = clone();
    a.vlans!.push({ id: 31, name: 'a' });
    const b = clone();
    b.vlans!.push({ id: 32, name: 'b' });
    const results = await Promise.all([save(revision, a), save(revision, b)]);
    expect(results.map((r) => r.body.code).sort()).toEqual([0, 5120]);
    expect((await get()).revision).toBe(revision + 1);
  });

  it('an offline device gets the change when it is back', async () => {
    // The previous change settled first: the switch leaves between two changes, not during one.
    await waitFor(async () => (await get()).progress.applied === 3, 'settled');
    await sw.stop();
    await waitFor(async () => (await deviceRow(server, sw.sn))?.status === 0, 'switch offline');
    const current = await get();
    const offline = current.devices.find((d) => d.sn === sw.sn);
    expect(offline?.note).toBe('offline');
    const doc = clone();
    doc.vlans!.push({ id: 40, name: 'while_away' });
    const res = await save(current.revision, doc);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.devices.find((d) => d.sn === sw.sn)?.status).toBe('pending');
    const back = await simulate(server, sw.sn, { model: 'BS-S1008P' });
    running.push(back);
    sw = back;
    await waitFor(
      () => (back.document.vlans as { id: number }[] | undefined)?.some((v) => v.id === 40) ?? false,
      'switch converged',
    );
    await waitFor(async () => (await get()).progress.applied === 3, 'all applied again');
  });

  it('a device in local management mode is left out and counted as not configurable', async () => {
    await waitFor(async () => (await get()).progress.pending === 0, 'settled');
    await server.database.db.update(devices).set({ managementMode: 0 }).where(eq(devices.sn, ap.sn));
    const before = await deviceRow(server, ap.sn);
    const current = await get();
    expect(current.devices.find((d) => d.sn === ap.sn)?.note).toBe('local');
    expect(current.progress.skipped).toBe(1);
    const doc = clone();
    doc.vlans!.push({ id: 50, name: 'mgmt' });
    doc.managementVlan = 50;
    const preview = await owner.client.request<NetworkPreviewView>('POST', path('/preview'), {
      document: doc,
    });
    expect(preview.body.data.devices.find((d) => d.sn === ap.sn)?.changed).toBe(false);
    const res = await save(current.revision, doc);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await deviceRow(server, ap.sn))?.desiredRevision).toBe(before?.desiredRevision);
    await server.database.db.update(devices).set({ managementMode: 1 }).where(eq(devices.sn, ap.sn));
  });

  it('lists, compares and rolls back; the rollback reaches the devices', async () => {
    const list = await owner.client.get<ConfigRevisionList>(path('/revisions'));
    expect(list.body.data.total).toBeGreaterThanOrEqual(3);
    const head = list.body.data.items[0]!.revision;
    const diff = await owner.client.get<ConfigDiffView>(path(`/diff?from=1&to=${head}`));
    expect(diff.status).toBe(200);
    expect(diff.body.data.changes.map((c) => c.path)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^vlans/)]),
    );
    const stale = await owner.client.request<NetworkView>('POST', path('/rollback'), {
      revision: 1,
      expectedRevision: head - 1,
    });
    expect(stale.body.code).toBe(5120);
    const res = await owner.client.request<NetworkView>('POST', path('/rollback'), {
      revision: 1,
      expectedRevision: head,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.revision).toBe(head + 1);
    expect(res.body.data.document.vlans.map((v) => v.id)).toEqual([20]);
    await waitFor(
      () => (gateway.document.vlans as { id: number }[] | undefined)?.length === 1,
      'gateway rolled back',
    );
    await waitFor(
      () => (sw.document.vlans as { id: number }[] | undefined)?.length === 1,
      'switch rolled back',
    );
  });
  it("refuses a management VLAN the switch's ports do not carry (5013), and stores nothing", async () => {
    await waitFor(async () => (await get()).progress.pending === 0, 'settled');
    const before = await get();
    const doc = clone();
    doc.vlans!.push({ id: 60, name: 'unreachable' });
    doc.managementVlan = 60;
    const res = await save(before.revision, doc);
    expect(res.body.code, JSON.stringify(res.body)).toBe(5013);
    expect(res.body.message).toContain(sw.sn);
    expect((res.body as { fields?: Record<string, string> }).fields).toHaveProperty(
      'document.managementVlan',
    );
    expect((await get()).revision).toBe(before.revision);
  });

  it("one save writes each touched device's revision (secrets sealed) and one audit row naming them", async () => {
    await waitFor(async () => (await get()).progress.pending === 0, 'settled');
    const before = await get();
    const rows = new Map(
      await Promise.all(
        [gateway.sn, sw.sn, ap.sn].map(async (sn) => [sn, await deviceRow(server, sn)] as const),
      ),
    );
    const doc = clone();
    doc.wan = { type: 'pppoe', username: 'batch-user', password: 'pw-Batch-77' };
    // The switch takes the new VLAN; the AP's management VLAN is unchanged: it is not touched.
    doc.vlans!.push({ id: 45, name: 'batch' });
    const res = await save(before.revision, doc, 'batched');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const revision = res.body.data.revision;
    const db = server.database.db;
    const written: { sn: string; revision: number }[] = [];
    for (const sn of [gateway.sn, sw.sn]) {
      const row = await deviceRow(server, sn);
      expect(row?.desiredRevision).toBe((rows.get(sn)?.desiredRevision ?? 0) + 1);
      const [stored] = await db
        .select()
        .from(configRevisions)
        .where(and(eq(configRevisions.sn, sn), eq(configRevisions.revision, row!.desiredRevision)));
      expect(stored).toMatchObject({
        projectId,
        hash: row?.desiredHash,
        reason: `Network revision ${revision}: batched`,
        authorId: owner.id,
      });
      // Stored as a document (not a JSON string), with the new VLAN.
      expect((stored!.document as { vlans?: { id: number }[] }).vlans?.map((v) => v.id)).toContain(45);
      // The secret is sealed in the revision and on the device row, opened only for the device.
      expect(JSON.stringify(stored?.document)).not.toContain('pw-Batch-77');
      expect(JSON.stringify(row?.desiredConfig)).not.toContain('pw-Batch-77');
      written.push({ sn, revision: row!.desiredRevision });
    }
    expect((await deviceRow(server, ap.sn))?.desiredRevision).toBe(rows.get(ap.sn)?.desiredRevision);
    const audits = (
      await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'network-save'), eq(auditLog.projectId, projectId)))
    ).filter((a) => (a.after as { revision: number }).revision === revision);
    expect(audits).toHaveLength(1);
    expect(
      [...(audits[0]!.after as { devices: { sn: string; revision: number }[] }).devices].sort((a, b) =>
        a.sn.localeCompare(b.sn),
      ),
    ).toEqual(written.sort((a, b) => a.sn.localeCompare(b.sn)));
    await waitFor(
      () => (gateway.document.wan as { password?: string } | undefined)?.password === 'pw-Batch-77',
      'gateway runs the PPPoE account',
    );
    await waitFor(async () => (await get()).progress.pending === 0, 'all applied');
  });
});

let lateSwitch = '';

describe('a device that joins after the last save', () => {
  const addDevice = (sn: string, model: string) =>
    owner.client.request<{ sn: string }>('POST', `/projects/${projectId}/devices`, { sn, model });

  it('is compiled and queued in the add, and applies the network when it connects', async () => {
    await waitFor(async () => (await get()).progress.pending === 0, 'settled');
    const current = await get();
    // No management VLAN: a new switch (every port in VLAN 1) can run the document.
    const doc = clone();
    delete doc.managementVlan;
    doc.vlans!.push({ id: 70, name: 'late' });
    const saved = await save(current.revision, doc);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const newSwitch = testSn('S');
    lateSwitch = newSwitch;
    const newAp = testSn('A');
    const added = await addDevice(newSwitch, 'BS-S1008P');
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    // Queued in the add's own transaction: pending with a revision before it ever connects.
    const row = await deviceRow(server, newSwitch);
    expect(row?.desiredRevision).toBeGreaterThan(0);
    expect(row?.configStatus).toBe('pending');
    // An AP takes only the management VLAN, and there is none: nothing queued for it.
    expect((await addDevice(newAp, 'BA-W1200C')).status).toBe(200);
    expect((await deviceRow(server, newAp))?.desiredRevision).toBe(0);
    const view = await get();
    expect(view.devices.find((d) => d.sn === newSwitch)).toMatchObject({
      status: 'pending',
      note: 'offline',
    });
    const s = await simulate(server, newSwitch, { model: 'BS-S1008P' });
    const a = await simulate(server, newAp, { model: 'BA-W1200C' });
    running.push(s, a);
    await waitFor(
      () => (s.document.vlans as { id: number }[] | undefined)?.some((v) => v.id === 70) ?? false,
      'new switch converged',
      20_000,
    );
    await waitFor(async () => (await get()).progress.applied === 5, 'all five applied', 20_000);
  });

  it('a batch import queues the network for every device it takes, in the import', async () => {
    // The document has VLANs and no management VLAN: switches take it, an AP has nothing to take.
    const sns = [testSn('S'), testSn('S')];
    const apSn = testSn('A');
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(
      book,
      XLSX.utils.aoa_to_sheet([
        ['Serial number', 'Model'],
        ...sns.map((sn) => [sn, 'BS-S1008P']),
        [apSn, 'BA-W1200C'],
      ]),
      'Devices',
    );
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer)]),
      'devices.xlsx',
    );
    const res = await owner.client.request<{ added: number }>(
      'POST',
      `/projects/${projectId}/devices/import`,
      form,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.added).toBe(3);
    expect((await deviceRow(server, apSn))?.desiredRevision).toBe(0);
    await server.database.db.delete(devices).where(eq(devices.sn, apSn));
    for (const sn of sns) {
      const row = await deviceRow(server, sn);
      expect(row).toMatchObject({ configStatus: 'pending' });
      expect(row?.desiredRevision).toBeGreaterThan(0);
      await server.database.db.delete(devices).where(eq(devices.sn, sn));
    }
  });

  it('a switch the document does not fit is added, nothing queued, and the log says why', async () => {
    await waitFor(async () => (await get()).progress.pending === 0, 'settled', 20_000);
    // Every member switch carries VLAN 20, so the project may be managed in it again.
    await carry(lateSwitch, [20]);
    const current = await get();
    const saved = await save(current.revision, VALID); // management VLAN 20
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const sn = testSn('S');
    const res = await addDevice(sn, 'BS-S1008P');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await deviceRow(server, sn))?.desiredRevision).toBe(0);
    // An AP joining now takes the management VLAN, and runs it once it connects.
    const apSn = testSn('A');
    expect((await addDevice(apSn, 'BA-W1200C')).status).toBe(200);
    expect(await deviceRow(server, apSn)).toMatchObject({ configStatus: 'pending' });
    const lateAp = await simulate(server, apSn, { model: 'BA-W1200C' });
    running.push(lateAp);
    await waitFor(() => lateAp.document.managementVlan === 20, 'new AP runs the management VLAN', 20_000);
    const events = await server.database.db.select().from(deviceEvents).where(eq(deviceEvents.sn, sn));
    expect(events).toEqual([
      expect.objectContaining({
        event: 'network-not-applied',
        level: 'warning',
        data: expect.objectContaining({ code: 5013 }),
      }),
    ]);
    // Gone from the project again, so the later tests see the members they expect.
    await server.database.db.delete(deviceEvents).where(eq(deviceEvents.sn, sn));
    await server.database.db.delete(devices).where(eq(devices.sn, sn));
  });
});
