import { LIMITS } from '../enums/limits.ts';
import { isCipherAllowed } from '../enums/wireless.ts';
import { Codes } from '../errors.ts';
import { integerMessage, maxCountMessage, rangeMessage, toInteger } from './messages.ts';
import { validateIntegerInRange } from './numbers.ts';
import { type Check, invalid } from './result.ts';

/** SPEC.md §5: key update interval 60-99999 seconds, or 0 for none. */
export function validateKeyUpdateInterval(value: number | string): Check {
  const n = toInteger(value);
  if (!Number.isInteger(n)) return invalid(Codes.FORM_DATA, integerMessage('Key update interval'));
  if (n === 0) return null;
  if (n < LIMITS.KEY_UPDATE_MIN || n > LIMITS.KEY_UPDATE_MAX) {
    return invalid(
      Codes.FORM_DATA,
      `${rangeMessage('Key update interval', LIMITS.KEY_UPDATE_MIN, LIMITS.KEY_UPDATE_MAX)}, or 0 for none`,
    );
  }
  return null;
}

/** SPEC.md §5: max clients 1-128. */
export const validateMaxClients = (value: number | string): Check =>
  validateIntegerInRange(value, LIMITS.MAX_CLIENTS_MIN, LIMITS.MAX_CLIENTS_MAX, 'Max clients');

/** SPEC.md §5: transmit power, integer 8 to 29. */
export const validateTxPower = (value: number | string): Check =>
  validateIntegerInRange(value, LIMITS.TX_POWER_MIN, LIMITS.TX_POWER_MAX, 'Transmit power');

/** SPEC.md §5: access threshold, integer -90 to -60 (pass min -100 for the screens that allow -100 to -60). */
export const validateAccessThreshold = (
  value: number | string,
  min: number = LIMITS.ACCESS_THRESHOLD_MIN,
): Check => validateIntegerInRange(value, min, LIMITS.ACCESS_THRESHOLD_MAX, 'Access threshold');

/** A timer-shutdown period: "HH:MM" start and end on the same day; "" means not filled in. */
export interface TimePeriod {
  start: string;
  end: string;
}

/** "HH:MM" (00:00-23:59, also 24:00 as an end) to minutes; null when malformed. */
export function parseClock(text: string): number | null {
  const m = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(text.trim());
  if (!m) return null;
  const minutes = Number(m[1]) * 60 + Number(m[2]);
  return minutes > 24 * 60 ? null : minutes;
}

/**
 * SPEC.md §5 timer shutdown: at most 4 periods, none empty, each end later than its start, no two
 * overlapping (touching ends are allowed: 08:00-12:00 and 12:00-13:00). A period is when the SSID
 * is off. Every failure is SPEC.md §8's radio time rule (59).
 */
export function validateTimerShutdown(periods: readonly TimePeriod[]): Check {
  const rule = Codes.RADIO_TIME_RULE;
  if (periods.length > LIMITS.TIMER_SHUTDOWN_PERIODS) {
    return invalid(rule, maxCountMessage(LIMITS.TIMER_SHUTDOWN_PERIODS, 'periods'));
  }
  const spans: [number, number][] = [];
  for (const period of periods) {
    if (period.start.trim() === '' || period.end.trim() === '') {
      return invalid(rule, 'A period cannot be empty');
    }
    const start = parseClock(period.start);
    const end = parseClock(period.end);
    if (start === null || end === null) return invalid(rule, 'Enter times as HH:MM');
    if (end <= start) return invalid(rule, 'The end time must be later than the start time');
    spans.push([start, end]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i][0] < spans[i - 1][1]) return invalid(rule, 'Periods cannot overlap');
  }
  return null;
}

/** Whether the minute of the day `minute` (0-1439) falls in one of the periods (start included, end not). */
export function inTimerShutdown(periods: readonly TimePeriod[], minute: number): boolean {
  return periods.some((p) => {
    const start = parseClock(p.start);
    const end = parseClock(p.end);
    return start !== null && end !== null && minute >= start && minute < end;
  });
}

/** SPEC.md §5: when 2.4G and 5G are unified, their names must differ (5009 duplicate SSID). */
export function validateBandSsids(ssid2g: string, ssid5g: string, unified: boolean): Check {
  return unified && ssid2g === ssid5g
    ? invalid(Codes.DUPLICATE_SSID, 'The 2.4G and 5G names must differ')
    : null;
}

/** SPEC.md §5: at least one effective frequency band. */
export const validateBands = (bands: readonly string[]): Check =>
  bands.length >= 1 ? null : invalid(Codes.FORM_DATA, 'Select at least one frequency band');

/** SPEC.md §5: up to 32 wireless policies; `current` policies exist, `adding` more are being created (40). */
export const validatePolicyCount = (current: number, adding = 1): Check =>
  current + adding <= LIMITS.WIRELESS_POLICIES
    ? null
    : invalid(Codes.MAX_WIRELESS, maxCountMessage(LIMITS.WIRELESS_POLICIES, 'wireless policies'));

/** SPEC.md §9: the cipher must be one the encryption mode allows (none takes no cipher). */
export function validateCipher(mode: number, cipher: string | null | undefined): Check {
  if (cipher === null || cipher === undefined || cipher === '') {
    return isCipherAllowed(mode, 'aes') || isCipherAllowed(mode, 'tkip')
      ? invalid(Codes.FORM_DATA, 'Select a cipher')
      : null;
  }
  return isCipherAllowed(mode, cipher)
    ? null
    : invalid(Codes.FORM_DATA, `The cipher ${cipher.toUpperCase()} is not allowed with this encryption mode`);
}
