/**
 * bench/topology — assembling and laying out a 1,000-device topology (issue 13, decision 0050).
 *
 *   CHROMIUM_PATH=/usr/bin/chromium npm run bench:topology -w @beacon/bench -- 1000   (--runs 3)
 *
 * A site of N devices as the simulator wires one (packages/agent planFleet: one gateway, 24-port
 * PoE switches below it, APs and NVRs on the switches' ports, cameras on the NVRs' free PoE ports, a
 * phone and an unmanaged switch with three hosts on the first switch), each cable reported by both
 * ends as the simulator's LLDP does. Measured, median and spread of --runs:
 * - the server's graph assembly (src/topology/graph.ts) in this Node process (CPU ms);
 * - the web screen's layout (features/topology/elkGraph.ts options, elkjs) in headless Chromium, with
 *   every folded group opened (all N devices and their cameras drawn), as wall ms in the page and as
 *   the renderer processes' CPU ms (DevTools SystemInfo.getProcessInfo). Printed as JSON.
 */
import { createRequire } from 'node:module';
import { planFleet } from '@beacon/agent';
import type { LinkNeighbour } from '@beacon/protocol';
import { chromium } from 'playwright-core';
// The simulator's MAC of a device, for the LLDP chassis ids.
import { macFromSn } from '../packages/agent/src/util.ts';
import { assembleTopology, type GraphDevice } from '../packages/server/src/topology/graph.ts';
import { toElkGraph } from '../packages/web/src/features/topology/elkGraph.ts';

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const n = Number(args.find((a, i) => /^\d+$/.test(a) && !args[i - 1]?.startsWith('--')) ?? 1000);
const runs = flag('runs', 3);

const stats = (list: number[]) => {
  const s = [...list].sort((a, b) => a - b);
  return {
    median: Math.round(s[Math.floor(s.length / 2)]!),
    min: Math.round(s[0]!),
    max: Math.round(s.at(-1)!),
  };
};

const require = createRequire(import.meta.url);

function site(count: number): GraphDevice[] {
  const switches = Math.ceil(count / 18);
  const nvrs = Math.floor(count / 25);
  const specs = [
    { sn: 'BENCHGW000000001', model: 'BG-R3000P', site: 0 },
    ...Array.from({ length: switches }, (_, i) => ({
      sn: `BENCHSW${String(i).padStart(9, '0')}`,
      model: 'BS-S2024P',
      site: 0,
    })),
    ...Array.from({ length: nvrs }, (_, i) => ({
      sn: `BENCHNV${String(i).padStart(9, '0')}`,
      model: 'BN-N0804P',
      site: 0,
    })),
  ];
  while (specs.length < count)
    specs.push({ sn: `BENCHAP${String(specs.length).padStart(9, '0')}`, model: 'BA-W1200C', site: 0 });
  const plan = planFleet({ url: 'mqtt://bench', devices: specs });
  return plan.map((p, i) => {
    const links: LinkNeighbour[] = [...p.neighbours].flatMap(([port, nb]): LinkNeighbour[] => {
      const base = { port, medium: 'wired' as const, speed: 1000, rssi: null, vlan: 1 };
      if (nb.hosts) {
        return Array.from({ length: nb.hosts }, (_, h) => ({
          ...base,
          mac: macFromSn(`${p.sn}/${port}/${h}`),
          remotePort: 'eth0',
          role: 'station' as const,
        }));
      }
      return [
        {
          ...base,
          mac: macFromSn(nb.sn ?? `${p.sn}/${port}`),
          ...(nb.sn ? { sn: nb.sn } : {}),
          remotePort: nb.remotePort === undefined ? 'eth0' : String(nb.remotePort),
          role:
            nb.kind === 'camera'
              ? ('camera' as const)
              : nb.kind === 'phone'
                ? ('phone' as const)
                : ('switch' as const),
        },
      ];
    });
    return {
      sn: p.sn,
      name: p.sn,
      model: p.model,
      type: p.type,
      mac: macFromSn(p.sn),
      ip: p.ip,
      status: 1,
      clientCount: i % 17,
      uplinkSn: p.uplink?.sn ?? null,
      uplinkPort: p.uplink?.port ?? null,
      meshRole: null,
      ports: [...p.neighbours.keys()].map((id) => ({ id, poe: { enabled: true, power: 6.5 } })),
      links,
      internet: p.type === 'router' ? { up: true, port: 1, speed: 1000 } : null,
    };
  });
}

const devices = site(n);
const assembly: number[] = [];
let graph = assembleTopology(devices);
for (let i = 0; i < runs; i++) {
  const before = process.cpuUsage();
  graph = assembleTopology(devices);
  const used = process.cpuUsage(before);
  assembly.push((used.user + used.system) / 1000);
}
// Every group opened: the members instead of the fold nodes.
const nodes = graph.nodes.filter((x) => x.members === null);
const ids = new Set(nodes.map((x) => x.id));
const edges = graph.edges.filter((e) => ids.has(e.source) && ids.has(e.target));
const elkInput = toElkGraph(nodes, edges, 'vertical');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
  headless: true,
});
const page = await browser.newPage();
await page.setContent('<!doctype html><title>topology bench</title>');
await page.addScriptTag({ path: require.resolve('elkjs/lib/elk.bundled.js') });
// CPU seconds of the renderer processes (the machine is shared: wall time says little).
const cdp = await browser.newBrowserCDPSession();
const taskSeconds = async () => {
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as {
    processInfo: { type: string; id: number; cpuTime: number }[];
  };
  return processInfo.filter((p) => p.type === 'renderer').reduce((a, p) => a + p.cpuTime, 0);
};
let cold = { wallMs: 0, rendererCpuMs: 0 };
const wall: number[] = [];
const cpu: number[] = [];
for (let i = 0; i < runs + 1; i++) {
  const before = await taskSeconds();
  const ms = await page.evaluate(async (input) => {
    const ELK = (globalThis as unknown as { ELK: new () => { layout(g: unknown): Promise<unknown> } }).ELK;
    const started = performance.now();
    await new ELK().layout(input);
    return performance.now() - started;
  }, elkInput);
  const after = await taskSeconds();
  // The first run warms the JIT up (a browser tab that lays out twice runs warm); reported apart.
  if (i === 0) cold = { wallMs: Math.round(ms), rendererCpuMs: Math.round((after - before) * 1000) };
  else {
    wall.push(ms);
    cpu.push((after - before) * 1000);
  }
}
await browser.close();

console.log(
  JSON.stringify(
    {
      devices: devices.length,
      nodes: nodes.length,
      edges: edges.length,
      foldedNodes: graph.nodes.filter((x) => x.group === null).length,
      assemblyCpuMs: stats(assembly),
      firstLayout: cold,
      layoutWallMs: stats(wall),
      layoutRendererCpuMs: stats(cpu),
    },
    null,
    2,
  ),
);
