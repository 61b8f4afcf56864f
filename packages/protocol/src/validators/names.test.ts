import { describe, expect, it } from 'vitest';
import {
  isReservedPolicyName,
  validateAsciiName,
  validateDeviceName,
  validateName,
  validateProjectName,
  validateRemark,
  validateServerName,
  validateSsid,
  validateUniqueName,
  validateWirelessPolicyName,
} from './names.ts';
import type { Check } from './result.ts';

const code = (c: Check) => c?.code ?? null;

describe('validateName (1-16, no spaces or emoticons)', () => {
  it.each([
    ['', 16],
    ['a', null],
    ['a'.repeat(15), null],
    ['a'.repeat(16), null],
    ['a'.repeat(17), 16],
    ['工程部', null],
    ['a b', 16],
    ['tab\there', 16],
    ['wifi😀', 16],
    ['🇨🇳', 16],
    // SPEC.md §5 forbids emoticons (emoji), not symbols: ©, ®, ™ written as text are allowed;
    // the same characters asked for as emoji (U+FE0F) and every emoji-presentation character are not.
    ['Acme©', null],
    ['Acme®', null],
    ['Brand™', null],
    ['a←b', null],
    ['love❤', null],
    ['love❤️', 16],
    ['Acme©️', 16],
    ['😀', 16],
    ['ok👍🏽', 16],
    ['team👨‍👩‍👧', 16],
    ['key1️⃣', 16],
    ['🏴󠁧󠁢󠁳󠁣󠁴󠁿', 16],
  ])('%j → %s', (value, expected) => expect(code(validateName(value))).toBe(expected));

  it('counts code points and gives the range message', () => {
    expect(validateName('é'.repeat(16))).toBeNull();
    expect(validateName('x'.repeat(17))?.message).toBe('Name must be 1 to 16 characters');
    expect(validateProjectName('')?.message).toBe('Project name must be 1 to 16 characters');
    expect(validateName('a'.repeat(32), 'Nick', 32)).toBeNull();
    expect(code(validateName('a'.repeat(33), 'Nick', 32))).toBe(16);
  });
});

describe('validateAsciiName (1-32 printable ASCII)', () => {
  it.each([
    ['', 16],
    ['a', null],
    ['a'.repeat(31), null],
    ['a'.repeat(32), null],
    ['a'.repeat(33), 16],
    ['with space ~', null],
    ['caf\u00e9', 16],
    ['tab\t', 16],
    ['\x7f', 16],
  ])('%j → %s', (value, expected) => expect(code(validateAsciiName(value))).toBe(expected));
  it('says ASCII', () => expect(validateAsciiName('é')?.message).toMatch(/ASCII/));
});

describe('device name and remark', () => {
  it.each([
    ['', 16],
    ['   ', 16],
    ['x', null],
    ['Lobby AP 1', null],
    ['x'.repeat(32), null],
    ['x'.repeat(33), 16],
    ['Café', 16],
    ['会议室', 16],
    ['tab\there', 16],
  ])('device name %j → %s', (value, expected) => expect(code(validateDeviceName(value))).toBe(expected));
  it('remark cannot be empty', () => {
    expect(validateRemark('')?.message).toBe('Remark cannot be empty');
    expect(validateRemark('ok')).toBeNull();
    expect(validateRemark('Étage 2')?.message).toBe('Remark must contain printable ASCII characters only');
  });
});

describe('validateServerName', () => {
  it.each([
    ['', 16],
    ['cloud.example.com', null],
    ['user@host:8080', null],
    ['a-b_c+d', null],
    ['a b', 16],
    ['a/b', 16],
    ['a#b', 16],
    ['x'.repeat(64), null],
    ['x'.repeat(65), 16],
  ])('%j → %s', (value, expected) => expect(code(validateServerName(value))).toBe(expected));
});

describe('validateSsid (1-32 bytes)', () => {
  it.each([
    ['', 16],
    ['a', null],
    ['a'.repeat(32), null],
    ['a'.repeat(33), 16],
    ['中'.repeat(10), null],
    ['中'.repeat(11), 16],
  ])('%j → %s', (value, expected) => expect(code(validateSsid(value))).toBe(expected));
  it('uses the bytes message', () => expect(validateSsid('')?.message).toBe('SSID must be 1 to 32 bytes'));
});

describe('uniqueness', () => {
  it.each([
    ['route1', [], null],
    ['route1', ['route2'], null],
    ['route1', ['route1'], 5038],
    [' route1 ', ['route1'], 5038],
    ['Route1', ['route1'], null],
  ] as [string, string[], number | null][])('%j among %j → %s', (value, existing, expected) =>
    expect(code(validateUniqueName(value, existing))).toBe(expected),
  );
});

describe('wireless policy names', () => {
  it.each([
    ['app_default_0', true],
    ['app_default_3', true],
    ['APP_DEFAULT_2', true],
    ['app_default_4', false],
    ['app_default_', false],
    ['office', false],
  ])('reserved(%j) = %s', (value, expected) => expect(isReservedPolicyName(value)).toBe(expected));

  it.each([
    ['office', [], null],
    ['app_default_1', [], 5044],
    ['app_default_4', [], null],
    ['office', ['office'], 5038],
    ['', [], 16],
    ['a'.repeat(32), [], null],
    ['a'.repeat(33), [], 16],
  ] as [string, string[], number | null][])('%j → %s', (value, existing, expected) =>
    expect(code(validateWirelessPolicyName(value, existing))).toBe(expected),
  );
});
