import { occupiedChannels, RF_PLAN } from '@beacon/protocol';

/**
 * How much two radios interfere by their channels, and the co-channel interference score of a set
 * of scans (docs/decisions/0048). Pure: the planner (plan.ts), the run records (service.ts) and
 * bench/rf use the same figures.
 */

/** A radio's place in the spectrum: its primary channel and width. */
export interface Tuning {
  channel: number;
  width: number;
}

/**
 * Interference weight of 2.4 GHz channels 0, 1, 2, 3 and 4 apart. hostapd's ACS weighs the adjacent
 * channel 0.85 and the next 0.55 (acs.c ACS_ADJ_WEIGHT, ACS_NEXT_ADJ_WEIGHT); 3 and 4 apart the
 * 22 MHz spectral masks still touch, weighed here 0.25 and 0.05; 5 apart (1 and 6) they do not.
 */
export const ADJACENT_24 = [1, 0.85, 0.55, 0.25, 0.05] as const;

const is24 = (channel: number) => channel <= 14;

/** The 20 MHz channels a tuning occupies (2.4 GHz 40 MHz: HT40+, the primary to four above). */
function occupied(t: Tuning): number[] {
  if (is24(t.channel)) {
    return t.width >= 40 ? [0, 1, 2, 3, 4].map((d) => t.channel + d) : [t.channel];
  }
  // 5 GHz: the 40 and 80 MHz blocks of IEEE 802.11 Annex E (a width no block has: its primary only).
  return occupiedChannels('5G', t.channel, t.width) ?? [t.channel];
}

const WIDTHS = [20, 40, 80, 160];
const SLOTS = 200 * WIDTHS.length;
/** Overlap of every pair of tunings met so far (NaN: not computed yet). */
const matrix = new Float64Array(SLOTS * SLOTS).fill(Number.NaN);

/** A small integer for a tuning, for the planner's inner loops (overlapOf). */
export function tuningId(t: Tuning): number {
  const w = WIDTHS.indexOf(t.width);
  return Math.min(199, Math.max(0, t.channel)) * WIDTHS.length + (w < 0 ? 0 : w);
}

const fromId = (id: number): Tuning => ({
  channel: Math.floor(id / WIDTHS.length),
  width: WIDTHS[id % WIDTHS.length]!,
});

/** overlap() by tuning ids (tuningId), from a table filled as pairs are met. */
export function overlapOf(a: number, b: number): number {
  const i = a * SLOTS + b;
  let v = matrix[i]!;
  if (Number.isNaN(v)) {
    v = overlap(fromId(a), fromId(b));
    matrix[i] = v;
  }
  return v;
}

/**
 * Share of interference between two tunings, 0 (apart) to 1 (same channel): on 2.4 GHz by how far
 * apart their nearest channels are (ADJACENT_24); on 5 GHz the share of the narrower one's 20 MHz
 * channels that the other occupies too; 2.4 and 5 GHz never interfere.
 */
export function overlap(a: Tuning, b: Tuning): number {
  if (is24(a.channel) !== is24(b.channel)) return 0;
  const oa = occupied(a);
  const ob = occupied(b);
  if (is24(a.channel)) {
    let d = Number.POSITIVE_INFINITY;
    for (const x of oa) for (const y of ob) d = Math.min(d, Math.abs(x - y));
    return ADJACENT_24[d] ?? 0;
  }
  const common = oa.filter((c) => ob.includes(c)).length;
  return common / Math.min(oa.length, ob.length);
}

/** Co-channel: the two share a 20 MHz channel (on 2.4 GHz: none of theirs is even one apart). */
export function isCoChannel(a: Tuning, b: Tuning): boolean {
  const o = overlap(a, b);
  return is24(a.channel) ? o >= 1 : o > 0;
}

/**
 * A signal as a share of one at the CCA threshold (−82 dBm): a neighbour at −82 dBm counts 1, at
 * −72 dBm 10, at −92 dBm 0.1. Interference adds up in power, so the score is linear in milliwatts.
 */
export const units = (dbm: number): number => 10 ** ((dbm - RF_PLAN.CCA_THRESHOLD) / 10);

/** Back from units to dBm. */
export const unitsToDbm = (u: number): number =>
  u > 0 ? RF_PLAN.CCA_THRESHOLD + 10 * Math.log10(u) : Number.NEGATIVE_INFINITY;

/** What one radio reports of its scan. */
export interface Scan extends Tuning {
  neighbours: readonly (Tuning & { rssi: number })[];
}

/**
 * The co-channel interference score of one radio: the neighbours it hears, each weighed by how
 * much its channel overlaps (overlap) and how loud it is (units).
 */
export function radioScore(scan: Scan): number {
  let sum = 0;
  for (const n of scan.neighbours) {
    if (n.rssi < RF_PLAN.SENSITIVITY) continue;
    const o = overlapOf(tuningId(scan), tuningId(n));
    if (o > 0) sum += o * units(n.rssi);
  }
  return sum;
}

/** The score of a network: the sum over its radios (lower is better). */
export const networkScore = (scans: readonly Scan[]): number => scans.reduce((a, s) => a + radioScore(s), 0);

/** Neighbours one radio hears at or above the CCA threshold on a channel it shares. */
export const coChannelCount = (scan: Scan): number =>
  scan.neighbours.filter((n) => n.rssi >= RF_PLAN.CCA_THRESHOLD && isCoChannel(scan, n)).length;

/** The loudest neighbour on a channel it shares (dBm), or null. */
export function strongestCoChannel(scan: Scan): number | null {
  let best: number | null = null;
  for (const n of scan.neighbours)
    if (isCoChannel(scan, n) && (best === null || n.rssi > best)) best = n.rssi;
  return best;
}
