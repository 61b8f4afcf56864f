import { describe, expect, it } from 'vitest';
import {
  validateAccountPassword,
  validateEmail,
  validateEmailCode,
  validatePasswordConfirmation,
  validateSmsCode,
} from './account.ts';
import type { Check } from './result.ts';

const code = (c: Check) => c?.code ?? null;

describe('validateAccountPassword (6-32)', () => {
  it.each([
    ['', 6],
    ['12345', 6],
    ['123456', null],
    ['1234567', null],
    ['x'.repeat(31), null],
    ['x'.repeat(32), null],
    ['x'.repeat(33), 6],
  ])('%j → %s', (value, expected) => expect(code(validateAccountPassword(value))).toBe(expected));
});

describe('confirmation', () => {
  it('must match', () => {
    expect(validatePasswordConfirmation('abcdef', 'abcdef')).toBeNull();
    expect(validatePasswordConfirmation('abcdef', 'abcdeg')).toEqual({
      code: 5039,
      message: 'Inconsistent passwords',
    });
  });
});

describe('codes', () => {
  it.each([
    ['12345', 11],
    ['123456', null],
    ['1234567', 11],
    ['12345a', 11],
  ])('email code %j → %s', (value, expected) => expect(code(validateEmailCode(value))).toBe(expected));
  it.each([
    ['123', 11],
    ['1234', null],
    ['12345', 11],
    ['12a4', 11],
  ])('SMS code %j → %s', (value, expected) => expect(code(validateSmsCode(value))).toBe(expected));
});

describe('validateEmail', () => {
  it.each([
    ['', 4],
    ['a@b.co', null],
    ['a@b', 16],
    ['a b@c.d', 16],
    [`${'a'.repeat(245)}@example.com`, 16],
  ])('%j → %s', (value, expected) => expect(code(validateEmail(value))).toBe(expected));
});
