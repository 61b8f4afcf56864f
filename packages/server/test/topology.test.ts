import { type Fleet, startFleet } from '@beacon/agent';
import { DEMO_PROJECT_IDS, type TopoDeviceType, type TopologyView } from '@beacon/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_DEVICES, seedDemoDevices } from '../src/gateway/demo.ts';
import { EventCollector, insertDevice, insertProject, RUN, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * The topology (issue 13, decision 0050) end to end on the server: simulated devices report their
 * LLDP neighbours, wireless backhauls and the internet link over MQTT; the API answers the graph
 * they make (a gateway, two switches, APs and an NVR with its cameras below them, a phone and an
 * unmanaged segment; the mesh tree of the MESH demo project), and changes live when a device goes
 * offline or a link goes down.
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
let fleet: Fleet;
let mesh: Fleet;

const sn = (kind: string, i: number) => `T${RUN}${kind}${String(i).padStart(16 - 3 - RUN.length, '0')}`;
const GW = sn('GW', 1);
const SW = [sn('SW', 1), sn('SW', 2)];
const AP = [1, 2, 3, 4].map((i) => sn('AP', i));
const NVR = sn('NV', 1);
const MODELS: [string, string, string][] = [
  [GW, 'BG-R3000P', 'router'],
  [SW[0], 'BS-S2024P', 'switch'],
  [SW[1], 'BS-S1008P', 'switch'],
  ...AP.map((s): [string, string, string] => [s, 'BA-W1200C', 'ap']),
  [NVR, 'BN-N0804P', 'nvr'],
];

const fleetOptions = (s: TestServer) => ({
  url: s.gateway.brokerUrl,
  factoryKey: s.config.factoryKey,
  timeScale: 0.01,
  telemetryMs: 400,
  backoffMinMs: 100,
  backoffMaxMs: 400,
  keepalive: 5,
  clientEvents: false,
});

async function topology(id = projectId): Promise<TopologyView> {
  const res = await owner.client.get<TopologyView>(`/projects/${id}/topology`);
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data;
}

const edge = (g: TopologyView, source: string, target: string) =>
  g.edges.find((e) => e.source === source && e.target === target);
const node = (g: TopologyView, id: string) => g.nodes.find((n) => n.id === id);

beforeAll(async () => {
  server = await startTestServer();
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
  for (const [s, model, type] of MODELS) {
    await insertDevice(server.database, { sn: s, projectId, model, type });
  }
  fleet = await startFleet({
    ...fleetOptions(server),
    devices: MODELS.map(([s, model]) => ({ sn: s, model, site: 0 })),
  });
  await fleet.waitOnline(30_000);
});

afterAll(async () => {
  await fleet?.stop();
  await mesh?.stop();
  await server?.close();
});

describe('topology', () => {
  it('answers the graph the fleet reports: internet, gateway, two switches, APs, NVR with cameras, hosts', async () => {
    // The graph arrives in pieces (each device reports its own neighbours, ports and links on its
    // own telemetry tick), so the whole picture is awaited, not its first edges.
    await vi.waitFor(
      async () => {
        const g = await topology();
        expect(edge(g, 'internet', GW)?.up).toBe(true);
        for (const s of SW) expect(edge(g, GW, s)?.up).toBe(true);
        // Every device once, each drawn where it hangs: no device without its uplink.
        for (const [s] of MODELS) expect(g.nodes.filter((n) => n.id === s)).toHaveLength(1);
        expect(node(g, GW)).toMatchObject({ kind: 'router', status: 1, deviceType: 'router' });
        expect(node(g, 'internet')).toMatchObject({ kind: 'internet', status: 1 });
        for (const a of AP) {
          const up = g.edges.find((e) => e.target === a)!;
          expect(up).toMatchObject({ medium: 'wired', redundant: false, up: true });
          expect(SW).toContain(up.source);
          expect(up.speed).toBeGreaterThan(0);
          expect(up.poe).toBeGreaterThan(0);
          expect(node(g, a)).toMatchObject({ kind: 'wired_ap' });
          expect(node(g, a)!.clients).toEqual(expect.any(Number));
        }
        // Each cable is one edge, though both ends report it.
        expect(
          g.edges.filter((e) => [e.source, e.target].sort().join() === [GW, SW[0]].sort().join()),
        ).toHaveLength(1);
        // The NVR's cameras (not Beacon devices) hang off it; the phone and the hub's hosts off a switch.
        const nvrEdge = g.edges.find((e) => e.target === NVR)!;
        expect(SW).toContain(nvrEdge.source);
        const cameras = g.nodes.filter((n) => n.kind === 'ipc');
        expect(cameras.length).toBeGreaterThanOrEqual(4);
        for (const c of cameras) expect(edge(g, NVR, c.id)).toBeDefined();
        expect(g.nodes.some((n) => n.kind === 'unknown_dev' && n.role === 'phone')).toBe(true);
        const segment = g.nodes.find((n) => n.kind === 'unknown_net')!;
        expect(g.edges.filter((e) => e.source === segment.id)).toHaveLength(3);
        expect(g.truncated).toBe(false);
      },
      { timeout: 30_000, interval: 50 },
    );
  });

  it('keeps a user’s device-type code for a node, and -1 gives the node back its reported type', async () => {
    const phone = (await topology()).nodes.find((n) => n.role === 'phone')!;
    const set = async (node: string, code: TopoDeviceType | 13) =>
      owner.client.request('PUT', `/projects/${projectId}/topology/types`, { node, code });
    expect((await set(phone.id, 12)).body.code).toBe(0);
    expect((await set(AP[0], 6)).body.code).toBe(0);
    let g = await topology();
    expect(node(g, phone.id)!.typeCode).toBe(12);
    expect(node(g, AP[0])!.typeCode).toBe(6);
    expect((await set(AP[0], -1)).body.code).toBe(0);
    g = await topology();
    expect(node(g, AP[0])!.typeCode).toBeNull();
    expect((await set(AP[0], 13)).body.code).toBe(5380);
  });

  it('changes live: a device going offline, and a link going down', async () => {
    const events = await EventCollector.start(server);
    try {
      // An AP powered off: its status event, then the graph shows it offline with its link down.
      const gone = fleet.get(AP[3])!;
      await gone.stop();
      await waitFor(
        () => events.events.some((e) => e.type === 'device.status' && e.sn === AP[3] && e.status === 0),
        'the offline status event',
        15_000,
      );
      const g = await topology();
      expect(node(g, AP[3])!.status).toBe(0);
      expect(g.edges.find((e) => e.target === AP[3])).toMatchObject({ up: false, speed: 0 });

      // The phone's port loses power: the switch stops seeing it, a topology.changed event names
      // the switch and the phone leaves the graph.
      const before = await topology();
      const phone = before.nodes.find((n) => n.role === 'phone')!;
      const phoneEdge = before.edges.find((e) => e.target === phone.id)!;
      const sw = fleet.get(phoneEdge.source)!;
      sw.core.options.live.powerCycle([Number(phoneEdge.sourcePort)], Date.now() + 60_000);
      await waitFor(
        () => events.events.some((e) => e.type === 'topology.changed' && e.sns.includes(phoneEdge.source)),
        'the topology.changed event',
        15_000,
      );
      await waitFor(async () => !node(await topology(), phone.id), 'the phone to leave the graph', 10_000);
    } finally {
      await events.stop();
    }
  });

  it('draws the MESH demo project’s mesh tree from the secondaries’ backhauls', async () => {
    await seedDemoDevices(server.database);
    const nodes = DEMO_DEVICES.filter((d) => d.projectId === DEMO_PROJECT_IDS.MESH);
    mesh = await startFleet({
      ...fleetOptions(server),
      devices: nodes.map((d) => ({ sn: d.sn, model: d.model, site: d.site })),
    });
    await mesh.waitOnline(30_000);
    const [primary, ...secondaries] = nodes.map((d) => d.sn);
    await vi.waitFor(
      async () => {
        const g = await topology(DEMO_PROJECT_IDS.MESH);
        for (const s of secondaries) expect(g.edges.some((e) => e.target === s && e.up)).toBe(true);
        expect(edge(g, 'internet', primary)?.up).toBe(true);
        // Two children per node: the primary carries two, the first secondary the third.
        expect(edge(g, primary, secondaries[0])).toMatchObject({ medium: 'mesh', sourcePort: null });
        expect(edge(g, primary, secondaries[1])).toBeDefined();
        const deep = edge(g, secondaries[0], secondaries[2])!;
        expect(deep).toMatchObject({ medium: 'mesh', redundant: false });
        expect(deep.rssi).toBeLessThan(0);
        // Every mesh node once (the hosts on their LAN ports are unknown devices around them).
        expect(g.nodes.flatMap((n) => (n.sn ? [n.sn] : [])).sort()).toEqual(nodes.map((d) => d.sn).sort());
        expect(
          g.nodes
            .filter((n) => n.sn === null)
            .every((n) => ['internet', 'unknown_dev', 'unknown_net'].includes(n.kind)),
        ).toBe(true);
      },
      { timeout: 30_000, interval: 50 },
    );
  });
});
