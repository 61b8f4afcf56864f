import { LIMITS } from '../enums/limits.ts';
import { Codes } from '../errors.ts';
import { charLength, lengthMessage, maxCountMessage } from './messages.ts';
import { type Check, invalid } from './result.ts';

/** The earliest moment a company field changed at `lastChange` may change again (one calendar year later). */
export function nextCompanyChangeAt(lastChange: Date): Date {
  const next = new Date(lastChange.getTime());
  next.setUTCFullYear(next.getUTCFullYear() + LIMITS.COMPANY_CHANGE_INTERVAL_YEARS);
  // 29 February + 1 year rolls over to 1 March, which is what we want.
  return next;
}

/**
 * SPEC.md §5: company name (14) and company location (15) can be changed once per year. Never
 * changed (null) → allowed.
 */
export function validateCompanyChange(
  field: 'name' | 'location',
  lastChange: Date | string | null | undefined,
  now: Date = new Date(),
): Check {
  if (lastChange === null || lastChange === undefined) return null;
  const last = typeof lastChange === 'string' ? new Date(lastChange) : lastChange;
  if (Number.isNaN(last.getTime())) return null;
  if (now.getTime() >= nextCompanyChangeAt(last).getTime()) return null;
  return field === 'name'
    ? invalid(Codes.ALTER_NAME, 'The company name can be changed only once per year')
    : invalid(Codes.ALTER_ADDRESS, 'The company location can be changed only once per year');
}

/** SPEC.md §5: at most 20 custom scenarios; `current` exist and `adding` more are being created (5037). */
export const validateCustomScenarioCount = (current: number, adding = 1): Check =>
  current + adding <= LIMITS.CUSTOM_SCENARIOS
    ? null
    : invalid(Codes.SCENARIO_LIMIT, maxCountMessage(LIMITS.CUSTOM_SCENARIOS, 'custom scenarios'));

/** SPEC.md §5: at most 5 countries on the data screen (5045). */
export const validateCountryCount = (countries: readonly string[]): Check =>
  new Set(countries).size <= LIMITS.DATA_SCREEN_COUNTRIES
    ? null
    : invalid(Codes.COUNTRY_LIMIT, maxCountMessage(LIMITS.DATA_SCREEN_COUNTRIES, 'countries'));

/** SPEC.md §5: data screen title, 1 to 18 characters. */
export function validateDataScreenTitle(value: string): Check {
  const n = charLength(value.trim());
  return n >= 1 && n <= LIMITS.DATA_SCREEN_TITLE_MAX
    ? null
    : invalid(Codes.FORM_DATA, lengthMessage('Title', 1, LIMITS.DATA_SCREEN_TITLE_MAX));
}

/** SPEC.md §5: data screen subtitle, at most 30 characters (may be empty). */
export const validateDataScreenSubtitle = (value: string): Check =>
  charLength(value.trim()) <= LIMITS.DATA_SCREEN_SUBTITLE_MAX
    ? null
    : invalid(Codes.FORM_DATA, lengthMessage('Subtitle', 0, LIMITS.DATA_SCREEN_SUBTITLE_MAX));
