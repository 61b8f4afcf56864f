import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, isCountryCode } from '../enums/countries.ts';
import { failureFromZod } from '../validators/zod.ts';
import { HealthLevel, healthLevel, SaveDataScreenBody } from './overview.ts';

const code = (input: unknown) => {
  const r = SaveDataScreenBody.safeParse(input);
  return r.success ? null : failureFromZod(r.error).code;
};

describe('data screen body', () => {
  it('trims, upper-cases and keeps each country once, in order', () => {
    expect(
      SaveDataScreenBody.parse({ title: ' Wall ', subtitle: ' x ', countries: ['de', 'FR', 'DE'] }),
    ).toEqual({
      title: 'Wall',
      subtitle: 'x',
      countries: ['DE', 'FR'],
    });
  });

  it.each([
    [{ title: 'a'.repeat(18), subtitle: 'b'.repeat(30), countries: ['CN', 'US', 'DE', 'FR', 'JP'] }, null],
    [{ title: '😀'.repeat(18), subtitle: '', countries: [] }, null],
    [{ title: 'a'.repeat(19), subtitle: '', countries: [] }, 16],
    [{ title: ' ', subtitle: '', countries: [] }, 16],
    [{ title: 'a', subtitle: 'b'.repeat(31), countries: [] }, 16],
    [{ title: 'a', subtitle: '', countries: ['CN', 'US', 'DE', 'FR', 'JP', 'GB'] }, 5045],
    [{ title: 'a', subtitle: '', countries: ['CN', 'US', 'DE', 'FR', 'JP', 'cn'] }, null],
    [{ title: 'a', subtitle: '', countries: ['XX'] }, 5270],
    [{ title: 'a', subtitle: '', countries: ['EU'] }, 5270],
    [{ title: 'a', subtitle: '', countries: ['Germany'] }, 5270],
    [{ title: 'a', subtitle: '', countries: [7] }, 16],
    [{ title: 'a', subtitle: '' }, 16],
    [{ title: 'a', subtitle: '', countries: [], extra: 1 }, 16],
  ])('%j → %s', (input, expected) => expect(code(input)).toBe(expected));
});

describe('countries and health', () => {
  it('knows the 249 ISO 3166-1 codes in force', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    expect(isCountryCode('DE')).toBe(true);
    expect(isCountryCode('SU')).toBe(false);
    expect(isCountryCode('de')).toBe(false);
  });

  it.each([
    [null, HealthLevel.NONE],
    [100, HealthLevel.GOOD],
    [90, HealthLevel.GOOD],
    [89, HealthLevel.FAIR],
    [60, HealthLevel.FAIR],
    [59, HealthLevel.POOR],
    [0, HealthLevel.POOR],
  ])('health %s → %s', (health, level) => expect(healthLevel(health)).toBe(level));
});
