import { COVERAGE_FLOOR_DBM, type CoverageGrid } from '@beacon/protocol';

/** Colour stops of the coverage layer (dBm → RGB), strongest first; below −90 dBm nothing is drawn. */
export const LEVEL_STOPS: readonly { dbm: number; rgb: [number, number, number] }[] = [
  { dbm: -45, rgb: [26, 150, 65] },
  { dbm: -55, rgb: [120, 198, 97] },
  { dbm: -65, rgb: [230, 220, 80] },
  { dbm: -75, rgb: [250, 150, 60] },
  { dbm: COVERAGE_FLOOR_DBM, rgb: [215, 25, 28] },
];

/** Colours of the co-channel overlap layer by the number of other co-channel APs heard. */
export const OVERLAP_COLOURS: readonly [number, number, number][] = [
  [250, 200, 50],
  [245, 120, 40],
  [200, 30, 60],
];

function levelColour(dbm: number): [number, number, number] {
  if (dbm >= LEVEL_STOPS[0]!.dbm) return LEVEL_STOPS[0]!.rgb;
  for (let i = 1; i < LEVEL_STOPS.length; i++) {
    const hi = LEVEL_STOPS[i - 1]!;
    const lo = LEVEL_STOPS[i]!;
    if (dbm >= lo.dbm) {
      const t = (hi.dbm - dbm) / (hi.dbm - lo.dbm);
      return [0, 1, 2].map((k) => Math.round(hi.rgb[k]! + (lo.rgb[k]! - hi.rgb[k]!) * t)) as [
        number,
        number,
        number,
      ];
    }
  }
  return LEVEL_STOPS.at(-1)!.rgb;
}

/** RGBA pixels (one per cell) of a layer of the grid: 'coverage' levels or 'overlap' counts. */
export function paintGrid(grid: CoverageGrid, layer: 'coverage' | 'overlap'): Uint8ClampedArray<ArrayBuffer> {
  const out = new Uint8ClampedArray(new ArrayBuffer(grid.cols * grid.rows * 4));
  for (let i = 0; i < grid.cols * grid.rows; i++) {
    const level = grid.best[i]!;
    if (!Number.isFinite(level)) continue;
    let rgb: [number, number, number];
    if (layer === 'coverage') rgb = levelColour(level);
    else {
      const n = grid.overlap[i]!;
      if (n === 0) continue;
      rgb = OVERLAP_COLOURS[Math.min(n, OVERLAP_COLOURS.length) - 1]!;
    }
    out[i * 4] = rgb[0];
    out[i * 4 + 1] = rgb[1];
    out[i * 4 + 2] = rgb[2];
    out[i * 4 + 3] = 255;
  }
  return out;
}

export const cssRgb = (rgb: readonly number[]) => `rgb(${rgb.join(', ')})`;
