import { Codes } from './errors.ts';
import { type Check, invalid } from './validators/result.ts';

/**
 * Project time zones (SPEC.md §3, §9): IANA names such as "Asia/Shanghai", so that local times
 * follow daylight saving. Older rows and clients used a fixed offset in minutes east of GMT;
 * `zoneForOffset` turns one into the matching zone (480 → "Etc/GMT-8").
 */

/** SPEC.md §9 "default time zone +8" — China Standard Time, which has no daylight saving. */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

/**
 * Names the runtime's ICU may or may not list: `Intl.supportedValuesOf` gives only canonical names,
 * and which spelling is canonical differs between ICU versions (Node 20 lists "Asia/Calcutta",
 * newer browsers "Asia/Kolkata"). Accepting both keeps a zone picked in a browser valid on the
 * server and the other way round.
 */
const ALIASES = [
  'UTC',
  'Etc/UTC',
  'GMT',
  'Etc/GMT',
  'Asia/Kolkata',
  'Asia/Calcutta',
  'Asia/Kathmandu',
  'Asia/Katmandu',
  'Asia/Ho_Chi_Minh',
  'Asia/Saigon',
  'Asia/Yangon',
  'Asia/Rangoon',
  'Asia/Dhaka',
  'Asia/Dacca',
  'Asia/Thimphu',
  'Asia/Thimbu',
  'Asia/Ulaanbaatar',
  'Asia/Ulan_Bator',
  'Asia/Macau',
  'Asia/Macao',
  'Europe/Kyiv',
  'Europe/Kiev',
  'America/Nuuk',
  'America/Godthab',
  'America/Argentina/Buenos_Aires',
  'America/Buenos_Aires',
  'America/Indiana/Indianapolis',
  'America/Indianapolis',
  'Atlantic/Faroe',
  'Atlantic/Faeroe',
  'Pacific/Kanton',
  'Pacific/Enderbury',
  'Pacific/Chuuk',
  'Pacific/Truk',
  'Pacific/Pohnpei',
  'Pacific/Ponape',
  'Africa/Asmara',
  'Africa/Asmera',
  'US/Eastern',
  'US/Central',
  'US/Mountain',
  'US/Pacific',
  'Asia/Chongqing',
  'Asia/Harbin',
  'PRC',
  // The fixed-offset zones that old offsets are migrated to (docs/decisions/0026).
  ...Array.from({ length: 27 }, (_, i) => i - 12)
    .filter((h) => h !== 0)
    .map((h) => `Etc/GMT${h > 0 ? '-' : '+'}${Math.abs(h)}`),
] as const;

function runtimeKnows(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

let zoneSet: Set<string> | null = null;

/** Every accepted zone name: the runtime's IANA list plus the common aliases it also understands. */
export function timeZoneNames(): ReadonlySet<string> {
  if (!zoneSet) {
    const listed =
      typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [DEFAULT_TIME_ZONE];
    zoneSet = new Set([...listed, ...ALIASES.filter(runtimeKnows)]);
  }
  return zoneSet;
}

export const isTimeZone = (value: string): boolean => timeZoneNames().has(value);

/** The §5-style check of a project's time zone (16 form data). */
export function validateTimeZone(value: string): Check {
  return isTimeZone(value)
    ? null
    : invalid(Codes.FORM_DATA, 'Choose a time zone from the list (an IANA name such as Asia/Shanghai)');
}

/**
 * Old fixed offsets that no Etc/GMT zone covers (those exist for whole hours only), each with a zone
 * that keeps that offset all year.
 */
const FRACTIONAL_ZONES: Record<number, string> = {
  [-570]: 'Pacific/Marquesas',
  [-210]: 'America/St_Johns',
  210: 'Asia/Tehran',
  270: 'Asia/Kabul',
  330: 'Asia/Kolkata',
  345: 'Asia/Kathmandu',
  390: 'Asia/Yangon',
  525: 'Australia/Eucla',
  570: 'Australia/Darwin',
  630: 'Australia/Lord_Howe',
  765: 'Pacific/Chatham',
};

/**
 * The zone of an old fixed offset (minutes east of GMT): whole hours → Etc/GMT∓N (POSIX signs:
 * "Etc/GMT-8" is 8 hours east), the fractional ones of FRACTIONAL_ZONES; null for an offset that
 * no zone has (e.g. +00:15). The migration 0007 uses the same table.
 */
export function zoneForOffset(minutes: number): string | null {
  if (!Number.isInteger(minutes) || minutes < -720 || minutes > 840) return null;
  if (minutes === 0) return 'Etc/GMT';
  if (minutes % 60 === 0) {
    const h = minutes / 60;
    return `Etc/GMT${h > 0 ? '-' : '+'}${Math.abs(h)}`;
  }
  const zone = FRACTIONAL_ZONES[minutes];
  return zone && runtimeKnows(zone) ? zone : null;
}

// ── zone arithmetic ─────────────────────────────────────────────────────────

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(zone: string): Intl.DateTimeFormat {
  let f = partsFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'short',
    });
    partsFormatters.set(zone, f);
  }
  return f;
}

export interface ZonedParts {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 Sunday … 6 Saturday */
  weekday: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The wall-clock reading of `at` in `zone`. */
export function zonedParts(at: Date, zone: string): ZonedParts {
  const out: Record<string, string> = {};
  for (const p of partsFormatter(zone).formatToParts(at)) out[p.type] = p.value;
  return {
    year: Number(out.year),
    month: Number(out.month),
    day: Number(out.day),
    hour: Number(out.hour) % 24,
    minute: Number(out.minute),
    second: Number(out.second),
    weekday: WEEKDAYS.indexOf(out.weekday ?? 'Sun'),
  };
}

/** Minutes east of GMT that `zone` is at the instant `at` (480 for Asia/Shanghai; 60 or 120 for Europe/Berlin). */
export function offsetMinutesAt(zone: string, at: Date): number {
  const p = zonedParts(at, zone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/**
 * The instant at which the wall clock in `zone` reads the given local date and time. A time that
 * the clocks skip (02:30 when they spring forward) is taken after the gap (03:30), a time they pass
 * twice (02:30 when they fall back) at its first occurrence — Temporal's "compatible" choice.
 */
export function zonedTimeToUtc(
  zone: string,
  local: { year: number; month: number; day: number; hour: number; minute: number },
): Date {
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute);
  // The offsets a day either side bracket any transition near this time.
  const before = offsetMinutesAt(zone, new Date(wall - 86_400_000));
  const after = offsetMinutesAt(zone, new Date(wall + 86_400_000));
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset * 60_000)
    .filter((t) => offsetMinutesAt(zone, new Date(t)) * 60_000 === wall - t)
    .sort((a, b) => a - b);
  if (candidates.length > 0) return new Date(candidates[0]!);
  // In a gap: read the wall time with the offset from before the change, which lands after it.
  return new Date(wall - before * 60_000);
}
