import type { LinkNeighbour } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import { assembleTopology, type GraphDevice, INTERNET_ID } from './graph.ts';

const mac = (n: number) =>
  `02:00:00:00:${String(Math.floor(n / 256)).padStart(2, '0')}:${(n % 256).toString(16).padStart(2, '0').toUpperCase()}`;

function device(sn: string, type: string, over: Partial<GraphDevice> = {}): GraphDevice {
  return {
    sn,
    name: sn,
    model: 'M',
    type,
    mac: mac(sn.length * 7 + sn.charCodeAt(sn.length - 1)),
    ip: '10.0.0.1',
    status: 1,
    clientCount: 3,
    uplinkSn: null,
    uplinkPort: null,
    meshRole: null,
    ports: [],
    links: [],
    internet: null,
    ...over,
  };
}

const wired = (
  port: number,
  to: GraphDevice,
  remotePort: number | string,
  over: Partial<LinkNeighbour> = {},
): LinkNeighbour => ({
  port,
  mac: to.mac!,
  sn: to.sn,
  remotePort: String(remotePort),
  role: 'switch',
  medium: 'wired',
  speed: 1000,
  rssi: null,
  vlan: 1,
  ...over,
});

/** Both ends of a cable report it. */
function cable(a: GraphDevice, aPort: number, b: GraphDevice, bPort: number, speed = 1000) {
  (a.links as LinkNeighbour[]).push(wired(aPort, b, bPort, { speed }));
  (b.links as LinkNeighbour[]).push(wired(bPort, a, aPort, { speed }));
}

describe('assembleTopology', () => {
  it('builds internet → gateway → switches → APs from both ends of each cable, one edge per cable', () => {
    const gw = device('GW', 'router', { internet: { up: true, port: 1, speed: 500 } });
    const s1 = device('S1', 'switch', { ports: [{ id: 3, poe: { enabled: true, power: 6.5 } }] });
    const s2 = device('S2', 'switch');
    const a1 = device('A1', 'ap');
    const a2 = device('A2', 'ap', { clientCount: 7 });
    cable(gw, 2, s1, 1);
    cable(gw, 3, s2, 1);
    cable(s1, 3, a1, 1);
    cable(s2, 4, a2, 1, 100);
    const g = assembleTopology([a2, s2, a1, gw, s1]);
    expect(g.nodes.map((n) => n.id)).toEqual([INTERNET_ID, 'GW', 'S1', 'S2', 'A1', 'A2']);
    const edge = (s: string, t: string) => g.edges.find((e) => e.source === s && e.target === t);
    expect(g.edges).toHaveLength(5);
    expect(edge(INTERNET_ID, 'GW')).toMatchObject({ speed: 500, targetPort: '1', up: true });
    expect(edge('GW', 'S1')).toMatchObject({
      sourcePort: '2',
      targetPort: '1',
      speed: 1000,
      redundant: false,
    });
    expect(edge('S1', 'A1')).toMatchObject({ poe: 6.5, sourcePort: '3' });
    expect(edge('S2', 'A2')).toMatchObject({ speed: 100, poe: null });
    const a2node = g.nodes.find((n) => n.id === 'A2')!;
    expect(a2node).toMatchObject({ kind: 'wired_ap', clients: 7, ports: ['1'], vlans: [1] });
    expect(g.nodes.find((n) => n.id === 'S1')!.clients).toBeNull();
  });

  it('keeps a loop and a second cable between the same switches, marked redundant', () => {
    const gw = device('GW', 'router', { internet: { up: true, port: 1, speed: 500 } });
    const s1 = device('S1', 'switch');
    const s2 = device('S2', 'switch');
    cable(gw, 2, s1, 1);
    cable(gw, 3, s2, 1);
    cable(s1, 5, s2, 5);
    cable(s1, 6, s2, 6);
    const g = assembleTopology([gw, s1, s2]);
    const between = g.edges.filter((e) => [e.source, e.target].sort().join() === 'S1,S2');
    expect(between).toHaveLength(2);
    expect(between.every((e) => e.redundant)).toBe(true);
    expect(g.edges.filter((e) => !e.redundant)).toHaveLength(3);
  });

  it('makes unknown devices, an unmanaged segment, and cameras behind an NVR folded when many', () => {
    const sw = device('S1', 'switch');
    const nvr = device('N1', 'nvr');
    cable(sw, 1, nvr, 9);
    const host = (n: number, role: LinkNeighbour['role'], port: number): LinkNeighbour => ({
      port,
      mac: mac(100 + n),
      remotePort: 'eth0',
      role,
      medium: 'wired',
      speed: 100,
      rssi: null,
      vlan: 20,
    });
    (sw.links as LinkNeighbour[]).push(host(1, 'phone', 2), host(2, 'station', 3), host(3, 'station', 3));
    for (let i = 0; i < 10; i++)
      (nvr.links as LinkNeighbour[]).push(host(10 + i, 'camera', i + 1 > 8 ? i + 2 : i + 1));
    const g = assembleTopology([sw, nvr]);
    const phone = g.nodes.find((n) => n.id === mac(101))!;
    expect(phone).toMatchObject({ kind: 'unknown_dev', role: 'phone', status: null, vlans: [20] });
    const seg = g.nodes.find((n) => n.kind === 'unknown_net')!;
    expect(seg.id).toBe('net-S1-3');
    expect(
      g.edges
        .filter((e) => e.source === seg.id)
        .map((e) => e.target)
        .sort(),
    ).toEqual([mac(102), mac(103)]);
    const cams = g.nodes.filter((n) => n.kind === 'ipc');
    expect(cams).toHaveLength(10);
    const fold = g.nodes.find((n) => n.kind === 'expand_ipc')!;
    expect(fold).toMatchObject({ members: 10, id: 'fold-N1-expand_ipc' });
    expect(cams.every((c) => c.group === fold.id)).toBe(true);
    expect(g.edges.find((e) => e.target === fold.id)).toMatchObject({ source: 'N1', up: true });
  });

  it('draws a mesh tree from the children’s wireless uplinks, and an offline node’s links as down', () => {
    const p = device('M1', 'mesh', { meshRole: 'primary', internet: { up: true, port: 1, speed: 300 } });
    const air = (to: GraphDevice): LinkNeighbour => ({
      port: null,
      mac: to.mac!,
      sn: to.sn,
      remotePort: null,
      role: 'ap',
      medium: 'mesh',
      speed: 866,
      rssi: -60,
      vlan: null,
    });
    const m2 = device('M2', 'mesh', { meshRole: 'secondary' });
    const m3 = device('M3', 'mesh', { meshRole: 'secondary' });
    const m4 = device('M4', 'mesh', { meshRole: 'secondary', status: 0 });
    m2.links = [air(p)];
    m3.links = [air(p)];
    m4.links = [air(m2)];
    const g = assembleTopology([m4, m3, m2, p]);
    const parentOf = (id: string) => g.edges.find((e) => e.target === id)?.source;
    expect(parentOf('M1')).toBe(INTERNET_ID);
    expect(parentOf('M2')).toBe('M1');
    expect(parentOf('M3')).toBe('M1');
    expect(parentOf('M4')).toBe('M2');
    expect(g.edges.find((e) => e.target === 'M4')).toMatchObject({
      medium: 'mesh',
      rssi: -60,
      up: false,
      speed: 0,
    });
    expect(g.edges.find((e) => e.target === 'M2')).toMatchObject({ up: true, speed: 866 });
  });

  it('falls back to the reported uplink, marks wireless APs, and applies the user’s type codes', () => {
    const sw = device('S1', 'switch', { links: null });
    const ap = device('A1', 'ap', { links: null, uplinkSn: 'S1', uplinkPort: 4 });
    const cpe = device('C1', 'ap', {
      links: [
        {
          port: null,
          mac: ap.mac!,
          sn: 'A1',
          remotePort: null,
          role: 'ap',
          medium: 'wireless',
          speed: 300,
          rssi: -55,
          vlan: null,
        },
      ],
    });
    const g = assembleTopology([sw, ap, cpe], new Map([['A1', 6]]));
    expect(g.edges.find((e) => e.target === 'A1')).toMatchObject({ source: 'S1', sourcePort: '4' });
    expect(g.nodes.find((n) => n.id === 'A1')).toMatchObject({ kind: 'wired_ap_has_child', typeCode: 6 });
    expect(g.nodes.find((n) => n.id === 'C1')).toMatchObject({ kind: 'wireless_ap', typeCode: null });
  });

  it('answers every device once, and cuts a graph past the node limit', () => {
    const many = Array.from({ length: 12 }, (_, i) => device(`D${String(i).padStart(2, '0')}`, 'ap'));
    const g = assembleTopology(many, new Map(), 10);
    expect(g.truncated).toBe(true);
    expect(g.nodes).toHaveLength(10);
  });
});
