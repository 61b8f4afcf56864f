import {
  CableFreeMode,
  Capability,
  DeviceType,
  type FrequencyBand,
  hasCapability,
  is24,
  type LinkNeighbour,
  type ModelInfo,
  type NeighbourAp,
  type NeighbourRole,
  type SwitchPort,
  type Telemetry,
  type TelemetryClient,
  type TelemetryPort,
} from '@beacon/protocol';
import { between, clamp, intBetween, macFromSn, pick, type Rng, round1 } from './util.ts';
import type { Station } from './world.ts';

/** What hangs off a port: another Beacon device of the fleet, or an anonymous host. */
export interface PortNeighbour {
  sn?: string;
  kind: 'ap' | 'switch' | 'router' | 'camera' | 'phone' | 'host' | 'device';
  /** Speed the two ends agree on, Mbit/s. */
  speed?: number;
  /** The port on the other end (a Beacon device's port id). */
  remotePort?: number;
  /** An unmanaged switch with this many hosts behind it (each reported as an LLDP neighbour). */
  hosts?: number;
}

const ROLE_OF: Readonly<Record<PortNeighbour['kind'], NeighbourRole>> = {
  ap: 'ap',
  switch: 'switch',
  router: 'router',
  camera: 'camera',
  phone: 'phone',
  host: 'station',
  device: 'other',
};
/** Vendor prefixes of what hangs off a port, so the neighbours look like their kind. */
const OUI_OF: Readonly<Record<PortNeighbour['kind'], string>> = {
  ap: '02:BE:AC',
  switch: '02:BE:AC',
  router: '02:BE:AC',
  camera: '3C:EF:8C',
  phone: '00:04:F2',
  host: 'A4:C3:F0',
  device: '00:E0:4C',
};
/** A stable MAC for the i-th host on a port of device `self` (not from the device's random stream). */
function hostMac(self: string, port: number, i: number, kind: PortNeighbour['kind']): string {
  return `${OUI_OF[kind]}${macFromSn(`${self}/${port}/${i}`).slice(8)}`;
}

export interface LiveContext {
  now: number;
  bootedAt: number;
  /** Wireless clients associated with this device. */
  clients: Station[];
  /** All clients on the site (DHCP clients of a gateway). */
  siteClients: number;
  led: boolean;
  locating: boolean;
  rateLimit: { upKbps: number; downKbps: number } | null;
  clientLimits: Record<string, { upKbps: number; downKbps: number }>;
  /** What each radio runs now (channel chosen, never 0; width; power within the country's limit). */
  radios: { band: FrequencyBand; channel: number; width: number; power: number }[];
  /** The radio world's view of a radio (radio.ts): neighbours heard, noise, airtime others take. */
  air?: (radio: { band: FrequencyBand; channel: number; width: number; power: number }) => {
    neighbours: NeighbourAp[];
    noise: number;
    busy: number;
  };
  /** Port settings of the running configuration (a switch's `switch` section); absent = defaults. */
  switchPorts?: readonly SwitchPort[];
  /**
   * A switch's or an AP's own DHCP server when the running configuration enables it (decision
   * 0043): the addresses its pool holds. It serves the AP's clients, or the hosts on the switch's
   * linked ports, up to that many.
   */
  dhcpServer?: { poolSize: number } | null;
}

interface PortState {
  neighbour: PortNeighbour | null;
  rxBytes: number;
  txBytes: number;
  rxRate: number;
  txRate: number;
  poeDraw: number;
  downUntil: number;
  /** The link was down at the last report (a port-up event when it comes back). */
  wasDown: boolean;
}

/**
 * The live data of one device: ports with links, speeds and PoE draw within the power budget, growing
 * counters, WAN throughput, mesh role, radios, CPU and memory. Clients come from the site's world.
 */
export class LiveData {
  readonly ports = new Map<number, PortState>();
  meshRole: CableFreeMode | null;
  meshParent: string | null;
  /** Wireless hops to the primary of a mesh secondary. */
  meshHops: number;
  uplink: { sn: string; port: number | null } | null = null;
  private wan = { rxBytes: 0, txBytes: 0, rxRate: 0, txRate: 0, ip: null as string | null };
  /** Bytes each radio moved since boot (the clients' rates on its band over time). */
  private readonly radioBytes = new Map<string, { rx: number; tx: number }>();
  private lastAt = Date.now();
  private cpu = 10;
  private readonly channels = new Map<FrequencyBand, number>();
  private memory = 35;
  overloaded = new Set<number>();
  /** A forced load (incidents.ts): CPU and memory held at these percentages until `until` (ms). */
  stress: { cpu?: number; memory?: number; until: number } | null = null;

  constructor(
    private readonly info: ModelInfo,
    private readonly r: Rng,
    neighbours: Map<number, PortNeighbour>,
    mesh: { role: CableFreeMode | null; parent: string | null; hops?: number },
    /** The device's own SN (the MACs of the hosts it sees derive from it). */
    private readonly self = '',
  ) {
    this.meshRole = mesh.role;
    this.meshParent = mesh.parent;
    this.meshHops = mesh.hops ?? 1;
    const hasWan = hasCapability(info, Capability.WAN);
    if (hasWan)
      this.wan.ip = `100.${64 + intBetween(r, 0, 63)}.${intBetween(r, 0, 255)}.${intBetween(r, 2, 254)}`;
    for (const spec of info.ports) {
      let neighbour = neighbours.get(spec.id) ?? null;
      if (!neighbour && neighbours.size === 0) {
        // Not wired by a fleet: some plausible hosts.
        if (spec.wan) neighbour = { kind: 'device' };
        else if (r() < (info.type === DeviceType.SWITCH ? 0.6 : 0.4)) {
          neighbour = { kind: spec.poe ? pick(r, ['camera', 'phone', 'ap', 'host'] as const) : 'host' };
        }
      }
      this.ports.set(spec.id, {
        neighbour,
        rxBytes: 0,
        txBytes: 0,
        rxRate: 0,
        txRate: 0,
        poeDraw: 0,
        downUntil: 0,
        wasDown: false,
      });
    }
    this.memory = between(r, 28, 45);
  }

  /**
   * The channel an automatic radio picks at boot (as an AP does without a plan): one of the usual
   * defaults the country allows (`allowed`), the same until forgetChannels().
   */
  autoChannel(band: FrequencyBand, allowed: readonly number[]): number {
    let c = this.channels.get(band);
    if (c === undefined || !allowed.includes(c)) {
      const usual = is24(band) ? [1, 6, 11] : [36, 44, 149, 157];
      const choices = usual.filter((x) => allowed.includes(x));
      c = pick(this.r, choices.length ? choices : allowed.length ? allowed : usual);
      this.channels.set(band, c);
    }
    return c;
  }

  /** A new country: automatic radios pick their channels again. */
  forgetChannels(): void {
    this.channels.clear();
  }

  /** After a boot every counter starts again. */
  reboot(): void {
    for (const p of this.ports.values()) {
      p.rxBytes = 0;
      p.txBytes = 0;
      p.downUntil = 0;
    }
    this.wan.rxBytes = 0;
    this.wan.txBytes = 0;
    this.radioBytes.clear();
    this.overloaded.clear();
  }

  /** PoE reboot: the ports lose power and link until `until`. */
  powerCycle(ids: number[], until: number): void {
    for (const id of ids) {
      const p = this.ports.get(id);
      if (p) p.downUntil = until;
    }
  }

  isCycling(id: number, now = Date.now()): boolean {
    return (this.ports.get(id)?.downUntil ?? 0) > now;
  }

  private drawFor(n: PortNeighbour): number {
    switch (n.kind) {
      case 'ap':
        return between(this.r, 7, 13);
      case 'camera':
        return between(this.r, 3.5, 7);
      case 'phone':
        return between(this.r, 2.5, 4.5);
      default:
        return 0;
    }
  }

  /** Builds a telemetry message; `events` collects port/PoE changes worth an event. */
  build(
    ctx: LiveContext,
    events: { event: 'port-up' | 'port-down' | 'poe-overload'; port: number }[] = [],
  ): Telemetry {
    const { info, r } = this;
    const dt = Math.max(0, (ctx.now - this.lastAt) / 1000);
    this.lastAt = ctx.now;
    const uptime = Math.max(0, Math.floor((ctx.now - ctx.bootedAt) / 1000));

    const clients: TelemetryClient[] = ctx.clients.map((s) => {
      const limit = ctx.clientLimits[s.mac] ?? ctx.rateLimit;
      const cap = (v: number, max: number | undefined) => (max ? Math.min(v, max) : v);
      return {
        mac: s.mac,
        name: s.name,
        ip: s.ip,
        kind: s.kind,
        wired: false,
        ssid: s.ssid,
        band: s.band,
        rssi: s.rssi,
        txRate: cap(s.txRate, limit?.upKbps),
        rxRate: cap(s.rxRate, limit?.downKbps),
        txBytes: s.txBytes,
        rxBytes: s.rxBytes,
        onlineSeconds: Math.max(0, Math.floor((ctx.now - s.joinedAt) / 1000)),
        vlan: s.vlan,
      };
    });
    const clientTraffic = clients.reduce((a, c) => a + c.rxRate + c.txRate, 0);

    // Ports and PoE within the budget: ports are powered in order until the budget is spent.
    // A port switched off has no link and no power; PoE off powers nothing; a power limit below
    // what the powered device needs leaves it unpowered (docs/decisions/0039).
    let poeUsed = 0;
    const ports: TelemetryPort[] = [];
    const links: LinkNeighbour[] = [];
    const settings = new Map((ctx.switchPorts ?? []).map((s) => [s.id, s]));
    for (const spec of info.ports) {
      const p = this.ports.get(spec.id)!;
      const set = settings.get(spec.id);
      const enabled = set?.enabled ?? true;
      const poeOn = spec.poe && (set?.poe?.enabled ?? true);
      const limit = set?.poe?.power ?? 0;
      const cycling = p.downUntil > ctx.now || !enabled;
      let powered = false;
      let draw = 0;
      if (poeOn && p.neighbour && !cycling) {
        const want = p.poeDraw || this.drawFor(p.neighbour);
        if (want > 0 && (limit === 0 || want <= limit)) {
          if (poeUsed + want <= info.poeBudget) {
            powered = true;
            draw = want;
            p.poeDraw = want;
            poeUsed += want;
            this.overloaded.delete(spec.id);
          } else if (!this.overloaded.has(spec.id)) {
            this.overloaded.add(spec.id);
            events.push({ event: 'poe-overload', port: spec.id });
          }
        }
      }
      const needsPower = spec.poe && p.neighbour && this.drawFor(p.neighbour) > 0;
      const link = !!p.neighbour && !cycling && (!needsPower || powered);
      const wasUp = p.rxRate > 0 || p.txRate > 0;
      if (link) {
        const load = spec.wan
          ? clientTraffic
          : clientTraffic / Math.max(1, info.ports.length) + between(r, 50, 3000);
        p.rxRate = Math.round(load * between(r, 0.8, 1.2)) + 1;
        p.txRate = Math.round(load * between(r, 0.1, 0.5)) + 1;
        p.rxBytes += Math.round((p.rxRate * 1000 * dt) / 8);
        p.txBytes += Math.round((p.txRate * 1000 * dt) / 8);
      } else {
        p.rxRate = 0;
        p.txRate = 0;
      }
      if (wasUp && !link) events.push({ event: 'port-down', port: spec.id });
      if (!wasUp && link && uptime > 0 && p.wasDown) events.push({ event: 'port-up', port: spec.id });
      p.wasDown = !link;
      const speed = link ? Math.min(set?.speed || spec.maxSpeed, p.neighbour?.speed ?? spec.maxSpeed) : 0;
      if (link && p.neighbour) links.push(...this.lldp(spec.id, p.neighbour, speed, set?.pvid ?? 1));
      ports.push({
        id: spec.id,
        type: spec.type,
        enabled,
        link,
        speed,
        duplex: link ? (set?.duplex === 'half' ? 'half' : 'full') : null,
        poe: spec.poe ? { enabled: poeOn, power: round1(draw) } : null,
        rxBytes: p.rxBytes,
        txBytes: p.txBytes,
        rxRate: p.rxRate,
        txRate: p.txRate,
        ...(p.neighbour?.sn ? { neighbour: p.neighbour.sn } : {}),
      });
    }

    this.cpu = clamp(
      this.cpu * 0.6 + (between(r, 3, 12) + clients.length * 0.4 + (ctx.locating ? 2 : 0)) * 0.4,
      1,
      99,
    );
    this.memory = clamp(this.memory + between(r, -0.5, 0.5) + clients.length * 0.01, 20, 92);
    if (this.stress && ctx.now < this.stress.until) {
      if (this.stress.cpu !== undefined) this.cpu = this.stress.cpu;
      if (this.stress.memory !== undefined) this.memory = this.stress.memory;
    } else this.stress = null;

    const telemetry: Telemetry = {
      ts: ctx.now,
      uptime,
      cpu: round1(this.cpu),
      memory: round1(this.memory),
      clientCount: clients.length,
      clients,
      led: ctx.led,
      locating: ctx.locating,
    };
    if (info.ports.length > 1 || info.type === DeviceType.SWITCH) telemetry.ports = ports;
    if (info.poeBudget > 0) {
      telemetry.poe = {
        budget: info.poeBudget,
        used: round1(poeUsed),
        remaining: round1(info.poeBudget - poeUsed),
      };
    }
    const gateway = hasCapability(info, Capability.WAN) && this.meshRole !== CableFreeMode.SECONDARY;
    if (!gateway && ctx.dhcpServer) {
      const hosts = ports.filter((p) => {
        const kind = this.ports.get(p.id)?.neighbour?.kind;
        return p.link && (kind === 'camera' || kind === 'phone' || kind === 'host');
      }).length;
      const wanting = info.type === DeviceType.SWITCH ? hosts : clients.length;
      telemetry.dhcpClientCount = Math.min(wanting, ctx.dhcpServer.poolSize);
    }
    if (gateway) {
      telemetry.dhcpClientCount = ctx.siteClients;
      const base = ctx.siteClients * between(r, 300, 1500);
      this.wan.rxRate = Math.round(base + between(r, 100, 2000));
      this.wan.txRate = Math.round(this.wan.rxRate * between(r, 0.1, 0.35));
      this.wan.rxBytes += Math.round((this.wan.rxRate * 1000 * dt) / 8);
      this.wan.txBytes += Math.round((this.wan.txRate * 1000 * dt) / 8);
      telemetry.wan = { online: true, ...this.wan };
    }
    if (gateway) {
      const wanPort = info.ports.find((p) => p.wan);
      telemetry.internet = { up: true, port: wanPort?.id ?? null, speed: wanPort?.maxSpeed ?? 1000 };
    }
    if (this.meshRole) {
      const secondary = this.meshRole === CableFreeMode.SECONDARY;
      const rssi = secondary ? intBetween(r, -72, -48) : null;
      telemetry.mesh = {
        role: this.meshRole,
        parent: secondary ? this.meshParent : null,
        backhaulRssi: rssi,
        hops: secondary ? this.meshHops : 0,
      };
      if (secondary && this.meshParent && rssi !== null) {
        // The backhaul to its parent, as a neighbour over the air (PHY rate falls with the signal).
        links.push({
          port: null,
          mac: macFromSn(this.meshParent),
          sn: this.meshParent,
          remotePort: null,
          role: 'ap',
          medium: 'mesh',
          speed: rssi > -55 ? 866 : rssi > -65 ? 585 : 292,
          rssi,
          vlan: null,
        });
      }
    }
    if (info.bands.length) {
      telemetry.radios = info.bands.map((band) => {
        const set = ctx.radios.find((x) => x.band === band) ?? {
          band,
          channel: this.autoChannel(band, []),
          width: is24(band) ? 20 : 40,
          power: 20,
        };
        const air = ctx.air?.(set);
        const onBandClients = clients.filter((c) => c.band === band);
        const onBand = onBandClients.length;
        const bytes = this.radioBytes.get(band) ?? { rx: 0, tx: 0 };
        // The radio receives what its clients send and sends what they receive.
        bytes.rx += Math.round((onBandClients.reduce((a, c) => a + c.txRate, 0) * 1000 * dt) / 8);
        bytes.tx += Math.round((onBandClients.reduce((a, c) => a + c.rxRate, 0) * 1000 * dt) / 8);
        this.radioBytes.set(band, bytes);
        return {
          band,
          channel: set.channel,
          width: set.width,
          power: set.power,
          utilisation: Math.round(clamp(5 + onBand * 3 + (air?.busy ?? 0) + between(r, 0, 10), 0, 100)),
          noise: air ? air.noise + intBetween(r, -1, 1) : intBetween(r, -97, -88),
          clients: onBand,
          rxBytes: bytes.rx,
          txBytes: bytes.tx,
          ...(air ? { neighbours: air.neighbours } : {}),
        };
      });
    }
    if (this.uplink) telemetry.uplink = this.uplink;
    telemetry.links = links;
    return telemetry;
  }

  /** What LLDP shows on a linked port: the neighbour (or the hosts behind an unmanaged switch). */
  private lldp(port: number, n: PortNeighbour, speed: number, vlan: number): LinkNeighbour[] {
    const base = { port, medium: 'wired' as const, speed, rssi: null, vlan };
    if (n.hosts) {
      return Array.from({ length: n.hosts }, (_, i) => ({
        ...base,
        mac: hostMac(this.self, port, i, 'host'),
        name: `host-${port}-${i + 1}`,
        remotePort: 'eth0',
        role: 'station' as const,
      }));
    }
    if (n.sn) {
      return [
        {
          ...base,
          mac: macFromSn(n.sn),
          sn: n.sn,
          remotePort: n.remotePort === undefined ? null : String(n.remotePort),
          role: ROLE_OF[n.kind],
        },
      ];
    }
    return [
      {
        ...base,
        mac: hostMac(this.self, port, 0, n.kind),
        name: `${n.kind}-${port}`,
        remotePort: 'eth0',
        role: ROLE_OF[n.kind],
      },
    ];
  }
}
