import { ClientKind, FrequencyBand } from '@beacon/protocol';
import { between, clamp, intBetween, pick, type Rng, randomMac, rng, seedOf } from './util.ts';

/** A simulated client (station) of the Wi-Fi of a site. */
export interface Station {
  mac: string;
  name: string;
  kind: ClientKind;
  ip: string;
  /** SN of the AP it is associated with, null while away. */
  apSn: string | null;
  band: FrequencyBand | null;
  ssid: string | null;
  rssi: number;
  txRate: number;
  rxRate: number;
  txBytes: number;
  rxBytes: number;
  joinedAt: number;
  vlan: number | null;
  /** Real time (ms) until which a kicked station stays away (real APs hold a kicked client off). */
  heldUntil?: number;
}

/** What the world needs from a device that serves Wi-Fi clients. */
export interface AccessPoint {
  sn: string;
  bands: readonly FrequencyBand[];
  capacity: number;
  /** SSIDs clients may join now; empty while the radio is down (rebooting, offline…). */
  ssids(): string[];
  onClient(event: 'joined' | 'left' | 'roamed', station: Station, from?: string): void;
  /** A MAC the AP refuses (its configuration's client blacklist). */
  refuses?(mac: string): boolean;
  /**
   * The roaming tuner (docs/decisions/0048): steer dual-band clients to 5 GHz; take no new client
   * at `loadBalanceClients` (0 = off) while another AP can; drop a client heard below its band's
   * access threshold (dBm) so it roams to a better AP.
   */
  roaming?(): {
    bandSteering: boolean;
    loadBalanceClients: number;
    thresholds: Partial<Record<FrequencyBand, number>>;
  };
}

/** `privateMac`: the kind's operating systems use a random (private) MAC by default. */
const KINDS: {
  kind: ClientKind;
  weight: number;
  oui: string[];
  privateMac?: boolean;
  names: string[];
  rate: [number, number];
}[] = [
  {
    kind: ClientKind.PHONE,
    privateMac: true,
    weight: 45,
    oui: ['F0:18:98', '8C:F5:A3', '64:09:80', 'DC:A6:32'],
    names: ['iPhone', 'Galaxy-S24', 'Pixel-8', 'Redmi-Note', 'OnePlus-12'],
    rate: [200, 40_000],
  },
  {
    kind: ClientKind.LAPTOP,
    privateMac: true,
    weight: 25,
    oui: ['A4:C3:F0', '3C:22:FB', 'F4:5C:89'],
    names: ['LAPTOP', 'MacBook-Pro', 'ThinkPad', 'XPS-13'],
    rate: [500, 120_000],
  },
  {
    kind: ClientKind.TABLET,
    privateMac: true,
    weight: 10,
    oui: ['F0:18:98', '8C:F5:A3'],
    names: ['iPad', 'Galaxy-Tab', 'MatePad'],
    rate: [300, 60_000],
  },
  {
    kind: ClientKind.IOT,
    weight: 12,
    oui: ['24:0A:C4', '84:F3:EB', 'B8:27:EB'],
    names: ['ESP-Sensor', 'Thermostat', 'Door-Lock', 'Printer'],
    rate: [5, 300],
  },
  {
    kind: ClientKind.TV,
    weight: 4,
    oui: ['70:2A:D5', 'CC:6E:A4'],
    names: ['Smart-TV', 'Chromecast', 'AppleTV'],
    rate: [2_000, 25_000],
  },
  {
    kind: ClientKind.PC,
    weight: 4,
    oui: ['00:E0:4C', '74:D4:35'],
    names: ['DESKTOP', 'WORKSTATION'],
    rate: [500, 80_000],
  },
];
const PEOPLE = [
  'Anna',
  'Ben',
  'Chen',
  'Dora',
  'Eli',
  'Fatima',
  'Gus',
  'Hana',
  'Ivan',
  'Jade',
  'Kofi',
  'Lena',
  'Mo',
  'Nina',
  'Omar',
  'Pia',
  'Raj',
  'Sara',
  'Tom',
  'Uma',
  'Vera',
  'Wei',
  'Yuki',
  'Zoe',
];

/** Share of a site's clients online at an hour of the day (0-24): busy 9-18, quiet at night. */
export function diurnal(hour: number): number {
  const day = Math.exp(-((hour - 13.5) ** 2) / (2 * 3.2 ** 2));
  return clamp(0.15 + 0.85 * day, 0, 1);
}

export interface WorldOptions {
  /** Identifies the site (its subnet and random seed). */
  site: number;
  /** Stations that may come and go; default 12 per AP registered. */
  population?: number;
  timeScale?: number;
  /** Real milliseconds between simulation steps. */
  tickMs?: number;
  /** Subnet prefix of the site, e.g. "10.16.3". */
  subnet?: string;
  /** Share of the stations online whatever the hour (0 to 1); default the diurnal curve. */
  onlineShare?: number;
  /** Random seed of the stations; default the site (APs of one site share them). */
  seed?: string;
}

/**
 * The clients of one site, shared by the APs of a fleet on that site: stations join and leave over
 * the (time-scaled) day, move between APs (roaming), and their traffic counters grow.
 */
export class ClientWorld {
  readonly site: number;
  readonly subnet: string;
  private readonly r: Rng;
  private readonly aps = new Map<string, AccessPoint>();
  private readonly stations: Station[] = [];
  private readonly timeScale: number;
  private readonly tickMs: number;
  private readonly realStart = Date.now();
  private readonly population?: number;
  private readonly onlineShare?: number;
  private timer: NodeJS.Timeout | null = null;
  private lastTick = Date.now();

  constructor(options: WorldOptions) {
    this.site = options.site;
    this.subnet = options.subnet ?? `10.${16 + ((options.site >> 8) & 15)}.${options.site & 255}`;
    this.r = rng(seedOf(options.seed ?? `world:${options.site}`));
    this.timeScale = options.timeScale ?? 1;
    this.tickMs = options.tickMs ?? 5000;
    this.population = options.population;
    this.onlineShare = options.onlineShare;
  }

  /** Simulated hour of the day: the wall clock, accelerated by 1 / time scale. */
  hour(now = Date.now()): number {
    const sim = this.realStart + (now - this.realStart) / this.timeScale;
    const d = new Date(sim);
    return d.getHours() + d.getMinutes() / 60;
  }

  register(ap: AccessPoint): void {
    this.aps.set(ap.sn, ap);
    const wanted = this.population ?? Math.min(150, this.aps.size * 12);
    while (this.stations.length < wanted) this.stations.push(this.newStation(this.stations.length));
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.tickMs);
      this.timer.unref();
    }
  }

  unregister(sn: string): void {
    this.dropAll(sn);
    this.aps.delete(sn);
    if (this.aps.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  clientsOf(sn: string): Station[] {
    return this.stations.filter((s) => s.apSn === sn);
  }

  /** Every station online on the site (the gateway's DHCP clients). */
  online(): Station[] {
    return this.stations.filter((s) => s.apSn !== null);
  }

  /**
   * Forces a client off its AP; false when it is not there. It stays away for `holdMs` (real ms), as
   * a real AP holds off a client it kicked, so that it does not join again at the next step.
   */
  kick(sn: string, mac: string, holdMs = 0): boolean {
    const s = this.stations.find((x) => x.apSn === sn && x.mac.toUpperCase() === mac.toUpperCase());
    if (!s) return false;
    this.leave(s);
    if (holdMs > 0) s.heldUntil = Date.now() + holdMs;
    return true;
  }

  /** The AP's blacklist changed: the stations it now refuses leave it. Answers how many left. */
  enforce(sn: string): number {
    const ap = this.aps.get(sn);
    if (!ap) return 0;
    const ssids = ap.ssids();
    let n = 0;
    for (const s of this.stations) {
      if (s.apSn !== sn) continue;
      // A refused MAC (the blacklist), or a client of a network no longer on the air.
      if (ap.refuses?.(s.mac) || (s.ssid !== null && !ssids.includes(s.ssid))) {
        this.leave(s);
        n++;
      }
    }
    return n;
  }

  /** The AP went down: its clients leave (they come back to it or another AP later). */
  dropAll(sn: string): void {
    for (const s of this.stations) if (s.apSn === sn) this.leave(s, false);
  }

  private newStation(i: number): Station {
    const r = this.r;
    const total = KINDS.reduce((a, k) => a + k.weight, 0);
    let roll = r() * total;
    let k = KINDS[0];
    for (const x of KINDS) {
      roll -= x.weight;
      if (roll < 0) {
        k = x;
        break;
      }
    }
    const base = pick(r, k.names);
    const name =
      k.kind === ClientKind.LAPTOP && base === 'LAPTOP'
        ? `LAPTOP-${Math.floor(r() * 0xfffff)
            .toString(36)
            .toUpperCase()}`
        : k.kind === ClientKind.IOT
          ? `${base}-${intBetween(r, 1, 99)}`
          : `${base}-${pick(r, PEOPLE)}`;
    return {
      mac: randomMac(r, k.privateMac ? null : pick(r, k.oui)),
      name,
      kind: k.kind,
      ip: `${this.subnet}.${100 + (i % 150)}`,
      apSn: null,
      band: null,
      ssid: null,
      rssi: -60,
      txRate: 0,
      rxRate: 0,
      txBytes: 0,
      rxBytes: 0,
      joinedAt: 0,
      vlan: null,
    };
  }

  /**
   * APs a station may join now (not `except`, not one that refuses its MAC); an AP whose load
   * balancing limit is reached is left out while another AP can take the station.
   */
  private available(except?: string, mac?: string): AccessPoint[] {
    const open = [...this.aps.values()].filter(
      (ap) =>
        ap.sn !== except &&
        ap.ssids().length > 0 &&
        this.clientsOf(ap.sn).length < ap.capacity &&
        !(mac && ap.refuses?.(mac)),
    );
    const balanced = open.filter((ap) => {
      const limit = ap.roaming?.().loadBalanceClients ?? 0;
      return limit === 0 || this.clientsOf(ap.sn).length < limit;
    });
    return balanced.length ? balanced : open;
  }

  private attach(s: Station, ap: AccessPoint): void {
    const r = this.r;
    const fiveG = ap.bands.filter((b) => b !== FrequencyBand.B2G4);
    const steer = ap.roaming?.().bandSteering ?? false;
    s.band =
      fiveG.length && s.kind !== ClientKind.IOT && r() < (steer ? 0.95 : 0.7)
        ? pick(r, fiveG)
        : ap.bands.includes(FrequencyBand.B2G4)
          ? FrequencyBand.B2G4
          : ap.bands[0];
    s.ssid = pick(r, ap.ssids());
    s.rssi = intBetween(r, -78, -38);
    s.apSn = ap.sn;
  }

  private join(s: Station, ap: AccessPoint): void {
    this.attach(s, ap);
    s.joinedAt = Date.now();
    s.txRate = 0;
    s.rxRate = 0;
    ap.onClient('joined', s);
  }

  private leave(s: Station, notify = true): void {
    const ap = s.apSn ? this.aps.get(s.apSn) : undefined;
    s.apSn = null;
    s.txRate = 0;
    s.rxRate = 0;
    if (notify && ap) ap.onClient('left', s);
  }

  /** One simulation step (also called by tests). */
  tick(now = Date.now()): void {
    const r = this.r;
    const dt = Math.max(0, (now - this.lastTick) / 1000);
    this.lastTick = now;
    // Stations of an AP whose radio went down, or whose SSID went off the air (a timer shutdown,
    // a network removed), leave silently.
    for (const s of this.stations) {
      if (!s.apSn) continue;
      const ssids = this.aps.get(s.apSn)?.ssids() ?? [];
      if (!ssids.length || (s.ssid !== null && !ssids.includes(s.ssid))) this.leave(s, false);
    }
    // Traffic.
    for (const s of this.stations) {
      if (!s.apSn) continue;
      const k = KINDS.find((x) => x.kind === s.kind)!;
      const burst = r() < 0.15 ? between(r, 0.5, 1) : between(r, 0, 0.15);
      s.rxRate = Math.round(k.rate[0] + (k.rate[1] - k.rate[0]) * burst);
      s.txRate = Math.round(s.rxRate * between(r, 0.05, 0.4));
      s.rxBytes += Math.round((s.rxRate * 1000 * dt) / 8);
      s.txBytes += Math.round((s.txRate * 1000 * dt) / 8);
      s.rssi = clamp(s.rssi + intBetween(r, -3, 3), -88, -30);
    }
    // Coming and going with the time of day.
    const online = this.stations.filter((s) => s.apSn);
    const share = this.onlineShare ?? diurnal(this.hour(now));
    const target = Math.round(this.stations.length * share);
    const offline = this.stations.filter((s) => !s.apSn && !(s.heldUntil && s.heldUntil > now));
    if (online.length < target) {
      for (let n = Math.ceil((target - online.length) * 0.4); n > 0 && offline.length; n--) {
        const s = offline.splice(Math.floor(r() * offline.length), 1)[0];
        const aps = this.available(undefined, s.mac);
        if (!aps.length) continue;
        this.join(s, pick(r, aps));
      }
    } else if (online.length > target) {
      for (let n = Math.ceil((online.length - target) * 0.4); n > 0 && online.length; n--) {
        this.leave(online.splice(Math.floor(r() * online.length), 1)[0]);
      }
    }
    // Roaming between the APs of the site; a client below its AP's access threshold is let go.
    for (const s of this.stations) {
      if (!s.apSn) continue;
      const threshold = s.band ? this.aps.get(s.apSn)?.roaming?.().thresholds[s.band] : undefined;
      const tooWeak = threshold !== undefined && s.rssi < threshold;
      if (!tooWeak && r() > 0.03) continue;
      const to = this.available(s.apSn, s.mac);
      if (!to.length) {
        if (tooWeak) this.leave(s);
        continue;
      }
      const from = s.apSn;
      const ap = pick(r, to);
      this.attach(s, ap);
      ap.onClient('roamed', s, from);
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
