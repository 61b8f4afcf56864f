import { Codes } from '../errors.ts';
import { type Check, invalid } from '../validators/result.ts';
import { isCountryCode } from './countries.ts';
import { LIMITS } from './limits.ts';
import { FrequencyBand } from './wireless.ts';

/**
 * Radio rules per country or region (SPEC.md §4 "country or region change", §5 transmit power):
 * which channels each band may use and the highest transmit power on them, and the channel widths
 * and bonded blocks of 802.11n/ac (docs/decisions/0048). The figures follow the regulators' tables
 * (FCC 47 CFR 15.247/15.407, ETSI EN 300 328 / EN 301 893, MIIT 2002-353 and 2012-620, MIC Japan,
 * …) rounded to the configurable range 8–29 dBm; DFS channels are allowed where the regulator
 * allows them (the simulator has no radar).
 */

/** Channel widths a radio may use (MHz). 2.4 GHz: 20 or 40; 5 GHz: 20, 40 or 80. */
export const CHANNEL_WIDTHS = [20, 40, 80] as const;
export type ChannelWidth = (typeof CHANNEL_WIDTHS)[number];

export const is24 = (band: string): boolean => band === FrequencyBand.B2G4;

/** Widths a band supports. */
export const bandWidths = (band: string): readonly ChannelWidth[] => (is24(band) ? [20, 40] : [20, 40, 80]);

/** Default width of a radio when its configuration names none. */
export const defaultWidth = (band: string): ChannelWidth => (is24(band) ? 20 : 40);

/** Default transmit power (dBm) of a radio when its configuration names none. */
export const DEFAULT_TX_POWER = 20;

/** Centre frequency (MHz) of a 20 MHz channel. */
export function channelFrequency(channel: number): number {
  if (channel === 14) return 2484;
  return channel <= 14 ? 2407 + 5 * channel : 5000 + 5 * channel;
}

/** The 5 GHz bonded blocks (IEEE 802.11 Annex E): every 20 MHz channel of each 40 and 80 MHz block. */
export const BLOCKS_40: readonly (readonly number[])[] = [
  [36, 40],
  [44, 48],
  [52, 56],
  [60, 64],
  [100, 104],
  [108, 112],
  [116, 120],
  [124, 128],
  [132, 136],
  [140, 144],
  [149, 153],
  [157, 161],
];
export const BLOCKS_80: readonly (readonly number[])[] = [
  [36, 40, 44, 48],
  [52, 56, 60, 64],
  [100, 104, 108, 112],
  [116, 120, 124, 128],
  [132, 136, 140, 144],
  [149, 153, 157, 161],
];

/**
 * The 20 MHz channels a radio on `channel` with `width` occupies (its primary first), or null when
 * the combination does not exist (e.g. 165 at 40 MHz). 2.4 GHz at 40 MHz is HT40+: the primary and
 * the channel four above.
 */
export function occupiedChannels(band: string, channel: number, width: number): number[] | null {
  if (width === 20) return [channel];
  if (is24(band)) return width === 40 ? [channel, channel + 4] : null;
  const blocks = width === 40 ? BLOCKS_40 : width === 80 ? BLOCKS_80 : [];
  const block = blocks.find((b) => b.includes(channel));
  return block ? [channel, ...block.filter((c) => c !== channel)] : null;
}

/** The span [low, high] in MHz a radio occupies, or null (see occupiedChannels). */
export function channelSpan(band: string, channel: number, width: number): [number, number] | null {
  const chans = occupiedChannels(band, channel, width);
  if (!chans) return null;
  const freqs = chans.map(channelFrequency);
  return [Math.min(...freqs) - 10, Math.max(...freqs) + 10];
}

/** A group of channels with one power limit. */
export interface ChannelGroup {
  channels: readonly number[];
  /** Highest transmit power in dBm (within 8–29). */
  maxPower: number;
}

export interface RegulatoryDomain {
  id: string;
  name: string;
  b24: readonly ChannelGroup[];
  b5: readonly ChannelGroup[];
}

const range = (from: number, to: number, step = 1): number[] => {
  const out: number[] = [];
  for (let c = from; c <= to; c += step) out.push(c);
  return out;
};
const U1 = range(36, 48, 4);
const U2 = range(52, 64, 4);
const U2C = range(100, 140, 4);
const U2C144 = range(100, 144, 4);
const U3 = range(149, 165, 4);

/** The regulators' tables, by domain. */
export const REGULATORY_DOMAINS: Readonly<Record<string, RegulatoryDomain>> = {
  FCC: {
    id: 'FCC',
    name: 'FCC (Americas)',
    b24: [{ channels: range(1, 11), maxPower: 29 }],
    b5: [
      { channels: U1, maxPower: 29 },
      { channels: U2, maxPower: 24 },
      { channels: U2C144, maxPower: 24 },
      { channels: U3, maxPower: 29 },
    ],
  },
  ETSI: {
    id: 'ETSI',
    name: 'ETSI (Europe)',
    b24: [{ channels: range(1, 13), maxPower: 20 }],
    b5: [
      { channels: U1, maxPower: 23 },
      { channels: U2, maxPower: 23 },
      { channels: U2C, maxPower: 29 },
    ],
  },
  CN: {
    id: 'CN',
    name: 'China',
    b24: [{ channels: range(1, 13), maxPower: 20 }],
    b5: [
      { channels: U1, maxPower: 23 },
      { channels: U2, maxPower: 23 },
      { channels: U3, maxPower: 29 },
    ],
  },
  JP: {
    id: 'JP',
    name: 'Japan',
    b24: [{ channels: range(1, 13), maxPower: 20 }],
    b5: [
      { channels: U1, maxPower: 23 },
      { channels: U2, maxPower: 23 },
      { channels: U2C144, maxPower: 29 },
    ],
  },
  KR: {
    id: 'KR',
    name: 'Korea',
    b24: [{ channels: range(1, 13), maxPower: 23 }],
    b5: [
      { channels: U1, maxPower: 23 },
      { channels: U2, maxPower: 23 },
      { channels: U2C144, maxPower: 23 },
      { channels: U3, maxPower: 23 },
    ],
  },
  IN: {
    id: 'IN',
    name: 'India',
    b24: [{ channels: range(1, 13), maxPower: 29 }],
    b5: [
      { channels: U1, maxPower: 23 },
      { channels: U2, maxPower: 23 },
      { channels: U3, maxPower: 29 },
    ],
  },
  AU: {
    id: 'AU',
    name: 'Australia and New Zealand',
    b24: [{ channels: range(1, 13), maxPower: 29 }],
    b5: [
      { channels: U1, maxPower: 23 },
      { channels: U2, maxPower: 23 },
      { channels: U2C144, maxPower: 29 },
      { channels: U3, maxPower: 29 },
    ],
  },
  RU: {
    id: 'RU',
    name: 'Russia',
    b24: [{ channels: range(1, 13), maxPower: 20 }],
    b5: [
      { channels: U1, maxPower: 23 },
      { channels: U2, maxPower: 23 },
      { channels: U3, maxPower: 23 },
    ],
  },
  /** Countries without a table of their own: the channels every domain allows, at the lowest power. */
  WORLD: {
    id: 'WORLD',
    name: 'World (common channels)',
    b24: [{ channels: range(1, 11), maxPower: 20 }],
    b5: [{ channels: U1, maxPower: 20 }],
  },
};

const domainMembers: Record<string, string> = {
  FCC: 'US CA MX PR GU VI AS MP UM TW PH CO CL PE EC VE PA CR GT HN SV NI DO BR AR UY PY BO',
  ETSI:
    'AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE GB NO CH IS LI ' +
    'MC SM VA AD AL BA ME MK RS TR UA MD GE AM AZ BY IL ZA EG MA TN AE SA QA KW BH OM JO LB SG MY TH ' +
    'VN ID HK MO',
  CN: 'CN',
  JP: 'JP',
  KR: 'KR',
  IN: 'IN',
  AU: 'AU NZ',
  RU: 'RU KZ KG',
};

/** Country (ISO 3166-1 alpha-2) → its regulatory domain id; unlisted countries use WORLD. */
export const COUNTRY_DOMAINS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(domainMembers).flatMap(([domain, list]) => list.split(' ').map((c) => [c, domain])),
);

/** Default Wi-Fi country of a project (SPEC.md §9: default region 86, China; time zone +8). */
export const DEFAULT_WIFI_COUNTRY = 'CN';

export function domainOf(country: string): RegulatoryDomain {
  return REGULATORY_DOMAINS[COUNTRY_DOMAINS[country] ?? 'WORLD']!;
}

/** Whether a band's radio may use a channel at all (5G-1 is the lower 5 GHz radio, 5G-2 the upper). */
function inBand(band: string, channel: number): boolean {
  if (is24(band)) return channel >= 1 && channel <= 14;
  if (band === FrequencyBand.B5G1) return channel >= 36 && channel <= 64;
  if (band === FrequencyBand.B5G2) return channel >= 100 && channel <= 165;
  return channel >= 36 && channel <= 165;
}

function groupsOf(country: string, band: string): readonly ChannelGroup[] {
  const d = domainOf(country);
  return is24(band) ? d.b24 : d.b5;
}

/** The 20 MHz channels a band's radio may use in a country. */
export function countryChannels(country: string, band: string): number[] {
  return groupsOf(country, band)
    .flatMap((g) => g.channels)
    .filter((c) => inBand(band, c))
    .sort((a, b) => a - b);
}

/** The highest transmit power on a channel in a country; for channel 0 (automatic), the band's highest. */
export function maxPowerFor(country: string, band: string, channel: number): number {
  const groups = groupsOf(country, band).filter((g) =>
    channel === 0 ? g.channels.some((c) => inBand(band, c)) : g.channels.includes(channel),
  );
  const max = groups.length ? Math.max(...groups.map((g) => g.maxPower)) : LIMITS.TX_POWER_MIN;
  return Math.min(max, LIMITS.TX_POWER_MAX);
}

/**
 * The primary channels a radio of `band` may use at `width` in `country`: every 20 MHz channel the
 * width occupies must be allowed there (and exist in the band).
 */
export function allowedChannels(country: string, band: string, width: number): number[] {
  const allowed = new Set(countryChannels(country, band));
  return [...allowed].filter((c) => {
    const occupied = occupiedChannels(band, c, width);
    return occupied?.every((x) => allowed.has(x) && inBand(band, x)) ?? false;
  });
}

/**
 * The channels the automatic plan chooses among: 1, 6 and 11 on 2.4 GHz (the three that do not
 * overlap; SPEC.md names them preferred), every allowed primary channel of the width on 5 GHz.
 */
export function planChannels(country: string, band: string, width: number): number[] {
  const allowed = allowedChannels(country, band, width);
  if (!is24(band)) return allowed;
  const preferred = allowed.filter((c) => c === 1 || c === 6 || c === 11);
  return preferred.length ? preferred : allowed;
}

export interface RadioSetting {
  band: string;
  /** 0 = automatic. */
  channel: number;
  width?: number;
  power: number;
}

/**
 * A radio's channel, width and power against the country's rules: the width exists on the band
 * (5342), the channel is allowed there at that width (5340), the power within 8–29 (16) and the
 * country's limit on that channel (5341).
 */
export function validateRadioSetting(country: string, r: RadioSetting): Check {
  const width = r.width ?? defaultWidth(r.band);
  if (!bandWidths(r.band).includes(width as ChannelWidth)) {
    return invalid(Codes.RF_WIDTH, `The ${r.band} radio cannot use a ${width} MHz channel width`);
  }
  if (r.channel !== 0) {
    if (!countryChannels(country, r.band).includes(r.channel)) {
      return invalid(Codes.RF_CHANNEL, `Channel ${r.channel} is not allowed on ${r.band} in ${country}`);
    }
    if (!allowedChannels(country, r.band, width).includes(r.channel)) {
      return invalid(Codes.RF_WIDTH, `Channel ${r.channel} cannot be used at ${width} MHz in ${country}`);
    }
  }
  if (!Number.isInteger(r.power) || r.power < LIMITS.TX_POWER_MIN || r.power > LIMITS.TX_POWER_MAX) {
    return invalid(
      Codes.FORM_DATA,
      `Transmit power must be an integer from ${LIMITS.TX_POWER_MIN} to ${LIMITS.TX_POWER_MAX}`,
    );
  }
  const max = maxPowerFor(country, r.band, r.channel);
  if (r.power > max) {
    return invalid(
      Codes.RF_POWER,
      `${country} allows at most ${max} dBm on ${r.channel === 0 ? r.band : `channel ${r.channel}`}`,
    );
  }
  return null;
}

/** A Wi-Fi country: an ISO 3166-1 code in force (5270); every one has rules (its domain, or WORLD). */
export const validateWifiCountry = (country: string): Check =>
  isCountryCode(country) ? null : invalid(Codes.COUNTRY_CODE, 'Choose a country by its ISO 3166-1 code');

/**
 * The roaming tuner's load balancing (SPEC.md §8 code 47, terminal number): an AP with this many
 * clients steers new ones to a neighbour; 0 = off, else 1–128 (the clients a band takes).
 */
export function validateLoadBalanceClients(value: number): Check {
  return Number.isInteger(value) && value >= 0 && value <= LIMITS.CLIENTS_PER_BAND
    ? null
    : invalid(
        Codes.TERMINAL_NUMBER,
        `The client number for load balancing must be 0 (off) or from 1 to ${LIMITS.CLIENTS_PER_BAND}`,
      );
}

/** Scheduled optimisation: at least one day (0 Sunday … 6 Saturday) and a time HH:MM (5343). */
export function validateRfSchedule(days: readonly number[], time: string): Check {
  if (days.length === 0 || days.some((d) => !Number.isInteger(d) || d < 0 || d > 6)) {
    return invalid(Codes.RF_SCHEDULE, 'Choose at least one day for scheduled optimisation');
  }
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(time)) {
    return invalid(Codes.RF_SCHEDULE, 'Enter the time of scheduled optimisation as HH:MM');
  }
  return null;
}

/** RF planning constants (docs/decisions/0048). */
export const RF_PLAN = {
  /** Cisco TPC: the third loudest neighbour hears an AP at this level (dBm). */
  TPC_THRESHOLD: -70,
  /** TPC changes power only when the change is at least this many dB. */
  TPC_HYSTERESIS: 3,
  /** Cisco DCA sensitivity: channels change only if the worst AP improves by this many dB. */
  DCA_MARGIN: 5,
  /** A neighbour counts as co-channel when heard at or above the CCA threshold (dBm). */
  CCA_THRESHOLD: -82,
  /** Weakest neighbour a scan reports (dBm). */
  SENSITIVITY: -95,
} as const;
