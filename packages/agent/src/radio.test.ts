import { FrequencyBand } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import { campus, type RadioTuning, RadioWorld } from './radio.ts';

/** The radio world (docs/decisions/0048): distance, walls and floors, and channels and power that change what neighbours hear. */

function node(world: RadioWorld, sn: string, x: number, radios: RadioTuning[], floor = 0) {
  world.register({ sn, mac: '02:BE:AC:00:00:01', position: { x, y: 0, floor }, radios: () => radios });
  return radios;
}

describe('RadioWorld', () => {
  it('loses more with distance, with each wall a line crosses, and with floors', () => {
    const world = new RadioWorld([{ x1: 15, y1: -5, x2: 15, y2: 5, loss24: 3, loss5: 4 }]);
    const a = { x: 0, y: 0, floor: 0 };
    const near = world.pathLoss(a, { x: 10, y: 0, floor: 0 }, 6);
    const behindWall = world.pathLoss(a, { x: 20, y: 0, floor: 0 }, 6);
    const freeSpace = world.pathLoss({ x: 0, y: 10, floor: 0 }, { x: 20, y: 10, floor: 0 }, 6);
    expect(near).toBeLessThan(freeSpace);
    expect(behindWall - freeSpace).toBeCloseTo(3, 5);
    expect(world.pathLoss(a, { x: 0, y: 0, floor: 1 }, 6)).toBeGreaterThan(near);
    expect(world.pathLoss(a, { x: 10, y: 0, floor: 0 }, 36)).toBeGreaterThan(near);
  });

  it('reports the neighbours of the same band with their channel; power changes what they hear', () => {
    const world = new RadioWorld();
    const a = node(world, 'A', 0, [{ band: FrequencyBand.B2G4, channel: 1, width: 20, power: 20 }]);
    node(world, 'B', 12, [
      { band: FrequencyBand.B2G4, channel: 6, width: 20, power: 20 },
      { band: FrequencyBand.B5G, channel: 36, width: 40, power: 20 },
    ]);
    const heard = world.scan('B', FrequencyBand.B2G4);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ sn: 'A', channel: 1, width: 20 });
    expect(world.scan('B', FrequencyBand.B5G)).toHaveLength(0);
    a[0]!.power = 10;
    a[0]!.channel = 11;
    const quieter = world.scan('B', FrequencyBand.B2G4)[0]!;
    expect(quieter.channel).toBe(11);
    expect(quieter.rssi).toBeLessThanOrEqual(heard[0]!.rssi - 8);
  });

  it('counts airtime others take on a shared channel, not on one apart', () => {
    const world = new RadioWorld();
    const mine = { band: FrequencyBand.B2G4, channel: 6, width: 20, power: 20 };
    node(world, 'A', 0, [mine]);
    const other = node(world, 'B', 8, [{ band: FrequencyBand.B2G4, channel: 6, width: 20, power: 20 }]);
    expect(world.busyAt('A', mine)).toBeGreaterThan(0);
    other[0]!.channel = 11;
    expect(world.busyAt('A', mine)).toBe(0);
  });

  it('lays out a campus: buildings of two floors, other networks and a noisy 2.4 GHz corner', () => {
    const { world, positions } = campus({ aps: 30 });
    expect(positions).toHaveLength(30);
    expect(new Set(positions.map((p) => p.floor))).toEqual(new Set([0, 1]));
    expect(world.walls.length).toBeGreaterThan(12);
    world.register({
      sn: 'K',
      mac: '02:BE:AC:00:00:02',
      position: { x: 3, y: 3, floor: 0 },
      radios: () => [],
    });
    expect(
      world.noiseAt('K', { band: FrequencyBand.B2G4, channel: 9, width: 20, power: 20 }),
    ).toBeGreaterThan(world.noiseAt('K', { band: FrequencyBand.B2G4, channel: 1, width: 20, power: 20 }));
  });
});
