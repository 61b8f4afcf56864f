import { offsetMinutesAt, timeZoneNames, zonedParts } from './timezone.ts';

/** Formatters of SPEC.md §9: byte sizes, rates, durations, GMT offsets, time zones, distances. No I/O, no locale. */

const trim = (n: number, decimals: number): string => {
  const fixed = n.toFixed(decimals);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
};

const BYTE_UNITS = ['B', 'K', 'M', 'G', 'T'] as const;

/** Bytes in binary units: 512 → "512B", 1536 → "1.5K", 1073741824 → "1G". Negative or non-finite → "0B". */
export function formatBytes(bytes: number, decimals = 2): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  // Rounding can reach the next unit (1023.999K → "1024K"): step up once more.
  if (Number(value.toFixed(decimals)) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${trim(value, decimals)}${BYTE_UNITS[unit]}`;
}

const RATE_UNITS = ['bps', 'Kbps', 'Mbps', 'Gbps', 'Tbps'] as const;

/** Bits per second in decimal units: 999 → "999 bps", 1500 → "1.5 Kbps", 2e12 → "2 Tbps". */
export function formatRate(bitsPerSecond: number, decimals = 2): string {
  if (!Number.isFinite(bitsPerSecond) || bitsPerSecond <= 0) return '0 bps';
  let value = bitsPerSecond;
  let unit = 0;
  while (value >= 1000 && unit < RATE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  if (Number(value.toFixed(decimals)) >= 1000 && unit < RATE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${trim(value, decimals)} ${RATE_UNITS[unit]}`;
}

/**
 * Whole seconds as days, hours, minutes and seconds, leaving out zero parts:
 * 183845 → "2d 3h 4m 5s", 3600 → "1h", 0 → "0s". Fractions are dropped; negatives read "0s".
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 1) return '0s';
  let rest = Math.floor(seconds);
  const parts: string[] = [];
  for (const [size, suffix] of [
    [86400, 'd'],
    [3600, 'h'],
    [60, 'm'],
    [1, 's'],
  ] as const) {
    const n = Math.floor(rest / size);
    rest -= n * size;
    if (n > 0) parts.push(`${n}${suffix}`);
  }
  return parts.join(' ');
}

/** Minutes east of GMT as an offset: 480 → "GMT+08:00", -330 → "GMT-05:30", 0 → "GMT+00:00". */
export function formatGmtOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(Math.trunc(minutes));
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `GMT${sign}${hh}:${mm}`;
}

/**
 * SPEC.md §9 "time zone shown with GMT offset": the zone with the offset it has at `at` (now by
 * default), e.g. "(GMT+08:00) Asia/Shanghai", "(GMT+02:00) Europe/Berlin" in summer.
 */
export function formatTimeZone(zone: string, at: Date = new Date()): string {
  return `(${formatGmtOffset(offsetMinutesAt(zone, at))}) ${zone}`;
}

/**
 * An instant as the wall clock of `zone` reads it, "YYYY-MM-DD HH:mm" (with ":ss" when asked).
 * Empty for null or an unreadable value; daylight saving is the zone's own (2026-03-29 01:30Z is
 * "2026-03-29 03:30" in Europe/Berlin, 00:30Z "02:30" — no 02:xx in between).
 */
export function formatDateTimeInZone(
  value: string | Date | null | undefined,
  zone: string,
  options: { seconds?: boolean } = {},
): string {
  if (value === null || value === undefined || value === '') return '';
  const at = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(at.getTime())) return typeof value === 'string' ? value : '';
  const p = zonedParts(at, zone);
  const two = (n: number) => String(n).padStart(2, '0');
  const time = `${two(p.hour)}:${two(p.minute)}${options.seconds ? `:${two(p.second)}` : ''}`;
  return `${p.year}-${two(p.month)}-${two(p.day)} ${time}`;
}

/**
 * The zones a project may pick, west to east by their offset at `at` and then by name, each with its
 * label (formatTimeZone). `current` is kept in the list even when it is an alias (e.g. a migrated
 * "Etc/GMT-8").
 */
export function timeZoneChoices(at: Date = new Date(), current?: string): { value: string; label: string }[] {
  const names = new Set(
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [],
  );
  names.add('UTC');
  if (current && timeZoneNames().has(current)) names.add(current);
  return [...names]
    .map((zone) => ({ zone, offset: offsetMinutesAt(zone, at) }))
    .sort((a, b) => a.offset - b.offset || a.zone.localeCompare(b.zone))
    .map(({ zone, offset }) => ({ value: zone, label: `(${formatGmtOffset(offset)}) ${zone}` }));
}

/** SPEC.md §9 bridge distance in metres or km: 850 → "850 m", 1200 → "1.2 km". */
export function formatDistance(metres: number): string {
  if (!Number.isFinite(metres) || metres <= 0) return '0 m';
  return metres < 1000 ? `${trim(metres, 0)} m` : `${trim(metres / 1000, 2)} km`;
}

/**
 * A caller's value repeated in an answer (an import row's serial number, a field's value): at most
 * `max` characters and "…", so a multi-megabyte cell is not sent back whole.
 */
export function echoPrefix(value: string, max = 64): string {
  if (value.length <= max) return value;
  // Do not cut a surrogate pair in two.
  const end = /[\uD800-\uDBFF]/.test(value[max - 1]) ? max - 1 : max;
  return `${value.slice(0, end)}…`;
}
