import { describe, expect, it } from 'vitest';
import { Cipher, EncryptionMode } from '../enums/wireless.ts';
import type { Check } from './result.ts';
import {
  parseClock,
  type TimePeriod,
  validateAccessThreshold,
  validateBandSsids,
  validateBands,
  validateCipher,
  validateKeyUpdateInterval,
  validateMaxClients,
  validatePolicyCount,
  validateTimerShutdown,
  validateTxPower,
} from './wireless.ts';

const code = (c: Check) => c?.code ?? null;

describe('validateKeyUpdateInterval (0, or 60-99999)', () => {
  it.each([
    [0, null],
    [1, 16],
    [59, 16],
    [60, null],
    [61, null],
    [99998, null],
    [99999, null],
    [100000, 16],
    [-1, 16],
    [60.5, 16],
    ['3600', null],
    ['0', null],
    ['100.0', 16],
    ['8.5', 16],
    ['1e3', 16],
    [' 100', 16],
    ['', 16],
  ] as [number | string, number | null][])('%j → %s', (value, expected) =>
    expect(code(validateKeyUpdateInterval(value))).toBe(expected),
  );
});

describe('validateMaxClients (1-128)', () => {
  it.each([
    [0, 16],
    [1, null],
    [2, null],
    [127, null],
    [128, null],
    [129, 16],
    [1.5, 16],
    ['64', null],
    ['10.0', 16],
    ['8.5', 16],
    ['1e1', 16],
    [' 10', 16],
    ['', 16],
  ] as [number | string, number | null][])('%j → %s', (value, expected) =>
    expect(code(validateMaxClients(value))).toBe(expected),
  );
});

describe('validateTxPower (integer 8-29)', () => {
  it.each([
    [7, 16],
    [8, null],
    [9, null],
    [28, null],
    [29, null],
    [30, 16],
    [8.5, 16],
    ['20', null],
    ['8.0', 16],
    ['10.0', 16],
    ['8.5', 16],
    ['1e1', 16],
    [' 10', 16],
    ['10 ', 16],
    ['', 16],
  ] as [number | string, number | null][])('%j → %s', (value, expected) =>
    expect(code(validateTxPower(value))).toBe(expected),
  );
  it('message', () => expect(validateTxPower(30)?.message).toBe('Transmit power must be between 8 and 29'));
});

describe('validateAccessThreshold (-90..-60, or -100..-60)', () => {
  it.each([
    [-91, -90, 16],
    [-90, -90, null],
    [-89, -90, null],
    [-61, -90, null],
    [-60, -90, null],
    [-59, -90, 16],
    [-75.5, -90, 16],
    [-101, -100, 16],
    [-100, -100, null],
    [-99, -100, null],
    [-60, -100, null],
    [-59, -100, 16],
    ['-75', -90, null],
    ['-75.0', -90, 16],
    ['-75.5', -90, 16],
    ['-7.5e1', -90, 16],
    [' -75', -90, 16],
    ['', -90, 16],
  ] as [number | string, number, number | null][])('%j with min %i → %s', (value, min, expected) =>
    expect(code(validateAccessThreshold(value, min))).toBe(expected),
  );
  it('defaults to -90', () => expect(code(validateAccessThreshold(-95))).toBe(16));
});

describe('validateTimerShutdown', () => {
  const p = (start: string, end: string): TimePeriod => ({ start, end });
  it.each([
    [[], null],
    [[p('08:00', '12:00')], null],
    [[p('08:00', '12:00'), p('12:00', '13:00')], null],
    [[p('08:00', '12:00'), p('11:59', '13:00')], 59],
    [[p('13:00', '14:00'), p('08:00', '13:01')], 59],
    [[p('08:00', '08:00')], 59],
    [[p('08:01', '08:00')], 59],
    [[p('08:00', '08:01')], null],
    [[p('', '08:00')], 59],
    [[p('08:00', '')], 59],
    [[p('8am', '9am')], 59],
    [[p('00:00', '24:00')], null],
    [[p('01:00', '02:00'), p('03:00', '04:00'), p('05:00', '06:00'), p('07:00', '08:00')], null],
    [
      [
        p('01:00', '02:00'),
        p('03:00', '04:00'),
        p('05:00', '06:00'),
        p('07:00', '08:00'),
        p('09:00', '10:00'),
      ],
      59,
    ],
  ] as [TimePeriod[], number | null][])('%j → %s', (periods, expected) =>
    expect(code(validateTimerShutdown(periods))).toBe(expected),
  );
  it('messages', () => {
    expect(validateTimerShutdown([p('08:00', '12:00'), p('09:00', '10:00')])?.message).toBe(
      'Periods cannot overlap',
    );
    expect(validateTimerShutdown([p('', '')])?.message).toBe('A period cannot be empty');
  });
  it.each([
    ['00:00', 0],
    ['23:59', 1439],
    ['24:00', 1440],
    ['24:01', null],
    ['25:00', null],
    ['12:60', null],
    ['7:00', null],
  ])('parseClock(%j) = %s', (text, minutes) => expect(parseClock(text)).toBe(minutes));
});

describe('bands and SSIDs', () => {
  it.each([
    ['Office', 'Office', true, 5009],
    ['Office', 'Office-5G', true, null],
    ['Office', 'Office', false, null],
  ])('%j / %j unified=%s → %s', (a, b, unified, expected) =>
    expect(code(validateBandSsids(a, b, unified))).toBe(expected),
  );
  it.each([
    [[], 16],
    [['2.4G'], null],
    [['2.4G', '5G'], null],
  ] as [string[], number | null][])('bands %j → %s', (bands, expected) =>
    expect(code(validateBands(bands))).toBe(expected),
  );
});

describe('validatePolicyCount (≤ 32, code 40)', () => {
  it.each([
    [0, 1, null],
    [30, 1, null],
    [31, 1, null],
    [32, 1, 40],
    [30, 2, null],
    [30, 3, 40],
  ])('%i existing + %i → %s', (current, adding, expected) =>
    expect(code(validatePolicyCount(current, adding))).toBe(expected),
  );
});

describe('validateCipher', () => {
  it.each([
    [EncryptionMode.NONE, null, null],
    [EncryptionMode.NONE, Cipher.AES, 16],
    [EncryptionMode.WPA_PSK, Cipher.AES, null],
    [EncryptionMode.WPA_PSK, Cipher.TKIP, null],
    [EncryptionMode.WPA_PSK, Cipher.TKIP_AES, 16],
    [EncryptionMode.WPA_PSK, null, 16],
    [EncryptionMode.WPA3_SAE, Cipher.TKIP, 16],
    [EncryptionMode.WPA2_PSK, Cipher.TKIP_AES, null],
  ] as [number, string | null, number | null][])('mode %i cipher %s → %s', (mode, cipher, expected) =>
    expect(code(validateCipher(mode, cipher))).toBe(expected),
  );
});
