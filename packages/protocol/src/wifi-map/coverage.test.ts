import { describe, expect, it } from 'vitest';
import {
  computeCoverage,
  levelAt,
  type MapRadio,
  type MapWall,
  p1238Loss,
  sharesChannel,
  WALL_LOSS_DB,
  wallLoss,
} from './coverage.ts';

// Hand-computed (ITU-R P.1238 office: L = 20·log10 f + N·log10 d − 28):
//   ch 6 (2437 MHz), 10 m, N 30:  20·3.386856 + 30·1 − 28 = 69.737 dB
//   ch 36 (5180 MHz), 10 m, N 31: 20·3.714330 + 31·1 − 28 = 77.287 dB
//   ch 36, 20 m:                  74.287 + 31·1.301030 − 28 = 86.619 dB
//   ch 1 (2412 MHz), 0.5 m → 1 m: 20·3.382377 − 28 = 39.648 dB
const ap = (over: Partial<MapRadio> = {}): MapRadio => ({
  sn: 'AP1',
  x: 0,
  y: 0,
  channel: 6,
  width: 20,
  power: 20,
  ...over,
});
const wall = (x: number, material: MapWall['material']): MapWall => ({
  x1: x,
  y1: -5,
  x2: x,
  y2: 5,
  material,
});

describe('ITU-R P.1238 distance loss', () => {
  it('matches hand-computed values at known distances', () => {
    expect(p1238Loss(6, 10)).toBeCloseTo(69.737, 3);
    expect(p1238Loss(36, 10)).toBeCloseTo(77.287, 3);
    expect(p1238Loss(36, 20)).toBeCloseTo(86.619, 3);
  });
  it('takes distances under 1 m as 1 m', () => {
    expect(p1238Loss(1, 0.5)).toBeCloseTo(39.648, 3);
    expect(p1238Loss(1, 0)).toBeCloseTo(39.648, 3);
  });
});

describe('the level at a point', () => {
  it('is the reported power less the distance loss in the open', () => {
    // 20 dBm − 69.737 dB
    expect(levelAt(ap(), { x: 10, y: 0 }, [])).toBeCloseTo(-49.737, 3);
    // 4 m: 20 − (67.737 + 30·0.602060 − 28) = −37.799
    expect(levelAt(ap(), { x: 0, y: 4 }, [])).toBeCloseTo(-37.799, 3);
  });
  it('subtracts each wall the line crosses, by material and band', () => {
    // 20 − 69.737 − 12 (concrete at 2.4 GHz) = −61.737
    expect(levelAt(ap(), { x: 10, y: 0 }, [wall(5, 'concrete')])).toBeCloseTo(-61.737, 3);
    // + drywall 3 dB = −64.737
    expect(levelAt(ap(), { x: 10, y: 0 }, [wall(5, 'concrete'), wall(7, 'drywall')])).toBeCloseTo(-64.737, 3);
    // 5 GHz, 23 dBm, 20 m through brick (12 dB at 5 GHz): 23 − 86.619 − 12 = −75.619
    expect(levelAt(ap({ channel: 36, power: 23 }), { x: 20, y: 0 }, [wall(3, 'brick')])).toBeCloseTo(
      -75.619,
      3,
    );
  });
  it('ignores walls the line does not cross', () => {
    expect(
      levelAt(ap(), { x: 10, y: 0 }, [wall(12, 'metal'), { ...wall(5, 'metal'), y1: 1, y2: 5 }]),
    ).toBeCloseTo(-49.737, 3);
  });
  it('has a loss for every material on both bands, more at 5 GHz', () => {
    for (const [material, loss] of Object.entries(WALL_LOSS_DB)) {
      expect(loss.b5, material).toBeGreaterThanOrEqual(loss.b24);
      expect(wallLoss({ x: 0, y: 0 }, { x: 10, y: 0 }, [wall(5, material as MapWall['material'])], 36)).toBe(
        loss.b5,
      );
    }
  });
});

describe('co-channel', () => {
  it('shares spectrum on the same channel, within 4 channels on 2.4 GHz, and inside a 5 GHz block', () => {
    expect(sharesChannel({ channel: 6, width: 20 }, { channel: 6, width: 20 })).toBe(true);
    expect(sharesChannel({ channel: 1, width: 20 }, { channel: 4, width: 20 })).toBe(true);
    expect(sharesChannel({ channel: 1, width: 20 }, { channel: 6, width: 20 })).toBe(false);
    expect(sharesChannel({ channel: 36, width: 80 }, { channel: 48, width: 20 })).toBe(true);
    expect(sharesChannel({ channel: 36, width: 40 }, { channel: 44, width: 40 })).toBe(false);
    expect(sharesChannel({ channel: 6, width: 20 }, { channel: 36, width: 20 })).toBe(false);
  });
});

describe('computeCoverage', () => {
  it('gives each cell the best level at its centre', () => {
    const radios = [ap({ x: 1, y: 1 }), ap({ sn: 'AP2', x: 9, y: 1, channel: 11 })];
    const walls = [wall(5, 'brick')];
    const grid = computeCoverage({ widthM: 10, heightM: 2, cellM: 1, radios, walls });
    expect(grid.cols).toBe(10);
    expect(grid.rows).toBe(2);
    // Cell (2, 0): centre (2.5, 0.5); AP1 1.58 m away in the open, AP2 beyond the brick wall.
    const expected = Math.max(
      levelAt(radios[0]!, { x: 2.5, y: 0.5 }, walls),
      levelAt(radios[1]!, { x: 2.5, y: 0.5 }, walls),
    );
    expect(grid.best[2]).toBeCloseTo(expected, 4);
    expect(grid.best[2]).toBeCloseTo(20 - (67.7371 + 30 * Math.log10(Math.hypot(1.5, 0.5)) - 28), 3);
    // Channels 6 and 11 do not overlap.
    expect([...grid.overlap].every((v) => v === 0)).toBe(true);
  });
  it('counts co-channel radios heard at −82 dBm or more', () => {
    const radios = [
      ap({ x: 1, y: 1 }),
      ap({ sn: 'AP2', x: 9, y: 1 }),
      ap({ sn: 'AP3', x: 5, y: 1, channel: 1 }),
    ];
    const grid = computeCoverage({ widthM: 10, heightM: 2, cellM: 1, radios, walls: [] });
    // Cell (0, 0) is served by AP1 on 6: AP2 on 6 is heard at about −67 dBm, AP3 on 1 does not share.
    expect(grid.overlap[0]).toBe(1);
    // Behind metal (26 dB) and concrete (12 dB) AP2 falls below −82 dBm at the left edge:
    // √(8.5² + 0.5²) = 8.515 m away, 20 − (67.737 + 30·0.930172 − 28) − 38 = −85.64 dBm.
    const walls = [wall(7, 'metal'), wall(8, 'concrete')];
    const walled = computeCoverage({ widthM: 10, heightM: 2, cellM: 1, radios, walls });
    expect(levelAt(radios[1]!, { x: 0.5, y: 0.5 }, walls)).toBeCloseTo(-85.642, 3);
    expect(walled.overlap[0]).toBe(0);
  });
  it('leaves cells no radio reaches above −90 dBm empty', () => {
    const grid = computeCoverage({
      widthM: 400,
      heightM: 1,
      cellM: 10,
      radios: [ap({ power: 8 })],
      walls: [],
    });
    expect(grid.best[0]).toBeGreaterThan(-90);
    expect(grid.best[grid.cols - 1]).toBe(Number.NEGATIVE_INFINITY);
  });
  it('agrees with levelAt cell by cell on a floor of many walls and radios', () => {
    let seed = 3;
    const rnd = () => {
      seed = (seed * 1664525 + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    const materials = Object.keys(WALL_LOSS_DB) as MapWall['material'][];
    const radios = Array.from({ length: 6 }, (_, i) =>
      ap({
        sn: `AP${i}`,
        x: rnd() * 20,
        y: rnd() * 12,
        channel: [1, 6, 11, 36, 44, 6][i]!,
        power: 12 + i * 2,
      }),
    );
    const walls = Array.from({ length: 15 }, (_, i) => ({
      x1: rnd() * 20,
      y1: rnd() * 12,
      x2: rnd() * 20,
      y2: rnd() * 12,
      material: materials[i % materials.length]!,
    }));
    const grid = computeCoverage({ widthM: 20, heightM: 12, cellM: 0.5, radios, walls });
    for (let row = 0; row < grid.rows; row++) {
      for (let col = 0; col < grid.cols; col++) {
        const p = { x: (col + 0.5) * 0.5, y: (row + 0.5) * 0.5 };
        const top = Math.max(...radios.map((r) => levelAt(r, p, walls)));
        const expected = top < -90 ? Number.NEGATIVE_INFINITY : top;
        if (expected === Number.NEGATIVE_INFINITY) expect(grid.best[row * grid.cols + col]).toBe(expected);
        else expect(grid.best[row * grid.cols + col]).toBeCloseTo(expected, 3);
      }
    }
  });
});
