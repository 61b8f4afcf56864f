/** Formatters of SPEC.md §9: byte sizes, rates, durations, GMT offsets, distances. No I/O, no locale. */

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
