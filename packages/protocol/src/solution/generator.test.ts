import { describe, expect, it } from 'vitest';
import { SolutionInput, type SolutionInputBody } from '../api/solutions.ts';
import { AppError } from '../errors.ts';
import { cellArea, coverageRadius, generateSolution } from './generator.ts';

/**
 * Worked examples written from the formulas of docs/solution-generator.md, by hand:
 *
 * Coverage: budget = 23 dBm − (−67 dBm) − 47 dB = 43 dB. Reach = 10^(43 / 10n):
 *   n = 3.5 → 16.93 m; at 3 m install height the drop is 2 m → r = √(16.93² − 2²) = 16.81 m,
 *   hexagon = 2.598 × 16.81² = 734 m².  n = 4 → 11.89 m → r = 11.72 m, hexagon 357 m²,
 *   corridor spacing √3 × 11.72 = 20.3 m.
 * BA-W1200C: 1167 Mbps rated → 583.5 usable; 2 bands × 128 = 256 clients; 802.3af (15.4 W).
 * BS-S2024P: 24 PoE ports, 370 W → min(24, ⌊370 / 15.4⌋ = 24) = 24 APs per switch; 28 ports → 27 downlinks.
 * BG-R3000P: 3 WAN ports, 9,400 Mbps, 1,500 clients.
 */

const MODELS = {
  apModel: 'BA-W1200C',
  gatewayModel: 'BG-R3000P',
  accessSwitchModel: 'BS-S2024P',
  coreSwitchModel: 'BS-S2024P',
};

const run = (input: Partial<SolutionInputBody>) =>
  generateSolution(
    SolutionInput.parse({
      scenario: 'other',
      broadband: 1000,
      maxBandwidthPerLine: 500,
      ...MODELS,
      ...input,
    }),
  );
const quantities = (r: ReturnType<typeof run>) =>
  Object.fromEntries(r.lines.map((l) => [l.role, l.quantity]));

function refusal(input: Partial<SolutionInputBody>): { code: number; message: string } {
  try {
    run(input);
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
}

const SCHOOL = { scenario: 'campus', classrooms: 30, clientsPerRoom: 40, area: 3000, floors: 3 };
const HOTEL = {
  scenario: 'hotel',
  rooms: 120,
  clientsPerRoom: 3,
  floors: 6,
  broadband: 500,
  maxBandwidthPerLine: 250,
};
const HOSPITAL = {
  scenario: 'hospital',
  wards: 60,
  corridorLength: 80,
  area: 2500,
  floors: 3,
  connectedClients: 600,
  broadband: 2000,
  maxBandwidthPerLine: 1000,
};

describe('the coverage model', () => {
  it('gives the radius and cell of the worked examples', () => {
    expect(coverageRadius(3.5, 3)).toBeCloseTo(16.81, 2);
    expect(cellArea(coverageRadius(3.5, 3))).toBeCloseTo(734, 0);
    expect(coverageRadius(4, 3)).toBeCloseTo(11.72, 2);
    expect(cellArea(coverageRadius(4, 3))).toBeCloseTo(356.6, 1);
    // Higher mounting shrinks the floor radius.
    expect(coverageRadius(4, 8)).toBeLessThan(coverageRadius(4, 3));
  });
});

describe('a 30-classroom school', () => {
  it('puts one AP in every classroom: the rule outweighs capacity and coverage', () => {
    const r = run(SCHOOL);
    // clients 30 × 40 = 1,200; demand × 2 Mbps = 2,400; capacity max(⌈2400/583.5⌉ = 5, ⌈1200/256⌉ = 5) = 5;
    // coverage 3 × ⌈3000/734⌉ = 3 × 5 = 15; rule 30 → 30 APs.
    expect(r.clients).toBe(1200);
    expect(r.demandMbps).toBe(2400);
    // access max(⌈30/24⌉ = 2, one per floor 3) = 3; core ⌈3/27⌉ = 1; one gateway for ⌈1000/500⌉ = 2 lines.
    expect(quantities(r)).toEqual({ ap: 30, access_switch: 3, core_switch: 1, gateway: 1 });
    const steps = Object.fromEntries(r.steps.map((s) => [s.label, s]));
    expect(steps['APs for capacity'].value).toBe('5');
    expect(steps['APs for coverage'].value).toBe('15');
    expect(steps['APs for the scenario rules'].reason).toBe('30 classrooms × 1');
    expect(steps.Gateway.reason).toContain('= 2 lines');
    for (const line of r.lines) expect(line.reason).not.toBe('');
  });
});

describe('a 120-room hotel', () => {
  it('puts an AP in each room, six access switches for six floors and one core', () => {
    const r = run(HOTEL);
    // clients 120 × 3 = 360, demand × 4 = 1,440 Mbps → capacity 3; rule 120 in-room APs.
    expect(r.clients).toBe(360);
    expect(r.demandMbps).toBe(1440);
    // access max(⌈120/24⌉ = 5, 6 floors) = 6; core ⌈6/27⌉ = 1.
    expect(quantities(r)).toEqual({ ap: 120, access_switch: 6, core_switch: 1, gateway: 1 });
    expect(r.advice.join(' ')).toContain('inside each room');
  });

  it('covers the rooms from a 60 m corridor when one is given', () => {
    // 6 floors × ⌈60 / 20.3⌉ = 6 × 3 = 18 corridor APs; capacity 3 → 18 APs; access max(1, 6) = 6.
    const r = run({ ...HOTEL, corridorLength: 60 });
    expect(quantities(r)).toEqual({ ap: 18, access_switch: 6, core_switch: 1, gateway: 1 });
    expect(r.advice.join(' ')).toContain('corridor APs');
  });

  it('powers Wi-Fi 6 APs (802.3at, 30 W) at 12 per 24-port switch', () => {
    // ⌊370 / 30⌋ = 12 per switch → ⌈120/12⌉ = 10 access switches.
    const r = run({ ...HOTEL, apModel: 'BA-W3000X' });
    expect(quantities(r).access_switch).toBe(10);
  });
});

describe('a 3-floor hospital', () => {
  it('adds corridor APs to one AP per ward', () => {
    const r = run(HOSPITAL);
    // rule 60 wards + 3 × ⌈80/20.3⌉ = 60 + 12 = 72; coverage 3 × ⌈2500/356.6⌉ = 24; capacity
    // max(⌈1800/583.5⌉ = 4, ⌈600/256⌉ = 3) = 4 → 72; access max(⌈72/24⌉ = 3, 3) = 3; core 1; 2 lines.
    expect(r.clients).toBe(600);
    expect(r.demandMbps).toBe(1800);
    expect(quantities(r)).toEqual({ ap: 72, access_switch: 3, core_switch: 1, gateway: 1 });
  });

  it('keeps the core off a one-switch plan', () => {
    const r = run({ scenario: 'restaurant', connectedClients: 40, area: 200 });
    // capacity ⌈80/583.5⌉ = 1, coverage (n = 3: reach 27.2 m) 1 → 1 AP, 1 access switch, no core.
    expect(quantities(r)).toEqual({ ap: 1, access_switch: 1, gateway: 1 });
  });
});

describe('edited quantities', () => {
  it('marks an edited line with the recommendation', () => {
    const r = run({ ...HOTEL, overrides: { aps: 130 } });
    const ap = r.lines.find((l) => l.role === 'ap')!;
    expect(ap).toMatchObject({ quantity: 130, recommended: 120 });
    expect(ap.remark).toContain('edited (recommended 120)');
  });

  it('accepts more access switches once the core is edited first', () => {
    const r = run({ ...HOTEL, overrides: { coreSwitches: 2, accessSwitches: 40 } });
    expect(quantities(r)).toMatchObject({ access_switch: 40, core_switch: 2 });
  });
});

describe('every refusal', () => {
  it('5048 incorrect client count, broadband or bandwidth', () => {
    expect(refusal({ ...HOTEL, clientsPerRoom: 0 }).code).toBe(5048);
    expect(refusal({ ...HOTEL, maxBandwidthPerLine: 600 }).message).toContain('bandwidth');
    for (const bad of [{ broadband: 0 }, { maxBandwidthPerLine: -5 }, { connectedClients: 100_001 }]) {
      const parsed = SolutionInput.safeParse({ ...HOTEL, ...MODELS, ...bad });
      expect(parsed.success).toBe(false);
      expect((parsed.error!.issues[0] as { params?: { code?: number } }).params?.code).toBe(5048);
    }
  });

  it('5049 edit the core switch first, then the access switch', () => {
    // One core uplinks 27 access switches: 30 without editing the core first is refused.
    const r = refusal({ ...HOTEL, overrides: { accessSwitches: 30 } });
    expect(r.code).toBe(5049);
    expect(r.message).toContain('Edit the core switch first');
    // A one-switch plan has no core: a second access switch needs the core edited first.
    expect(
      refusal({ scenario: 'restaurant', connectedClients: 40, overrides: { accessSwitches: 2, aps: 4 } })
        .code,
    ).toBe(5049);
  });

  it('5050 the switches outnumber the APs', () => {
    expect(refusal({ ...HOTEL, overrides: { aps: 5 } }).code).toBe(5050);
  });

  it('5051 device type not selected', () => {
    expect(refusal({ ...HOTEL, apModel: '' }).code).toBe(5051);
    expect(refusal({ ...HOTEL, gatewayModel: '' }).code).toBe(5051);
    expect(refusal({ ...HOTEL, accessSwitchModel: '' }).code).toBe(5051);
    // The core is needed (6 access switches) and not chosen.
    expect(refusal({ ...HOTEL, coreSwitchModel: '' }).code).toBe(5051);
  });

  it('5052 no matching plan', () => {
    // A switch without PoE cannot power APs.
    expect(refusal({ ...HOTEL, accessSwitchModel: 'BS-S1016' }).message).toContain('no PoE');
    // BG-R1200 has one WAN port: two lines do not fit.
    expect(refusal({ ...HOTEL, gatewayModel: 'BG-R1200' }).message).toContain('WAN ports');
    // Broadband past the gateway's throughput, clients past its rating.
    expect(
      refusal({ ...HOTEL, gatewayModel: 'BG-R1200', broadband: 2000, maxBandwidthPerLine: 2000 }).code,
    ).toBe(5052);
    expect(refusal({ ...HOTEL, connectedClients: 2000 }).message).toContain('clients exceed');
    // A model that is not an AP.
    expect(refusal({ ...HOTEL, apModel: 'BS-S2024P' }).code).toBe(5052);
  });

  it('5400 past the caps of SPEC.md §9', () => {
    expect(refusal({ ...HOTEL, rooms: 1000, clientsPerRoom: 1 }).message).toContain('at most 999 APs');
    expect(refusal({ ...HOTEL, overrides: { coreSwitches: 4, accessSwitches: 100 } }).message).toContain(
      'at most 99 access switches',
    );
    expect(refusal({ ...HOTEL, overrides: { coreSwitches: 100 } }).message).toContain(
      'at most 99 core switches',
    );
    expect(refusal({ ...HOTEL, rooms: 1000 }).code).toBe(5400);
  });
});
