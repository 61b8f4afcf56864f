import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAsyncApi, DEVICE_MESSAGE_NAMES, modelInfo } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderAsyncApi } from './asyncapi.ts';
import { fleetSn, planFleet } from './fleet.ts';
import { ConfigStore } from './store.ts';
import { type AccessPoint, ClientWorld, diurnal } from './world.ts';

describe('fleet plan', () => {
  it('generates valid serial numbers', () => {
    expect(fleetSn('SIM', 'ap', 1)).toBe('SIMAP00000000001');
    expect(fleetSn('DEMO500000', 'switch', 2)).toBe('DEMO500000SW000002');
    expect(() => fleetSn('SIM-', 'ap', 1)).toThrow();
  });

  it('wires a site: switches off the gateway, APs on PoE ports, mesh primary and secondaries', () => {
    const plan = planFleet({
      url: 'mqtt://x',
      count: 12,
      types: ['router', 'switch', 'ap', 'ap', 'ap', 'mesh'],
      siteSize: 12,
    });
    const gw = plan.find((p) => p.type === 'router')!;
    const switches = plan.filter((p) => p.type === 'switch');
    expect(switches.every((s) => s.uplink?.sn === gw.sn)).toBe(true);
    for (const ap of plan.filter((p) => p.type === 'ap')) {
      const sw = plan.find((p) => p.sn === ap.uplink?.sn)!;
      expect(sw.type).toBe('switch');
      expect(modelInfo(sw.model)!.ports.find((x) => x.id === ap.uplink!.port)!.poe).toBe(true);
    }
    const mesh = plan.filter((p) => p.type === 'mesh');
    expect(mesh.map((m) => m.meshRole)).toEqual(['primary', 'secondary']);
    expect(mesh[1].meshParent).toBe(mesh[0].sn);
    expect(new Set(plan.map((p) => p.sn)).size).toBe(12);
    // The first switch also carries an IP phone and an unmanaged switch with hosts behind it.
    const kinds = [...switches[0].neighbours.values()].map((n) => n.kind);
    expect(kinds).toContain('phone');
    expect([...switches[0].neighbours.values()].some((n) => n.hosts === 3)).toBe(true);
    expect(new Set(plan.map((p) => p.ip)).size).toBe(12);
  });
});

describe('client world', () => {
  it('is busier by day than by night', () => {
    expect(diurnal(13)).toBeGreaterThan(0.9);
    expect(diurnal(3)).toBeLessThan(0.2);
  });

  it('lets clients join, grow their counters and roam between the APs of a site', () => {
    const world = new ClientWorld({ site: 3, population: 40, tickMs: 3_600_000 });
    const events: string[] = [];
    const ap = (sn: string): AccessPoint => ({
      sn,
      bands: ['2.4G', '5G'],
      capacity: 256,
      ssids: () => ['Guest'],
      onClient: (e) => events.push(e),
    });
    world.register(ap('APONE00000000001'));
    world.register(ap('APTWO00000000002'));
    const t0 = new Date();
    t0.setHours(13, 0, 0, 0);
    for (let i = 0; i < 40; i++) world.tick(t0.getTime() + i * 5000);
    expect(world.online().length).toBeGreaterThan(10);
    expect(events).toContain('joined');
    expect(events).toContain('roamed');
    expect(world.online().some((s) => s.rxBytes > 0)).toBe(true);
    world.stop();
  });
});

describe('configuration store', () => {
  it('survives a restart and falls back to factory settings on a corrupt file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agent-store-'));
    const info = modelInfo('BA-W1200C')!;
    try {
      const a = await ConfigStore.open(dir, 'STORE00000000001', info, '4.2.0');
      await a.update({ revision: 5, document: { name: 'lobby' } });
      const b = await ConfigStore.open(dir, 'STORE00000000001', info, '4.2.0');
      expect(b.data.revision).toBe(5);
      expect(b.document).toEqual({ name: 'lobby' });
      await writeFile(join(dir, 'STORE00000000001.json'), '{not json');
      const c = await ConfigStore.open(dir, 'STORE00000000001', info, '4.2.0');
      expect(c.data.revision).toBe(0);
      expect(JSON.parse(await readFile(join(dir, 'STORE00000000001.json'), 'utf8')).revision).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('docs/protocol/asyncapi.yaml', () => {
  it('matches the protocol schemas and names every message', async () => {
    const file = new URL('../../../docs/protocol/asyncapi.yaml', import.meta.url);
    const text = await readFile(file, 'utf8');
    expect(text, 'run npm run asyncapi -w @beacon/agent').toBe(renderAsyncApi());
    const doc = parse(text);
    expect(doc).toEqual(buildAsyncApi());
    for (const name of DEVICE_MESSAGE_NAMES) expect(Object.keys(doc.components.messages)).toContain(name);
  });

  it('plans a mesh tree (two children per node) and cameras on an NVR’s free PoE ports', () => {
    const plan = planFleet({ url: 'mqtt://x', count: 6, types: ['mesh'], siteSize: 6 });
    expect(
      plan.map((p) => [p.meshParent && plan.findIndex((q) => q.sn === p.meshParent), p.meshHops]),
    ).toEqual([
      [null, 0],
      [0, 1],
      [0, 1],
      [1, 2],
      [1, 2],
      [2, 2],
    ]);
    const nvr = planFleet({ url: 'mqtt://x', count: 2, types: ['switch', 'nvr'], siteSize: 2 }).find(
      (p) => p.type === 'nvr',
    )!;
    const cams = [...nvr.neighbours.values()].filter((n) => n.kind === 'camera');
    expect(cams.length).toBe(modelInfo(nvr.model)!.ports.filter((p) => p.poe).length);
  });
});
