import {
  DEVICE_LIMITS,
  FrequencyBand,
  is24,
  type NeighbourAp,
  occupiedChannels,
  segmentsCross,
} from '@beacon/protocol';
import { clamp, type Rng, rng, seedOf } from './util.ts';

/**
 * The radio world of a site (docs/decisions/0048): where its APs hang, the walls and floors
 * between them, and what each radio hears of the others at their channels and powers. Path loss
 * follows ITU-R P.1238 (indoor: 20·log10 f + N·log10 d − 28, N = 30 at 2.4 GHz and 31 at 5 GHz) plus
 * the walls a straight line between two APs crosses and the floors between them, with a fixed
 * log-normal shadowing per pair (σ 3 dB) and ±1 dB of scan-to-scan jitter. A change of channel or
 * power on one AP changes what its neighbours report at their next scan, so an RF plan can be
 * measured here as it would be on a real site.
 */

export interface Position {
  x: number;
  y: number;
  floor: number;
}

/** A straight wall on one floor (or every floor), with its loss per band in dB. */
export interface Wall {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  floor?: number;
  loss24: number;
  loss5: number;
}

/** What a radio runs now: its band, channel (never 0 here), width and power. */
export interface RadioTuning {
  band: FrequencyBand;
  channel: number;
  width: number;
  power: number;
}

/** An AP of the world: its radios now (none while it is down). */
export interface RadioNode {
  sn: string;
  mac: string;
  position: Position;
  radios(): readonly RadioTuning[];
  /** Clients on each band (the airtime they take shows in neighbours' utilisation). */
  clients?(band: FrequencyBand): number;
}

/** An AP of another network on the site (a neighbour's Wi-Fi): heard, never planned. */
export interface ForeignAp {
  bssid: string;
  position: Position;
  radio: RadioTuning;
}

/** A source of non-Wi-Fi interference (a microwave oven, a camera link) raising the noise floor. */
export interface NoiseSource {
  position: Position;
  /** 20 MHz channels it covers, and its level in dBm at 1 m. */
  channels: readonly number[];
  level: number;
}

export const FLOOR_LOSS = { b24: 15, b5: 18 } as const;
export const NOISE_FLOOR = -95;
const SHADOW_SIGMA = 3;
const FLOOR_HEIGHT = 3.5;
/** Beyond this distance (m) nothing is heard: 29 dBm at 2.4 GHz is below −95 dBm by 150 m. */
const RANGE = 150;
/** Side (m) of the grid cells that index APs and walls. */
const CELL = 50;
const cellOf = (v: number) => Math.floor(v / CELL);

/** Centre frequency (MHz) of a radio, for path loss. */
const frequency = (channel: number): number => (channel <= 14 ? 2407 + 5 * channel : 5000 + 5 * channel);

/** A standard normal deviate from two uniform ones (Box–Muller). */
function gaussian(r: Rng): number {
  const u = Math.max(1e-12, r());
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}

/** Channels two tunings share, on 2.4 GHz counting the spectral overlap of neighbours (0..1). */
export function sharedSpectrum(a: RadioTuning, b: RadioTuning): number {
  if (is24(a.band) !== is24(b.band)) return 0;
  if (is24(a.band)) {
    const d = Math.abs(a.channel - b.channel);
    return [1, 0.75, 0.5, 0.25][d] ?? 0;
  }
  const oa = occupiedChannels(a.band, a.channel, a.width) ?? [a.channel];
  const ob = occupiedChannels(b.band, b.channel, b.width) ?? [b.channel];
  return oa.some((c) => ob.includes(c)) ? 1 : 0;
}

export class RadioWorld {
  private readonly nodes = new Map<string, RadioNode>();
  private readonly foreign: ForeignAp[] = [];
  private readonly noise: NoiseSource[] = [];
  private readonly shadow = new Map<string, number>();
  private readonly jitter: Rng;
  /** APs by grid cell (x, y), rebuilt after a change; walls by the cells their bounding box touches. */
  private grid: Map<string, RadioNode[]> | null = null;
  private readonly wallCells = new Map<string, Wall[]>();

  constructor(
    readonly walls: readonly Wall[] = [],
    seed = 1,
  ) {
    this.jitter = rng(seed);
    for (const w of walls) {
      for (let cx = cellOf(Math.min(w.x1, w.x2)); cx <= cellOf(Math.max(w.x1, w.x2)); cx++) {
        for (let cy = cellOf(Math.min(w.y1, w.y2)); cy <= cellOf(Math.max(w.y1, w.y2)); cy++) {
          const key = `${cx},${cy}`;
          this.wallCells.set(key, [...(this.wallCells.get(key) ?? []), w]);
        }
      }
    }
  }

  register(node: RadioNode): void {
    this.nodes.set(node.sn, node);
    this.grid = null;
  }

  unregister(sn: string): void {
    this.nodes.delete(sn);
    this.grid = null;
  }

  /** The APs within RANGE of a place (the cells around it). */
  private near(p: Position): RadioNode[] {
    if (!this.grid) {
      this.grid = new Map();
      for (const n of this.nodes.values()) {
        const key = `${cellOf(n.position.x)},${cellOf(n.position.y)}`;
        this.grid.set(key, [...(this.grid.get(key) ?? []), n]);
      }
    }
    const out: RadioNode[] = [];
    const reach = Math.ceil(RANGE / CELL);
    for (let dx = -reach; dx <= reach; dx++) {
      for (let dy = -reach; dy <= reach; dy++) {
        const cell = this.grid.get(`${cellOf(p.x) + dx},${cellOf(p.y) + dy}`);
        if (cell) out.push(...cell);
      }
    }
    return out;
  }

  /** Walls whose cells the segment a-b passes near (its bounding box). */
  private wallsBetween(a: Position, b: Position): Set<Wall> {
    const out = new Set<Wall>();
    for (let cx = cellOf(Math.min(a.x, b.x)); cx <= cellOf(Math.max(a.x, b.x)); cx++) {
      for (let cy = cellOf(Math.min(a.y, b.y)); cy <= cellOf(Math.max(a.y, b.y)); cy++) {
        for (const w of this.wallCells.get(`${cx},${cy}`) ?? []) out.add(w);
      }
    }
    return out;
  }

  addForeign(ap: ForeignAp): void {
    this.foreign.push(ap);
  }

  addNoise(source: NoiseSource): void {
    this.noise.push(source);
  }

  get size(): number {
    return this.nodes.size;
  }

  /** Path loss between two places at a frequency (dB), without shadowing. */
  pathLoss(a: Position, b: Position, channel: number): number {
    const b24 = channel <= 14;
    const floors = Math.abs(a.floor - b.floor);
    const d = Math.max(1, Math.hypot(a.x - b.x, a.y - b.y, floors * FLOOR_HEIGHT));
    let loss = 20 * Math.log10(frequency(channel)) + (b24 ? 30 : 31) * Math.log10(d) - 28;
    loss += floors * (b24 ? FLOOR_LOSS.b24 : FLOOR_LOSS.b5);
    if (d > RANGE) return loss;
    for (const w of this.wallsBetween(a, b)) {
      if (w.floor !== undefined && w.floor !== a.floor && w.floor !== b.floor) continue;
      if (segmentsCross(a.x, a.y, b.x, b.y, w.x1, w.y1, w.x2, w.y2)) loss += b24 ? w.loss24 : w.loss5;
    }
    return loss;
  }

  /** The fixed shadowing (dB) between two transmitters, the same both ways. */
  private shadowing(a: string, b: string): number {
    const key = a < b ? `${a}|${b}` : `${b}|${a}`;
    let s = this.shadow.get(key);
    if (s === undefined) {
      s = clamp(gaussian(rng(seedOf(`shadow:${key}`))) * SHADOW_SIGMA, -2 * SHADOW_SIGMA, 2 * SHADOW_SIGMA);
      this.shadow.set(key, s);
    }
    return s;
  }

  /** RSSI (dBm) at which `at` hears `tx` (without jitter). */
  rssi(at: Position, atId: string, tx: Position, txId: string, radio: RadioTuning): number {
    return radio.power - this.pathLoss(at, tx, radio.channel) - this.shadowing(atId, txId);
  }

  /**
   * What the radio of `sn` on `band` hears: every other AP of the world (ours and others') on the
   * same band, loudest first, down to the sensitivity (−95 dBm), at most DEVICE_LIMITS.NEIGHBOURS.
   * A background scan hears every channel, so the list does not depend on the listener's channel.
   */
  scan(sn: string, band: FrequencyBand): NeighbourAp[] {
    const me = this.nodes.get(sn);
    if (!me) return [];
    const out: NeighbourAp[] = [];
    for (const other of this.near(me.position)) {
      if (other.sn === sn) continue;
      for (const [i, radio] of other.radios().entries()) {
        if (is24(radio.band) !== is24(band)) continue;
        const level = this.rssi(me.position, sn, other.position, other.sn, radio) + this.scanJitter();
        if (level < NOISE_FLOOR) continue;
        out.push({
          bssid: bssidOf(other.mac, i),
          sn: other.sn,
          channel: radio.channel,
          width: radio.width,
          rssi: Math.round(level),
        });
      }
    }
    for (const f of this.foreign) {
      if (is24(f.radio.band) !== is24(band)) continue;
      const level = this.rssi(me.position, sn, f.position, f.bssid, f.radio) + this.scanJitter();
      if (level < NOISE_FLOOR) continue;
      out.push({ bssid: f.bssid, channel: f.radio.channel, width: f.radio.width, rssi: Math.round(level) });
    }
    return out.sort((a, b) => b.rssi - a.rssi).slice(0, DEVICE_LIMITS.NEIGHBOURS);
  }

  private scanJitter(): number {
    return (this.jitter() - 0.5) * 2;
  }

  /** The noise floor (dBm) a radio of `sn` measures on its channel: thermal, raised by sources near it. */
  noiseAt(sn: string, radio: RadioTuning): number {
    const me = this.nodes.get(sn);
    let mw = 10 ** (NOISE_FLOOR / 10);
    if (me) {
      const occupied = occupiedChannels(radio.band, radio.channel, radio.width) ?? [radio.channel];
      for (const s of this.noise) {
        if (!s.channels.some((c) => occupied.includes(c))) continue;
        mw += 10 ** ((s.level - this.pathLoss(me.position, s.position, radio.channel)) / 10);
      }
    }
    return Math.round(10 * Math.log10(mw));
  }

  /**
   * Airtime (%) others take on the radio's channel: every AP it hears at or above the CCA threshold
   * (−82 dBm) on a channel it shares defers its own transmissions, by that AP's load.
   */
  busyAt(sn: string, radio: RadioTuning): number {
    const me = this.nodes.get(sn);
    if (!me) return 0;
    let busy = 0;
    for (const other of this.near(me.position)) {
      if (other.sn === sn) continue;
      for (const r of other.radios()) {
        const shared = sharedSpectrum(radio, r);
        if (shared === 0) continue;
        if (this.rssi(me.position, sn, other.position, other.sn, r) < -82) continue;
        busy += shared * (4 + 2 * (other.clients?.(r.band) ?? 0));
      }
    }
    return Math.round(clamp(busy, 0, 90));
  }
}

/** The BSSID of a device's radio i: its MAC with the last byte moved by i + 1 (as vendors do). */
export function bssidOf(mac: string, i: number): string {
  const parts = mac.split(':');
  const last = (Number.parseInt(parts[5] ?? '0', 16) + i + 1) & 0xff;
  parts[5] = last.toString(16).padStart(2, '0').toUpperCase();
  return parts.join(':');
}

export interface CampusOptions {
  aps: number;
  /** APs per floor of a building (a corridor of rooms), floors per building. */
  perFloor?: number;
  floors?: number;
  /** Metres between APs along a corridor, and between buildings. */
  spacing?: number;
  gap?: number;
  /** Other networks on the site (neighbours' Wi-Fi), one per building by default. */
  foreign?: number;
  seed?: number;
}

export interface Campus {
  world: RadioWorld;
  positions: Position[];
}

/**
 * A campus: buildings in a row, each `floors` high with `perFloor` APs along a corridor of rooms
 * (an interior wall between each two rooms), exterior walls around each building, other networks
 * at the buildings' ends and a microwave oven in the first building's kitchen (2.4 GHz 7–11).
 */
export function campus(options: CampusOptions): Campus {
  const perFloor = options.perFloor ?? 5;
  const floors = options.floors ?? 2;
  const spacing = options.spacing ?? 12;
  const gap = options.gap ?? 25;
  const perBuilding = perFloor * floors;
  const buildings = Math.ceil(options.aps / perBuilding);
  const length = perFloor * spacing;
  const depth = 16;
  const walls: Wall[] = [];
  const positions: Position[] = [];
  const r = rng(options.seed ?? 7);
  for (let b = 0; b < buildings; b++) {
    const x0 = b * (length + gap);
    // Exterior walls (concrete and glass): 10 dB at 2.4 GHz, 13 dB at 5 GHz.
    const outer = (x1: number, y1: number, x2: number, y2: number) =>
      walls.push({ x1, y1, x2, y2, loss24: 10, loss5: 13 });
    outer(x0, 0, x0 + length, 0);
    outer(x0, depth, x0 + length, depth);
    outer(x0, 0, x0, depth);
    outer(x0 + length, 0, x0 + length, depth);
    // Interior walls between rooms (plasterboard): 3 dB and 4 dB.
    for (let i = 1; i < perFloor; i++) {
      walls.push({ x1: x0 + i * spacing, y1: 0, x2: x0 + i * spacing, y2: depth, loss24: 3, loss5: 4 });
    }
  }
  for (let i = 0; i < options.aps; i++) {
    const b = Math.floor(i / perBuilding);
    const floor = Math.floor((i % perBuilding) / perFloor);
    const slot = i % perFloor;
    positions.push({
      x: b * (length + gap) + (slot + 0.5) * spacing + (r() - 0.5) * 2,
      y: depth / 2 + (r() - 0.5) * 4,
      floor,
    });
  }
  const world = new RadioWorld(walls, options.seed ?? 7);
  const foreign = options.foreign ?? buildings;
  for (let f = 0; f < foreign; f++) {
    const b = f % buildings;
    world.addForeign({
      bssid:
        `0A:F0:00:00:${(f >> 8).toString(16).padStart(2, '0')}:${(f & 255).toString(16).padStart(2, '0')}`.toUpperCase(),
      position: { x: b * (length + gap) + length + 6, y: depth / 2, floor: 0 },
      radio:
        f % 2 === 0
          ? { band: FrequencyBand.B2G4, channel: [1, 6, 11][f % 3]!, width: 20, power: 20 }
          : { band: FrequencyBand.B5G, channel: [36, 149][f % 2]!, width: 40, power: 20 },
    });
  }
  if (buildings > 0)
    world.addNoise({ position: { x: 2, y: 2, floor: 0 }, channels: [7, 8, 9, 10, 11], level: 0 });
  return { world, positions };
}
