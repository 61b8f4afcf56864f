import { describe, expect, it } from 'vitest';
import { EncryptionMode } from '../enums/wireless.ts';
import {
  validateApSelected,
  validateAtLeastTwoDevices,
  validateDeviceNotBusy,
  validateDevicePassword,
  validateDeviceSelected,
  validateRebootDays,
  validateSn,
  validateWifiPassword,
} from './device.ts';
import type { Check } from './result.ts';

const code = (c: Check) => c?.code ?? null;

describe('validateWifiPassword', () => {
  it.each([
    ['', 6],
    ['1234567', 6],
    ['12345678', null],
    ['p'.repeat(62), null],
    ['p'.repeat(63), null],
    ['p'.repeat(64), 6],
    ['a'.repeat(64), null],
    ['0123456789abcdefABCDEF'.padEnd(64, 'f'), null],
    ['g'.repeat(64), 6],
    ['f'.repeat(65), 6],
    ['with space ok', null],
    ['pässwörd', 6],
    ['tab\tpassword', 6],
  ])('%j → %s', (value, expected) => expect(code(validateWifiPassword(value))).toBe(expected));

  it('no password needed with encryption none', () => {
    expect(validateWifiPassword('', EncryptionMode.NONE)).toBeNull();
    expect(code(validateWifiPassword('', EncryptionMode.WPA2_PSK))).toBe(6);
  });
  it('names the hex alternative', () => {
    expect(validateWifiPassword('short')?.message).toBe(
      'Password must be 8 to 63 characters, or 64 hexadecimal characters',
    );
    expect(validateWifiPassword('z'.repeat(64))?.message).toMatch(/hexadecimal/);
  });
});

describe('validateDevicePassword', () => {
  it.each([
    ['', 6],
    ['Abc123!', 6],
    ['Abc1234!', null],
    ['Abcdefgh', 6],
    ['abcdefg1', 6],
    ['abcdef1!', null],
    ['ABCDEF1_', null],
    ['Abcdefg!', null],
    ['abcd!@#$', 6],
    ['Abcd123?', 6],
    ['Abcd 123', 6],
    ['12345678', 6],
    ['Aa1!Aa1!Aa1!Aa1!Aa1!Aa1!Aa1!Aa1!Aa1!', null],
  ])('%j → %s', (value, expected) => expect(code(validateDevicePassword(value))).toBe(expected));

  it.each('!#$%&*+,-.:;=@^_'.split(''))('special %s counts as a class', (ch) => {
    expect(validateDevicePassword(`abcdef1${ch}`)).toBeNull();
  });
});

describe('validateSn (16-32 letters or digits)', () => {
  it.each([
    ['A'.repeat(15), 16],
    ['A'.repeat(16), null],
    ['A1b2C3d4E5f6G7h8', null],
    ['A'.repeat(32), null],
    ['A'.repeat(33), 16],
    ['ABCDEF-123456789', 16],
    ['ABCDEF 123456789', 16],
    ['', 16],
  ])('%j → %s', (value, expected) => expect(code(validateSn(value))).toBe(expected));
});

describe('selection', () => {
  it.each([
    [0, 16, 16, 16],
    [1, null, null, 16],
    [2, null, null, null],
    [10, null, null, null],
  ])('%i selected: device %s, AP %s, two %s', (count, device, ap, two) => {
    expect(code(validateDeviceSelected(count))).toBe(device);
    expect(code(validateApSelected(count))).toBe(ap);
    expect(code(validateAtLeastTwoDevices(count))).toBe(two);
  });
  it('messages', () => {
    expect(validateApSelected(0)?.message).toBe('Select an AP');
    expect(validateAtLeastTwoDevices(1)?.message).toBe('Select at least two devices');
  });
});

describe('validateRebootDays', () => {
  it.each([
    [[], 16],
    [[0], null],
    [[6], null],
    [[0, 1, 2, 3, 4, 5, 6], null],
    [[7], 16],
    [[-1], 16],
    [[1.5], 16],
    [[1, 1], 16],
  ] as [number[], number | null][])('%j → %s', (days, expected) =>
    expect(code(validateRebootDays(days))).toBe(expected),
  );
});

describe('validateDeviceNotBusy', () => {
  it.each([
    [0, null],
    [1, null],
    [3, 5046],
    [8, 5046],
    [9, null],
  ])('status %i → %s', (status, expected) => expect(code(validateDeviceNotBusy(status))).toBe(expected));
});
