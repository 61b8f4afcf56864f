import { channelFrequency, channelSpan } from '../enums/rf.ts';
import { FrequencyBand } from '../enums/wireless.ts';

/**
 * The Wi-Fi map's predicted coverage (docs/decisions/0052): pure, so the web worker, the unit tests
 * and bench/wifi-map compute the same figures.
 *
 * Received level at a point = the radio's transmit power as the AP reports it (dBm, taken as EIRP)
 * − ITU-R P.1238 site-general indoor loss (office: L = 20·log10 f + N·log10 d − 28, f in MHz, d in
 * metres, d at least 1 m; N = 30 at 2.4 GHz, 31 at 5 GHz, the same coefficients the simulator's
 * radio world uses) − the loss of every wall the straight line from the AP to the point crosses
 * (WALL_LOSS_DB, per band). On one floor, so the floor penetration term Lf is 0.
 */

/** Wall materials a user draws with (SPEC: drywall, glass, wood, brick, concrete, metal). */
export const WALL_MATERIALS = ['drywall', 'glass', 'wood', 'brick', 'concrete', 'metal'] as const;
export type WallMaterial = (typeof WALL_MATERIALS)[number];

/**
 * Attenuation of one wall (dB) at 2.4 GHz and 5 GHz: typical figures of indoor planning tables
 * (drywall partition, clear window glass, a wooden door or panel, a brick wall, a concrete wall, a
 * metal door or cabinet); docs/decisions/0052 lists them with their sources.
 */
export const WALL_LOSS_DB: Record<WallMaterial, { b24: number; b5: number }> = {
  drywall: { b24: 3, b5: 4 },
  glass: { b24: 4, b5: 8 },
  wood: { b24: 4, b5: 6 },
  brick: { b24: 8, b5: 12 },
  concrete: { b24: 12, b5: 18 },
  metal: { b24: 26, b5: 32 },
};

/** The two bands the map draws: 5G-1 and 5G-2 radios count as 5G. */
export const MAP_BANDS = [FrequencyBand.B2G4, FrequencyBand.B5G] as const;
export type MapBand = (typeof MAP_BANDS)[number];
export const mapBandOf = (band: string): MapBand =>
  band === FrequencyBand.B2G4 ? FrequencyBand.B2G4 : FrequencyBand.B5G;

/** ITU-R P.1238 distance power loss coefficient N (office) by band. */
export const P1238_N = { b24: 30, b5: 31 } as const;

/** Levels below this are not drawn (no coverage); the usual noise floor is about −95 dBm. */
export const COVERAGE_FLOOR_DBM = -90;
/**
 * A radio heard at or above this level defers to the serving one (the 802.11 preamble detection
 * threshold for 20 MHz, −82 dBm): that is what the co-channel overlap layer counts.
 */
export const CO_CHANNEL_CCA_DBM = -82;

/** ITU-R P.1238 indoor path loss (dB) at `distance` metres on `channel` (one floor). */
export function p1238Loss(channel: number, distance: number): number {
  const n = channel <= 14 ? P1238_N.b24 : P1238_N.b5;
  return 20 * Math.log10(channelFrequency(channel)) + n * Math.log10(Math.max(1, distance)) - 28;
}

export interface MapPoint {
  x: number;
  y: number;
}

/** A wall in metres. */
export interface MapWall {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  material: WallMaterial;
}

/** A radio of a placed AP, in metres, as the AP reports it. */
export interface MapRadio {
  /** Whose radio (the AP's serial number). */
  sn: string;
  x: number;
  y: number;
  channel: number;
  width: number;
  /** Transmit power in dBm. */
  power: number;
}

/** Whether segment a-b properly crosses segment c-d (touching at an end does not count). */
export function segmentsCross(
  ax: number,
  ay: number,
  bx: number,
  by: number,
  cx: number,
  cy: number,
  dx: number,
  dy: number,
): boolean {
  const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  const d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  return d1 * d2 < 0 && d3 * d4 < 0;
}

/** The summed loss (dB) of the walls the straight line a-b crosses on `channel`'s band. */
export function wallLoss(a: MapPoint, b: MapPoint, walls: readonly MapWall[], channel: number): number {
  const key = channel <= 14 ? 'b24' : 'b5';
  let loss = 0;
  for (const w of walls) {
    if (segmentsCross(a.x, a.y, b.x, b.y, w.x1, w.y1, w.x2, w.y2)) loss += WALL_LOSS_DB[w.material][key];
  }
  return loss;
}

/** Predicted level (dBm) of a radio at a point. */
export function levelAt(radio: MapRadio, point: MapPoint, walls: readonly MapWall[]): number {
  const d = Math.hypot(point.x - radio.x, point.y - radio.y);
  return radio.power - p1238Loss(radio.channel, d) - wallLoss(radio, point, walls, radio.channel);
}

/** The span (MHz) a radio occupies (rf.ts channelSpan; its primary 20 MHz when the width has no block). */
function spectrumOf(r: Pick<MapRadio, 'channel' | 'width'>): [number, number] {
  const band = r.channel <= 14 ? FrequencyBand.B2G4 : FrequencyBand.B5G;
  const f = channelFrequency(r.channel);
  return channelSpan(band, r.channel, r.width) ?? [f - 10, f + 10];
}

/**
 * Whether two radios share spectrum (their occupied bandwidths overlap): the same channel, a 40 or
 * 80 MHz block holding the other's channel, or 2.4 GHz channels fewer than 4 apart.
 */
export function sharesChannel(
  a: Pick<MapRadio, 'channel' | 'width'>,
  b: Pick<MapRadio, 'channel' | 'width'>,
): boolean {
  if (a.channel <= 14 !== b.channel <= 14) return false;
  const [a0, a1] = spectrumOf(a);
  const [b0, b1] = spectrumOf(b);
  return a0 < b1 && b0 < a1;
}

export interface CoverageInput {
  /** The floor's size in metres. */
  widthM: number;
  heightM: number;
  /** Side of a grid cell in metres. */
  cellM: number;
  /** The radios of one band. */
  radios: readonly MapRadio[];
  walls: readonly MapWall[];
}

export interface CoverageGrid {
  cols: number;
  rows: number;
  cellM: number;
  /** Best level per cell (dBm, row-major; −Infinity where no radio is heard above the floor). */
  best: Float32Array;
  /** Per cell, how many other radios sharing the serving radio's channel are heard at ≥ −82 dBm. */
  overlap: Uint8Array;
}

/** The cell side for a floor: at most 128 cells along its longer side, at least 0.25 m. */
export function cellSizeFor(widthM: number, heightM: number): number {
  return Math.max(0.25, Math.max(widthM, heightM) / 128);
}

/**
 * Predicted coverage of a floor on one band, at the centre of each cell: the best level and the
 * co-channel overlap count. The same figures as levelAt, computed with the wall tests unrolled:
 * which side of each wall a cell lies on is computed once per cell, and each radio's side once, so
 * the full crossing test (segmentsCross) runs only for the walls between a radio and the cell. A
 * radio is skipped for a cell where even without walls it would be below the floor.
 */
export function computeCoverage(input: CoverageInput): CoverageGrid {
  const { cellM, radios, walls } = input;
  const cols = Math.max(1, Math.ceil(input.widthM / cellM));
  const rows = Math.max(1, Math.ceil(input.heightM / cellM));
  const best = new Float32Array(cols * rows).fill(Number.NEGATIVE_INFINITY);
  const overlap = new Uint8Array(cols * rows);
  const n = radios.length;
  const nw = walls.length;
  const levels = new Float64Array(n);
  // Per radio: its level at 1 m, its log-distance slope (N/2 per ln of the squared distance, in
  // dB), the squared distance beyond which it is below the floor with no wall in the way, and
  // which side of each wall it stands on.
  const at1m = new Float64Array(n);
  const slope = new Float64Array(n);
  const reach2 = new Float64Array(n);
  const radioSide = new Float64Array(n * nw);
  // Per wall: the line through it as A·x + B·y + C (its sign is the side), and its loss on this band.
  const wa = new Float64Array(nw);
  const wb = new Float64Array(nw);
  const wc = new Float64Array(nw);
  const wx1 = new Float64Array(nw);
  const wy1 = new Float64Array(nw);
  const wx2 = new Float64Array(nw);
  const wy2 = new Float64Array(nw);
  const wloss = new Float64Array(nw * n);
  const rx = new Float64Array(n);
  const ry = new Float64Array(n);
  for (let j = 0; j < nw; j++) {
    const w = walls[j]!;
    wx1[j] = w.x1;
    wy1[j] = w.y1;
    wx2[j] = w.x2;
    wy2[j] = w.y2;
    wa[j] = -(w.y2 - w.y1);
    wb[j] = w.x2 - w.x1;
    wc[j] = -(wa[j]! * w.x1 + wb[j]! * w.y1);
  }
  for (let i = 0; i < n; i++) {
    const r = radios[i]!;
    rx[i] = r.x;
    ry[i] = r.y;
    const nCoef = r.channel <= 14 ? P1238_N.b24 : P1238_N.b5;
    at1m[i] = r.power - (20 * Math.log10(channelFrequency(r.channel)) - 28);
    slope[i] = nCoef / 2 / Math.LN10;
    const reach = 10 ** ((at1m[i]! - COVERAGE_FLOOR_DBM) / nCoef);
    reach2[i] = reach * reach;
    const key = r.channel <= 14 ? 'b24' : 'b5';
    for (let j = 0; j < nw; j++) {
      radioSide[i * nw + j] = wa[j]! * r.x + wb[j]! * r.y + wc[j]!;
      wloss[i * nw + j] = WALL_LOSS_DB[walls[j]!.material][key];
    }
  }
  const shares: boolean[][] = radios.map((a) => radios.map((b) => sharesChannel(a, b)));
  const cellSide = new Float64Array(nw);
  for (let row = 0; row < rows; row++) {
    const y = (row + 0.5) * cellM;
    for (let col = 0; col < cols; col++) {
      const x = (col + 0.5) * cellM;
      for (let j = 0; j < nw; j++) cellSide[j] = wa[j]! * x + wb[j]! * y + wc[j]!;
      let top = Number.NEGATIVE_INFINITY;
      let server = -1;
      for (let i = 0; i < n; i++) {
        const px = rx[i]!;
        const py = ry[i]!;
        const dx = x - px;
        const dy = y - py;
        const d2 = dx * dx + dy * dy;
        if (d2 > reach2[i]!) {
          levels[i] = Number.NEGATIVE_INFINITY;
          continue;
        }
        let level = at1m[i]! - (d2 > 1 ? slope[i]! * Math.log(d2) : 0);
        const base = i * nw;
        for (let j = 0; j < nw; j++) {
          // Opposite sides of the wall's line, then the wall's ends on opposite sides of the ray.
          if (cellSide[j]! * radioSide[base + j]! >= 0) continue;
          const e1 = dx * (wy1[j]! - py) - dy * (wx1[j]! - px);
          const e2 = dx * (wy2[j]! - py) - dy * (wx2[j]! - px);
          if (e1 * e2 < 0) level -= wloss[base + j]!;
        }
        levels[i] = level;
        if (level > top) {
          top = level;
          server = i;
        }
      }
      const cell = row * cols + col;
      if (server < 0 || top < COVERAGE_FLOOR_DBM) continue;
      best[cell] = top;
      let count = 0;
      const sharesServer = shares[server]!;
      for (let i = 0; i < n; i++) {
        if (i !== server && levels[i]! >= CO_CHANNEL_CCA_DBM && sharesServer[i]) count++;
      }
      overlap[cell] = Math.min(255, count);
    }
  }
  return { cols, rows, cellM, best, overlap };
}
