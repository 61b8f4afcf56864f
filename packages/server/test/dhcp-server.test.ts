import type { SimulatedDevice } from '@beacon/agent';
import type {
  DhcpServerConfigInput,
  DhcpServerView,
  NetworkDocumentInput,
  NetworkView,
} from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, devices } from '../src/db/schema.ts';
import { deviceRow, insertProject, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * The DHCP server of a switch or an AP (issue 10 "DHCP policy", decision 0043): saved as a revision
 * of the device's configuration and run by the simulated device; every pool rule refused with its
 * code and nothing stored; never on a VLAN with DHCP relay, snooping or the gateway's server (5011),
 * from either side (the device's save or a later network save); a gateway has none (2).
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
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

const url = (sn: string) => `/projects/${projectId}/devices/${sn}/dhcp-server`;
const get = async (sn: string) => (await owner.client.get<DhcpServerView>(url(sn))).body.data;
const put = (sn: string, expectedRevision: number, dhcpServer: DhcpServerConfigInput) =>
  owner.client.request<DhcpServerView>('PUT', url(sn), { expectedRevision, dhcpServer, reason: 'test' });

const POOL: DhcpServerConfigInput = {
  enabled: true,
  name: 'ap_pool',
  startIp: '192.168.60.100',
  endIp: '192.168.60.199',
  mask: 24,
  gateway: '192.168.60.1',
  dns: ['192.168.60.1'],
  leaseMinutes: 180,
  staticLeases: [{ mac: 'AA:BB:CC:00:00:21', ip: '192.168.60.150', name: 'printer' }],
};

const RULES: [string, Partial<DhcpServerConfigInput>, number][] = [
  ['a pool name with a space', { name: 'ap pool' }, 16],
  ['a pool name of 33 characters', { name: 'p'.repeat(33) }, 16],
  ['an end IP not greater than the start (109)', { endIp: '192.168.60.100' }, 109],
  ['an end IP on another segment (107)', { endIp: '192.168.61.10' }, 107],
  ['a gateway on another segment (107)', { gateway: '10.0.0.1' }, 107],
  ['two equal DNS servers (110)', { dns: ['1.1.1.1', '1.1.1.1'] }, 110],
  ['a custom lease under 30 minutes', { leaseMinutes: 20 }, 16],
  ['a custom lease over 10080 minutes', { leaseMinutes: 10081 }, 16],
  [
    'a static lease outside the pool (108)',
    { staticLeases: [{ mac: 'AA:BB:CC:00:00:21', ip: '192.168.60.20', name: 'x' }] },
    108,
  ],
  [
    'two static leases for one IP (105)',
    {
      staticLeases: [
        { mac: 'AA:BB:CC:00:00:21', ip: '192.168.60.150', name: 'a' },
        { mac: 'AA:BB:CC:00:00:22', ip: '192.168.60.150', name: 'b' },
      ],
    },
    105,
  ],
  ['a static lease with a bad MAC', { staticLeases: [{ mac: 'AA:BB', ip: '192.168.60.150' }] }, 16],
  ['a VLAN the network does not have (5013)', { vlan: 77 }, 5013],
  ['a mask that is not one', { mask: '255.0.255.0' }, 16],
];

describe('the DHCP server of a switch or an AP', () => {
  it('an AP runs the pool it is given; the revision is audited', async () => {
    const before = await get(ap.sn);
    expect(before).toMatchObject({ sn: ap.sn, dhcpServer: null });
    const res = await put(ap.sn, before.revision, POOL);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.revision).toBe(before.revision + 1);
    expect(res.body.data.dhcpServer).toMatchObject({ name: 'ap_pool', vlan: null, leaseMinutes: 180 });
    await waitFor(async () => (await get(ap.sn)).configStatus === 'applied', 'AP applied');
    expect(ap.document.dhcpServer).toMatchObject({
      enabled: true,
      startIp: '192.168.60.100',
      staticLeases: [{ ip: '192.168.60.150' }],
    });
    const audits = await server.database.db.select().from(auditLog).where(eq(auditLog.entityId, ap.sn));
    expect(audits.map((a) => a.action)).toContain('dhcp-server-save');
    // Based on the revision before: refused, nothing stored.
    const stale = await put(ap.sn, before.revision, { ...POOL, name: 'other' });
    expect(stale.body.code).toBe(5120);
    expect((await get(ap.sn)).dhcpServer?.name).toBe('ap_pool');
  });

  it.each(RULES)('refuses %s with its code and stores nothing', async (_name, change, code) => {
    const before = await get(sw.sn);
    const res = await put(sw.sn, before.revision, { ...POOL, ...change });
    expect(res.body.code, JSON.stringify(res.body)).toBe(code);
    expect((await deviceRow(server, sw.sn))?.desiredRevision).toBe(before.revision);
  });

  it('a gateway serves the project pools, not a device DHCP server (2)', async () => {
    const res = await owner.client.get<DhcpServerView>(url(gateway.sn));
    expect(res.body.code).toBe(2);
    const saved = await put(gateway.sn, 0, POOL);
    expect(saved.body.code).toBe(2);
  });

  it('only one of DHCP relay, snooping or server on a VLAN (5011), whichever is saved second', async () => {
    const net = async () => (await owner.client.get<NetworkView>(`/projects/${projectId}/network`)).body.data;
    const saveNetwork = (expectedRevision: number, document: NetworkDocumentInput) =>
      owner.client.request<NetworkView>('PUT', `/projects/${projectId}/network`, {
        expectedRevision,
        document,
      });
    const vlans: NetworkDocumentInput['vlans'] = [
      { id: 30, name: 'relayed', ip: '10.30.0.1', mask: 24, dhcpRelay: '10.30.0.5' },
      { id: 40, name: 'plain' },
    ];
    const first = await saveNetwork((await net()).revision, { vlans });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    await waitFor(async () => (await get(sw.sn)).configStatus === 'applied', 'switch took the VLANs');
    const view = await get(sw.sn);
    expect(view.vlans).toEqual([
      { id: 30, name: 'relayed', dhcp: 'relay' },
      { id: 40, name: 'plain', dhcp: 'none' },
    ]);
    // The device's save on the relayed VLAN is refused; on the plain one it is taken and run.
    const refused = await put(sw.sn, view.revision, { ...POOL, vlan: 30 });
    expect(refused.body.code, JSON.stringify(refused.body)).toBe(5011);
    const ok = await put(sw.sn, view.revision, { ...POOL, name: 'sw_pool', vlan: 40 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    await waitFor(
      () => (sw.document.dhcpServer as { vlan?: number } | undefined)?.vlan === 40,
      'switch runs its DHCP server',
    );
    // The network may not then turn on snooping on VLAN 40, nor drop it: the switch serves there.
    const head = (await net()).revision;
    const snooped = await saveNetwork(head, {
      vlans: [vlans[0]!, { id: 40, name: 'plain', dhcpSnooping: true }],
    });
    expect(snooped.body.code, JSON.stringify(snooped.body)).toBe(5011);
    expect(snooped.body.message).toContain(sw.sn);
    const dropped = await saveNetwork(head, { vlans: [vlans[0]!] });
    expect(dropped.body.code, JSON.stringify(dropped.body)).toBe(5013);
    expect((await net()).revision).toBe(head);
    // A network change that leaves VLAN 40 alone keeps the switch's DHCP server in its document.
    const kept = await saveNetwork(head, { vlans: [...vlans, { id: 50, name: 'more' }] });
    expect(kept.status, JSON.stringify(kept.body)).toBe(200);
    await waitFor(
      () => ((sw.document.vlans as { id: number }[] | undefined) ?? []).some((v) => v.id === 50),
      'switch took VLAN 50',
    );
    expect(sw.document.dhcpServer).toMatchObject({ name: 'sw_pool', vlan: 40 });
  });
});
