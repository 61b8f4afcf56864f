import { describe, expect, it } from 'vitest';
import {
  nextCompanyChangeAt,
  validateCompanyChange,
  validateCountryCount,
  validateCustomScenarioCount,
  validateDataScreenSubtitle,
  validateDataScreenTitle,
} from './display.ts';
import type { Check } from './result.ts';

const code = (c: Check) => c?.code ?? null;

describe('validateCompanyChange (once per year)', () => {
  const last = new Date('2024-03-10T12:00:00Z');
  it.each([
    [null, '2024-03-10T12:00:00Z', null],
    [last, '2024-03-10T12:00:01Z', 14],
    [last, '2025-03-10T11:59:59Z', 14],
    [last, '2025-03-10T12:00:00Z', null],
    [last, '2025-03-10T12:00:01Z', null],
    ['2024-03-10T12:00:00Z', '2025-01-01T00:00:00Z', 14],
  ] as [Date | string | null, string, number | null][])(
    'name, last %s, now %s → %s',
    (lastChange, now, expected) =>
      expect(code(validateCompanyChange('name', lastChange, new Date(now)))).toBe(expected),
  );
  it('location answers 15', () => {
    expect(code(validateCompanyChange('location', last, new Date('2024-06-01T00:00:00Z')))).toBe(15);
    expect(validateCompanyChange('location', undefined, new Date())).toBeNull();
  });
  it('29 February moves to 1 March', () =>
    expect(nextCompanyChangeAt(new Date('2024-02-29T00:00:00Z')).toISOString()).toBe(
      '2025-03-01T00:00:00.000Z',
    ));
});

describe('counts', () => {
  it.each([
    [0, null],
    [19, null],
    [20, 5037],
    [25, 5037],
  ])('custom scenarios: %i existing → %s', (current, expected) =>
    expect(code(validateCustomScenarioCount(current))).toBe(expected),
  );
  it.each([
    [[], null],
    [['CN', 'US', 'DE', 'FR'], null],
    [['CN', 'US', 'DE', 'FR', 'JP'], null],
    [['CN', 'US', 'DE', 'FR', 'JP', 'GB'], 5045],
    [['CN', 'US', 'DE', 'FR', 'JP', 'CN'], null],
  ] as [string[], number | null][])('countries %j → %s', (countries, expected) =>
    expect(code(validateCountryCount(countries))).toBe(expected),
  );
});

describe('data screen texts', () => {
  it.each([
    ['', 16],
    ['a', null],
    ['a'.repeat(17), null],
    ['a'.repeat(18), null],
    ['a'.repeat(19), 16],
    ['数'.repeat(18), null],
  ])('title %j → %s', (value, expected) => expect(code(validateDataScreenTitle(value))).toBe(expected));
  it.each([
    ['', null],
    ['a'.repeat(29), null],
    ['a'.repeat(30), null],
    ['a'.repeat(31), 16],
  ])('subtitle %j → %s', (value, expected) => expect(code(validateDataScreenSubtitle(value))).toBe(expected));
  it('messages', () => {
    expect(validateDataScreenTitle('a'.repeat(19))?.message).toBe('Title must be 1 to 18 characters');
    expect(validateDataScreenSubtitle('a'.repeat(31))?.message).toBe(
      'Subtitle must be at most 30 characters',
    );
  });
});
