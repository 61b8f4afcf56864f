import { maxPowerFor, planChannels } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import { type PlanNeighbour, type PlanRadio, planRf, tpcPower } from './plan.ts';
import { coChannelCount, networkScore, overlap, type Scan, units } from './spectrum.ts';

/**
 * The automatic RF plan as a pure function (docs/decisions/0048): channel overlap weights, TPC,
 * the colouring search, the 5 dB anti-churn margin and the country's power limits, on small sites
 * whose scans are computed here from a plain log-distance model.
 */

interface Ap {
  id: string;
  x: number;
  y: number;
  channel: number;
  width: number;
  power: number;
}

/** Path loss at 2.4 GHz (5 GHz: +7 dB), exponent 3, from 1 m. */
const loss = (a: Ap, b: Ap) =>
  40 + (a.channel > 14 ? 7 : 0) + 30 * Math.log10(Math.max(1, Math.hypot(a.x - b.x, a.y - b.y)));

/** What each AP hears of the others now. */
function scans(aps: readonly Ap[]): (Scan & { id: string; neighbours: PlanNeighbour[] })[] {
  return aps.map((a) => ({
    id: a.id,
    channel: a.channel,
    width: a.width,
    neighbours: aps
      .filter((b) => b !== a && b.channel > 14 === a.channel > 14)
      .map((b) => ({ id: b.id, channel: b.channel, width: b.width, rssi: Math.round(b.power - loss(a, b)) }))
      .filter((n) => n.rssi >= -95),
  }));
}

function radiosOf(aps: readonly Ap[], country = 'US'): PlanRadio[] {
  return scans(aps).map((s, i) => {
    const band = aps[i]!.channel > 14 ? '5G' : '2.4G';
    return {
      id: s.id,
      channel: s.channel,
      width: s.width,
      power: aps[i]!.power,
      noise: -95,
      utilisation: 10,
      clients: 3,
      candidates: planChannels(country, band, s.width),
      minPower: 8,
      maxPower: maxPowerFor(country, band, 0),
      limit: (channel: number) => maxPowerFor(country, band, channel),
      neighbours: s.neighbours,
    };
  });
}

/** Applies a plan to the APs (as the devices would) and answers the new scans' score. */
function apply(aps: Ap[], plan: ReturnType<typeof planRf>): void {
  for (const p of plan.radios) {
    const ap = aps.find((a) => a.id === p.id)!;
    ap.channel = p.channel;
    ap.power = p.power;
  }
}

/** A grid of APs `spacing` metres apart, all on `channel` at 20 dBm. */
function grid(cols: number, rows: number, spacing: number, channel: number, width = 20): Ap[] {
  const out: Ap[] = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++)
      out.push({ id: `AP${r}-${c}`, x: c * spacing, y: r * spacing, channel, width, power: 20 });
  return out;
}

describe('channel overlap', () => {
  it.each([
    [1, 1, 1],
    [1, 2, 0.85],
    [1, 3, 0.55],
    [1, 6, 0],
    [6, 11, 0],
    [11, 9, 0.55],
  ])('2.4 GHz channels %i and %i weigh %f (hostapd ACS 0.85 / 0.55; 1, 6, 11 apart)', (a, b, w) => {
    expect(overlap({ channel: a, width: 20 }, { channel: b, width: 20 })).toBe(w);
  });

  it('5 GHz by shared 20 MHz channels: 36/40 MHz holds 40, not 44; 80 MHz 36-48 holds 44', () => {
    expect(overlap({ channel: 36, width: 40 }, { channel: 40, width: 20 })).toBe(1);
    expect(overlap({ channel: 36, width: 40 }, { channel: 44, width: 20 })).toBe(0);
    expect(overlap({ channel: 36, width: 80 }, { channel: 44, width: 40 })).toBe(1);
    expect(overlap({ channel: 36, width: 20 }, { channel: 1, width: 20 })).toBe(0);
  });

  it('scores a neighbour at −82 dBm on the same channel as 1, at −72 dBm as 10', () => {
    expect(units(-82)).toBeCloseTo(1);
    expect(units(-72)).toBeCloseTo(10);
  });
});

describe('transmit power control (Cisco TPC)', () => {
  it('sets the power so that the third loudest neighbour hears the AP at −70 dBm', () => {
    // Heard at −50, −55, −60, −80 at 20 dBm: the third (−60) is 10 dB over −70, so 10 dBm.
    expect(tpcPower(20, [-50, -55, -60, -80], { min: 8, max: 29 })).toBe(10);
  });

  it('keeps the power within the hysteresis (3 dB)', () => {
    expect(tpcPower(20, [-60, -65, -68], { min: 8, max: 29 })).toBe(20);
    expect(tpcPower(20, [-60, -65, -67], { min: 8, max: 29 })).toBe(17);
  });

  it('uses the highest power with fewer than three neighbours, and stays within 8 and the limit', () => {
    expect(tpcPower(14, [-60, -65], { min: 8, max: 23 })).toBe(23);
    expect(tpcPower(20, [-20, -25, -30], { min: 8, max: 23 })).toBe(8);
  });
});

describe('the automatic plan', () => {
  it('gives three APs that hear each other 1, 6 and 11', () => {
    const aps = grid(3, 1, 10, 6);
    const plan = planRf(radiosOf(aps));
    expect(plan.radios.map((r) => r.channel).sort((a, b) => a - b)).toEqual([1, 6, 11]);
    expect(plan.bands['2.4']?.applied).toBe(true);
  });

  it('lowers the co-channel score of a 6 × 5 grid all on one channel by far more than 40 %', () => {
    const aps = [...grid(6, 5, 15, 6), ...grid(6, 5, 15, 36, 40).map((a) => ({ ...a, id: `${a.id}/5` }))];
    const before = networkScore(scans(aps));
    const counted = scans(aps).reduce((n, s) => n + coChannelCount(s), 0);
    const plan = planRf(radiosOf(aps), { seed: 3 });
    apply(aps, plan);
    const after = networkScore(scans(aps));
    expect(after).toBeLessThan(before * 0.6);
    expect(scans(aps).reduce((n, s) => n + coChannelCount(s), 0)).toBeLessThan(counted);
    expect(plan.costAfter).toBeLessThan(plan.costBefore);
  });

  it('avoids the channel of another network it hears loudly', () => {
    const aps = grid(2, 1, 40, 1);
    const radios = radiosOf(aps).map((r) => ({
      ...r,
      neighbours: [...r.neighbours, { id: null, channel: 1, width: 20, rssi: -45 }],
    }));
    const plan = planRf(radios);
    expect(plan.radios.every((r) => r.channel !== 1)).toBe(true);
  });

  it('changes no channel when the worst AP would improve by less than 5 dB (anti-churn)', () => {
    // Already on 1, 6, 11: nothing better exists.
    const aps = grid(3, 1, 10, 1);
    aps[1]!.channel = 6;
    aps[2]!.channel = 11;
    const plan = planRf(radiosOf(aps));
    expect(plan.radios.some((r) => r.channelChanged)).toBe(false);
    // Two APs far apart on one channel, other networks on 1, 6 and 11: the worst AP would gain
    // less than 5 dB from another channel, so neither moves.
    const far = grid(2, 1, 150, 6);
    const busy = radiosOf(far).map((r) => ({
      ...r,
      neighbours: [
        ...r.neighbours,
        ...[1, 6, 11].map((channel) => ({ id: null, channel, width: 20, rssi: -84 })),
      ],
    }));
    const quiet = planRf(busy, { tpcHysteresis: 99 });
    expect(quiet.bands['2.4']?.applied).toBe(false);
    expect(quiet.changed).toBe(false);
  });

  it('moves no channel only to push the worst radio further below the CCA threshold (−82 dBm)', () => {
    // Two 5 GHz APs on 36, 92 m apart: each hears the other at about −86 dBm, too weak to make it
    // wait for the air. Another channel would take that down to the noise floor, which no client
    // notices: nothing moves (on a 30-AP campus a second run at once moved most 5 GHz channels).
    const far = planRf(radiosOf(grid(2, 1, 92, 36)), { tpcHysteresis: 99 });
    expect(far.bands['5']!.worstBefore).toBeLessThan(-82);
    expect(far.bands['5']!.worstBefore - far.bands['5']!.worstAfter).toBeGreaterThanOrEqual(5);
    expect(far.bands['5']!.applied).toBe(false);
    expect(far.radios.some((r) => r.channelChanged)).toBe(false);
    // Closer, heard at about −76 dBm: the same move is worth making.
    const near = planRf(radiosOf(grid(2, 1, 42, 36)), { tpcHysteresis: 99 });
    expect(near.bands['5']!.applied).toBe(true);
    expect(near.radios.filter((r) => r.channelChanged)).toHaveLength(1);
  });

  it('keeps each radio within its country: 2.4 GHz on 1/6/11, 5 GHz power at most the channel limit', () => {
    const aps = grid(4, 1, 200, 36, 20).map((a) => ({ ...a, power: 20 }));
    // Far apart: TPC raises every radio to its highest power; ETSI allows 23 dBm on 36-64.
    const plan = planRf(radiosOf(aps, 'DE'), { seed: 5 });
    for (const r of plan.radios) {
      expect(r.power).toBeLessThanOrEqual(maxPowerFor('DE', '5G', r.channel));
      expect(planChannels('DE', '5G', 20)).toContain(r.channel);
    }
  });

  it('is the same plan for the same input and seed', () => {
    const aps = grid(5, 4, 12, 6);
    const a = planRf(radiosOf(aps), { seed: 9 });
    const b = planRf(radiosOf(aps), { seed: 9 });
    expect(a.radios).toEqual(b.radios);
  });
});
