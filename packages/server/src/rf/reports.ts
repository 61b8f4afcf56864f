import {
  defaultWidth,
  FrequencyBand,
  LIMITS,
  maxPowerFor,
  planChannels,
  type RfRadioState,
} from '@beacon/protocol';
import type { PlanRadio } from './plan.ts';
import { coChannelCount, radioScore, type Scan, strongestCoChannel } from './spectrum.ts';

/**
 * What APs report of their radios (their latest telemetry), read as RF needs it: pure, so the
 * server (members.ts, run.ts) and bench/rf build the planner's input the same way.
 */

/** An AP as far as its reports go: its serial number, bands and latest telemetry. */
export interface ReportingAp {
  row: { sn: string; telemetry: unknown };
  info: { bands: readonly string[] };
}

/** A radio as the device reports it in its latest telemetry (checked field by field: device input). */
export interface ReportedRadio {
  band: FrequencyBand;
  channel: number;
  width: number;
  power: number;
  noise: number | null;
  utilisation: number;
  clients: number;
  neighbours: { bssid: string; sn?: string; channel: number; width: number; rssi: number }[];
}

const BANDS = new Set<string>(Object.values(FrequencyBand));
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function reportedRadios(row: { telemetry: unknown }): ReportedRadio[] {
  const t = row.telemetry as { radios?: unknown } | null;
  if (!t || !Array.isArray(t.radios)) return [];
  const out: ReportedRadio[] = [];
  for (const r of t.radios as Record<string, unknown>[]) {
    if (!r || typeof r.band !== 'string' || !BANDS.has(r.band)) continue;
    const channel = num(r.channel);
    const power = num(r.power);
    if (channel === null || channel === 0 || power === null) continue;
    const band = r.band as FrequencyBand;
    out.push({
      band,
      channel,
      width: num(r.width) ?? defaultWidth(band),
      power,
      noise: num(r.noise),
      utilisation: num(r.utilisation) ?? 0,
      clients: num(r.clients) ?? 0,
      neighbours: (Array.isArray(r.neighbours) ? (r.neighbours as Record<string, unknown>[]) : [])
        .filter((n) => n && num(n.channel) !== null && num(n.rssi) !== null)
        .map((n) => ({
          bssid: String(n.bssid ?? ''),
          ...(typeof n.sn === 'string' ? { sn: n.sn } : {}),
          channel: n.channel as number,
          width: num(n.width) ?? 20,
          rssi: n.rssi as number,
        })),
    });
  }
  return out;
}

/** What a radio reports, as a record: channel, power, loudest co-channel neighbour, noise, counts. */
export function radioState(r: ReportedRadio): RfRadioState {
  const scan: Scan = { channel: r.channel, width: r.width, neighbours: r.neighbours };
  return {
    channel: r.channel,
    width: r.width,
    power: r.power,
    rssi: strongestCoChannel(scan),
    noise: r.noise,
    coChannel: coChannelCount(scan),
    score: Math.round(radioScore(scan) * 100) / 100,
  };
}

/** Which of a member's radios a neighbour heard on `channel` is (5G-1 below 100, 5G-2 above). */
export function bandOnChannel(bands: readonly string[], channel: number): string | null {
  if (channel <= 14) return bands.includes(FrequencyBand.B2G4) ? FrequencyBand.B2G4 : null;
  if (bands.includes(FrequencyBand.B5G)) return FrequencyBand.B5G;
  if (channel < 100 && bands.includes(FrequencyBand.B5G1)) return FrequencyBand.B5G1;
  if (channel >= 100 && bands.includes(FrequencyBand.B5G2)) return FrequencyBand.B5G2;
  return null;
}

/** The radio id of the plan: "SN/band". */
export const idOf = (sn: string, band: string) => `${sn}/${band}`;

/** Builds the planner's input from the APs' latest reports (only online APs that report radios). */
export function planInput(members: readonly ReportingAp[], country: string): PlanRadio[] {
  const bandsOf = new Map(members.map((m) => [m.row.sn, m.info.bands as readonly string[]]));
  const out: PlanRadio[] = [];
  for (const m of members) {
    for (const r of reportedRadios(m.row)) {
      out.push({
        id: idOf(m.row.sn, r.band),
        channel: r.channel,
        width: r.width,
        power: r.power,
        noise: r.noise ?? -95,
        utilisation: r.utilisation,
        clients: r.clients,
        candidates: planChannels(country, r.band, r.width),
        minPower: LIMITS.TX_POWER_MIN,
        maxPower: maxPowerFor(country, r.band, 0),
        limit: (channel) => maxPowerFor(country, r.band, channel),
        neighbours: r.neighbours.map((n) => {
          const band = n.sn && bandsOf.has(n.sn) ? bandOnChannel(bandsOf.get(n.sn)!, n.channel) : null;
          return { id: band ? idOf(n.sn!, band) : null, channel: n.channel, width: n.width, rssi: n.rssi };
        }),
      });
    }
  }
  return out;
}
