import { describe, expect, it } from 'vitest';
import { validateLease, validatePoolName } from './dhcp.ts';
import type { Check } from './result.ts';

const code = (c: Check) => c?.code ?? null;

describe('validatePoolName (1-32 of [A-Za-z0-9_])', () => {
  it.each([
    ['', 16],
    ['a', null],
    ['Pool_1', null],
    ['a'.repeat(31), null],
    ['a'.repeat(32), null],
    ['a'.repeat(33), 16],
    ['pool-1', 16],
    ['pool 1', 16],
    ['池', 16],
  ])('%j → %s', (name, expected) => expect(code(validatePoolName(name))).toBe(expected));
});

describe('validateLease', () => {
  it.each([
    [29, 'custom', 16],
    [30, 'custom', null],
    [31, 'custom', null],
    [10079, 'custom', null],
    [10080, 'custom', null],
    [10081, 'custom', 16],
    [60.5, 'custom', 16],
    [0, 'other', 16],
    [1, 'other', null],
    [2, 'other', null],
    [525599, 'other', null],
    [525600, 'other', null],
    [525601, 'other', 16],
    ['720', 'other', null],
    ['60.0', 'custom', 16],
    ['60.5', 'custom', 16],
    ['1e3', 'custom', 16],
    [' 60', 'custom', 16],
    ['', 'custom', 16],
  ] as [number | string, 'custom' | 'other', number | null][])('%j (%s) → %s', (minutes, kind, expected) =>
    expect(code(validateLease(minutes, kind))).toBe(expected),
  );
  it('defaults to custom with the min-max message', () =>
    expect(validateLease(29)?.message).toBe('Lease (minutes) must be between 30 and 10080'));
});
