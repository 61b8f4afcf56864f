import { CableFreeMode, DeviceType, type ModelInfo, modelsOfType, validateSn } from '@beacon/protocol';
import { type DeviceOptions, resolveModel, type SimulatedDevice, startDevice } from './device.ts';
import type { PortNeighbour } from './live.ts';
import { ClientWorld } from './world.ts';

/** Two letters per type in generated serial numbers. */
export const TYPE_CODES: Readonly<Record<DeviceType, string>> = {
  router: 'GW',
  ap: 'AP',
  switch: 'SW',
  mesh: 'MS',
  v7: 'VS',
  wrouter: 'WR',
  nvr: 'NV',
  cpe: 'CP',
};

/** A serial number for the index-th device of a fleet: prefix, type code, zero-padded index (16+ characters). */
export function fleetSn(prefix: string, type: DeviceType, index: number): string {
  const body = `${prefix}${TYPE_CODES[type]}`;
  const sn = `${body}${String(index).padStart(Math.max(6, 16 - body.length), '0')}`;
  const invalid = validateSn(sn);
  if (invalid) throw new Error(`Serial number ${sn}: ${invalid.message}`);
  return sn;
}

export interface PlannedDevice {
  sn: string;
  model: string;
  type: DeviceType;
  site: number;
  ip: string;
  meshRole: CableFreeMode | null;
  meshParent: string | null;
  meshHops: number;
  uplink: { sn: string; port: number | null } | null;
  neighbours: Map<number, PortNeighbour>;
}

export interface FleetDeviceSpec {
  sn: string;
  model?: string;
  type?: DeviceType;
  /** Devices with the same site share clients (roaming) and are wired together. */
  site?: number;
}

export interface FleetOptions
  extends Omit<
    DeviceOptions,
    | 'sn'
    | 'model'
    | 'type'
    | 'world'
    | 'ip'
    | 'meshRole'
    | 'meshParent'
    | 'meshHops'
    | 'neighbours'
    | 'uplink'
  > {
  /** Generated devices: how many, of which types (round-robin), with which SN prefix. */
  count?: number;
  types?: DeviceType[];
  prefix?: string;
  /** First index of the generated serial numbers (to run several fleets side by side). */
  startIndex?: number;
  /** Generated devices per site. Default 10. */
  siteSize?: number;
  /** Or an explicit list (demo projects, the pool of unclaimed devices). */
  devices?: FleetDeviceSpec[];
  /** Devices started per second (connection storms hurt brokers). Default 500. */
  rampPerSecond?: number;
  /** Simulation step of the site worlds, ms. Default 5000. */
  worldTickMs?: number;
}

const neighbourKind = (type: DeviceType): PortNeighbour['kind'] =>
  type === DeviceType.SWITCH
    ? 'switch'
    : type === DeviceType.AP || type === DeviceType.CPE
      ? 'ap'
      : type === DeviceType.ROUTER
        ? 'router'
        : 'device';

function modelFor(type: DeviceType, index: number): ModelInfo {
  const models = modelsOfType(type);
  return models[index % models.length];
}

/**
 * Plans a fleet without starting it: serial numbers, models, sites, IPs, the mesh roles (the first mesh
 * node of a site is primary) and the wiring (switches hang off the gateway, APs and other devices off
 * the switches' PoE ports, else the gateway).
 */
export function planFleet(options: FleetOptions): PlannedDevice[] {
  const specs: { sn: string; info: ModelInfo; site: number }[] = [];
  if (options.devices?.length) {
    for (const [i, d] of options.devices.entries()) {
      specs.push({
        sn: d.sn,
        info: resolveModel(d),
        site: d.site ?? Math.floor(i / (options.siteSize ?? 10)),
      });
    }
  } else {
    const types = options.types?.length ? options.types : [DeviceType.AP];
    const start = options.startIndex ?? 0;
    for (let i = 0; i < (options.count ?? 1); i++) {
      const type = types[i % types.length];
      const index = start + i;
      const info = modelFor(type, Math.floor(i / types.length));
      specs.push({
        sn: fleetSn(options.prefix ?? 'SIM', info.type, index + 1),
        info,
        site: Math.floor(index / (options.siteSize ?? 10)),
      });
    }
  }

  const bySite = new Map<number, typeof specs>();
  for (const s of specs) bySite.set(s.site, [...(bySite.get(s.site) ?? []), s]);
  const planned = new Map<string, PlannedDevice>();
  for (const [site, members] of bySite) {
    const subnet = `10.${16 + ((site >> 8) & 15)}.${site & 255}`;
    let host = 1;
    for (const m of members) {
      planned.set(m.sn, {
        sn: m.sn,
        model: m.info.model,
        type: m.info.type,
        site,
        ip: `${subnet}.${host++ % 99 || 99}`,
        meshRole: null,
        meshParent: null,
        meshHops: 0,
        uplink: null,
        neighbours: new Map(),
      });
    }
    const info = new Map(members.map((m) => [m.sn, m.info]));
    const used = new Map<string, Set<number>>();
    const freePort = (sn: string, poe: boolean): number | null => {
      const taken = used.get(sn) ?? new Set();
      const port = info.get(sn)!.ports.find((p) => !p.wan && !taken.has(p.id) && (!poe || p.poe));
      return port ? port.id : null;
    };
    const connect = (parent: string, child: string, poe: boolean): boolean => {
      const port = freePort(parent, poe);
      if (port === null) return false;
      used.set(parent, (used.get(parent) ?? new Set()).add(port));
      const p = planned.get(parent)!;
      const c = planned.get(child)!;
      const childInfo = info.get(child)!;
      const childPort = (childInfo.ports.find((x) => x.wan) ?? childInfo.ports[0])?.id;
      p.neighbours.set(port, { sn: child, kind: neighbourKind(c.type), remotePort: childPort });
      if (childPort !== undefined) {
        c.neighbours.set(childPort, { sn: parent, kind: neighbourKind(p.type), remotePort: port });
        used.set(child, (used.get(child) ?? new Set()).add(childPort));
      }
      c.uplink = { sn: parent, port };
      return true;
    };
    const ofType = (...types: DeviceType[]) =>
      members.filter((m) => types.includes(m.info.type)).map((m) => m.sn);
    const gateway = ofType(DeviceType.ROUTER)[0] ?? null;
    const switches = ofType(DeviceType.SWITCH);
    for (const sw of switches) if (gateway) connect(gateway, sw, false);
    const edge = ofType(DeviceType.AP, DeviceType.NVR, DeviceType.CPE, DeviceType.ROUTER).filter(
      (sn) => sn !== gateway,
    );
    let next = 0;
    for (const sn of edge) {
      let wired = false;
      for (let k = 0; k < switches.length && !wired; k++) {
        const sw = switches[(next + k) % switches.length];
        wired = connect(sw, sn, info.get(sn)!.type !== DeviceType.ROUTER);
        if (!wired) wired = connect(sw, sn, false);
        if (wired) next = (next + k + 1) % switches.length;
      }
      if (!wired && gateway) connect(gateway, sn, false);
    }
    // What else hangs off the wired ports (LLDP neighbours of the topology): cameras on an NVR's
    // free PoE ports; on the first switch an IP phone and an unmanaged switch with three hosts.
    for (const sn of ofType(DeviceType.NVR)) {
      for (let port = freePort(sn, true); port !== null; port = freePort(sn, true)) {
        used.set(sn, (used.get(sn) ?? new Set()).add(port));
        planned.get(sn)!.neighbours.set(port, { kind: 'camera' });
      }
    }
    if (switches[0]) {
      const sw = switches[0];
      const phone = freePort(sw, true);
      if (phone !== null) {
        used.set(sw, (used.get(sw) ?? new Set()).add(phone));
        planned.get(sw)!.neighbours.set(phone, { kind: 'phone' });
      }
      const hub = freePort(sw, false);
      if (hub !== null) {
        used.set(sw, (used.get(sw) ?? new Set()).add(hub));
        planned.get(sw)!.neighbours.set(hub, { kind: 'host', hosts: 3 });
      }
    }
    // Mesh: the first node is the primary; the others form a tree below it, two per parent.
    const meshes = ofType(DeviceType.MESH);
    for (const [i, sn] of meshes.entries()) {
      const p = planned.get(sn)!;
      p.meshRole = i === 0 ? CableFreeMode.PRIMARY : CableFreeMode.SECONDARY;
      if (i === 0) continue;
      const parent = meshes[Math.floor((i - 1) / 2)];
      p.meshParent = parent;
      p.meshHops = planned.get(parent)!.meshHops + 1;
      p.uplink = { sn: parent, port: null };
    }
  }
  return specs.map((s) => planned.get(s.sn)!);
}

/** N simulated devices run from one process. */
export class Fleet {
  constructor(
    readonly devices: SimulatedDevice[],
    private readonly worlds: ClientWorld[],
  ) {}

  get(sn: string): SimulatedDevice | undefined {
    return this.devices.find((d) => d.sn === sn);
  }

  online(): number {
    return this.devices.filter((d) => d.connected).length;
  }

  /** Resolves when every device is connected; rejects after `timeoutMs`. */
  async waitOnline(timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.online() < this.devices.length) {
      if (Date.now() > deadline) {
        throw new Error(`${this.online()} of ${this.devices.length} devices online after ${timeoutMs} ms`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Powers every device off cleanly. */
  async stop(): Promise<void> {
    await Promise.all(this.devices.map((d) => d.stop()));
    for (const w of this.worlds) w.stop();
  }
}

/** Starts a fleet (see planFleet for how devices are laid out); devices connect in the background. */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const plan = planFleet(options);
  const worlds = new Map<number, ClientWorld>();
  const timeScale = options.timeScale ?? 1;
  for (const p of plan) {
    if (!worlds.has(p.site))
      worlds.set(p.site, new ClientWorld({ site: p.site, timeScale, tickMs: options.worldTickMs }));
  }
  const ramp = options.rampPerSecond ?? 500;
  const chunk = Math.max(1, Math.min(50, ramp));
  const devices: SimulatedDevice[] = [];
  // Loopback has ~28,000 ephemeral ports per source address: a large lean fleet on one machine
  // connects from 127.0.0.1, .2, … (20,000 devices each).
  const loopback = ['127.0.0.1', 'localhost'].includes(new URL(options.url).hostname);
  const localAddress = (i: number) =>
    options.localAddress ??
    (options.link === 'lean' && loopback && plan.length > 20_000
      ? `127.0.0.${1 + Math.floor(i / 20_000)}`
      : undefined);
  for (let i = 0; i < plan.length; i += chunk) {
    const batch = plan.slice(i, i + chunk);
    const started = await Promise.all(
      batch.map((p, k) =>
        startDevice({
          ...options,
          localAddress: localAddress(i + k),
          sn: p.sn,
          model: p.model,
          world: worlds.get(p.site),
          ip: p.ip,
          meshRole: p.meshRole,
          meshParent: p.meshParent,
          meshHops: p.meshHops,
          neighbours: p.neighbours,
          uplink: p.uplink,
          clientEvents: options.clientEvents ?? plan.length <= 1000,
        }),
      ),
    );
    devices.push(...started);
    if (i + chunk < plan.length) await new Promise((r) => setTimeout(r, (1000 * batch.length) / ramp));
  }
  return new Fleet(devices, [...worlds.values()]);
}
