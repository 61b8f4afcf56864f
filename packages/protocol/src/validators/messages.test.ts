import { describe, expect, it } from 'vitest';
import {
  asciiMessage,
  byteLength,
  charLength,
  hexMessage,
  integerMessage,
  isHex,
  isPrintableAscii,
  lengthMessage,
  rangeMessage,
  toInteger,
} from './messages.ts';
import { validateIntegerInRange } from './numbers.ts';

describe('range messages', () => {
  it.each([
    [lengthMessage('Name', 1, 16), 'Name must be 1 to 16 characters'],
    [lengthMessage('SSID', 1, 32, 'bytes'), 'SSID must be 1 to 32 bytes'],
    [lengthMessage('Code', 6, 6), 'Code must be exactly 6 characters'],
    [lengthMessage('Subtitle', 0, 30), 'Subtitle must be at most 30 characters'],
    [rangeMessage('Port', 1, 65535), 'Port must be between 1 and 65535'],
    [integerMessage('Port'), 'Port must be an integer'],
    [asciiMessage('Name'), 'Name must contain printable ASCII characters only'],
    [hexMessage('Key'), 'Key must contain hexadecimal characters (0-9, a-f, A-F) only'],
  ])('%s', (actual, expected) => expect(actual).toBe(expected));
});

describe('helpers', () => {
  it('lengths', () => {
    expect(charLength('a😀')).toBe(2);
    expect(byteLength('a😀')).toBe(5);
  });
  it.each([
    [' ~', true],
    ['\x1f', false],
    ['\x7f', false],
    ['é', false],
  ])('printable ASCII %j → %s', (v, expected) => expect(isPrintableAscii(v)).toBe(expected));
  it.each([
    ['09afAF', true],
    ['g', false],
  ])('hex %j → %s', (v, expected) => expect(isHex(v)).toBe(expected));
  it.each([
    [5, 5],
    [-3, -3],
    ['12', 12],
    ['-3', -3],
    ['+7', 7],
    ['007', 7],
    [1.5, Number.NaN],
    [Number.POSITIVE_INFINITY, Number.NaN],
    [Number.NaN, Number.NaN],
    ['1.5', Number.NaN],
    ['10.0', Number.NaN],
    ['8.5', Number.NaN],
    ['1e3', Number.NaN],
    [' 10', Number.NaN],
    [' 12 ', Number.NaN],
    ['', Number.NaN],
    ['-', Number.NaN],
    ['0x10', Number.NaN],
  ] as [number | string, number][])('toInteger(%j) = %s', (v, n) => expect(toInteger(v)).toBe(n));
  it.each([
    [0, 16],
    [1, null],
    [10, null],
    [11, 16],
    [Number.NaN, 16],
    [Number.POSITIVE_INFINITY, 16],
    [5.5, 16],
    ['5', null],
    ['5.0', 16],
    ['8.5', 16],
    ['1e0', 16],
    [' 5', 16],
    ['', 16],
  ] as [number | string, number | null][])('validateIntegerInRange(%j, 1, 10) → %s', (v, expected) =>
    expect(validateIntegerInRange(v, 1, 10, 'X')?.code ?? null).toBe(expected),
  );
});
