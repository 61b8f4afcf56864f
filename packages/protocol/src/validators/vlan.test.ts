import { describe, expect, it } from 'vitest';
import type { Check } from './result.ts';
import {
  parseVlanList,
  VLAN_RANGES,
  validateLanPortUntagged,
  validateStrippedVsAllowed,
  validateTaggedNotPvid,
  validateTrunkPortSelected,
  validateVlanId,
  validateVlanIdUnique,
  validateVlanList,
  validateVlanName,
} from './vlan.ts';

const code = (c: Check) => c?.code ?? null;

describe('validateVlanId', () => {
  it.each([
    [9, null, 16],
    [10, null, null],
    [11, null, null],
    [4093, null, null],
    [4094, null, null],
    [4095, null, 16],
    [1.5, null, 112],
    ['abc', null, 112],
    ['', null, 112],
    ['100', null, null],
    ['+100', null, null],
    // SPEC.md §5: integer only (112); a decimal, exponent or padded string is not an integer.
    ['10.0', null, 112],
    ['8.5', null, 112],
    ['100.5', null, 112],
    ['1e3', null, 112],
    [' 10', null, 112],
    ['10 ', null, 112],
    ['0x10', null, 112],
    [Number.POSITIVE_INFINITY, null, 112],
    [Number.NaN, null, 112],
    [0, VLAN_RANGES.WIRELESS_POLICY, 16],
    [1, VLAN_RANGES.WIRELESS_POLICY, null],
    [4094, VLAN_RANGES.WIRELESS_POLICY, null],
    [4095, VLAN_RANGES.WIRELESS_POLICY, 16],
    [1, VLAN_RANGES.VARIANT, 16],
    [2, VLAN_RANGES.VARIANT, null],
    [1, VLAN_RANGES.TAGGED, null],
    [0, VLAN_RANGES.TAGGED, 16],
    [99, { min: 100, max: 200 }, 16],
    [100, { min: 100, max: 200 }, null],
    [200, { min: 100, max: 200 }, null],
    [201, { min: 100, max: 200 }, 16],
  ] as [number | string, { min: number; max: number } | null, number | null][])(
    '%j in %o → %s',
    (value, range, expected) => expect(code(validateVlanId(value, range ?? undefined))).toBe(expected),
  );
  it('messages', () => {
    expect(validateVlanId(9)?.message).toBe('VLAN ID must be between 10 and 4094');
    expect(validateVlanId(1.5)?.message).toBe('VLAN ID must be an integer');
  });
  it('unique id (111)', () => {
    expect(code(validateVlanIdUnique(10, [10, 20]))).toBe(111);
    expect(validateVlanIdUnique(11, [10, 20])).toBeNull();
  });
});

describe('parseVlanList', () => {
  it('parses commas and ranges, merges and sorts', () => {
    expect(parseVlanList('10-13')).toEqual([10, 11, 12, 13]);
    expect(parseVlanList('20, 10-11,10')).toEqual([10, 11, 20]);
    expect(parseVlanList('10 - 12')).toEqual([10, 11, 12]);
    expect(parseVlanList('1-2', VLAN_RANGES.TAGGED)).toEqual([1, 2]);
  });
  it.each([
    ['', 16],
    ['10,', 112],
    ['10-', 112],
    ['13-10', 16],
    ['9', 16],
    ['10-4095', 16],
    ['a', 112],
    ['10-109', null],
    ['10-110', 16],
    ['10-100,200', null],
    ['10-108,200', null],
    ['10-108,200,201', 16],
    ['10-109,10', null],
    ['10.0-13', 112],
    ['10-13.0', 112],
    ['10.0', 112],
    ['8.5', 112],
    ['1e3', 112],
    ['20,1e3', 112],
    [' 10 , 20 - 21 ', null],
  ])('%j → %s', (text, expected) => expect(code(validateVlanList(text))).toBe(expected));
  it('at most 100 per add, or the given maximum', () => {
    expect(validateVlanList('10-110')?.message).toBe('At most 100 VLANs can be added at a time');
    expect(code(validateVlanList('10-14', VLAN_RANGES.DEFAULT, 4))).toBe(16);
    expect(validateVlanList('10-13', VLAN_RANGES.DEFAULT, 4)).toBeNull();
  });
});

describe('validateVlanName (120)', () => {
  it.each([
    ['office', null],
    ['Office 2_a.~!@#%^&*()+-{}|/\\:', null],
    ['', 120],
    ['a'.repeat(32), null],
    ['a'.repeat(33), 120],
    ['br0', 120],
    ['BR0', 120],
    ['IPTV', 120],
    ['iptv', 120],
    ['iptv2', null],
    ['a$b', 120],
    ['a,b', 120],
    ['a"b', 120],
    ['办公', 120],
  ])('%j → %s', (name, expected) => expect(code(validateVlanName(name))).toBe(expected));
  it('unique', () => {
    expect(code(validateVlanName('office', ['office']))).toBe(120);
    expect(validateVlanName('office', ['Office'])).toBeNull();
  });
});

describe('port VLAN rules', () => {
  it.each([
    [[20, 30], 10, null],
    [[10, 20], 10, 16],
    [[], 10, null],
  ] as [number[], number, number | null][])('tagged %j with PVID %i → %s', (tagged, pvid, expected) =>
    expect(code(validateTaggedNotPvid(tagged, pvid))).toBe(expected),
  );
  it.each([
    [[10], [20, 30], null],
    [[10, 20], [20, 30], 16],
    [[], [20], null],
  ] as [number[], number[], number | null][])('stripped %j allowed %j → %s', (stripped, allowed, expected) =>
    expect(code(validateStrippedVsAllowed(stripped, allowed))).toBe(expected),
  );
  it.each([
    [[], 16],
    [[10], null],
    [[10, 10], null],
    [[10, 20], 16],
  ] as [number[], number | null][])('LAN untagged %j → %s', (untagged, expected) =>
    expect(code(validateLanPortUntagged(untagged))).toBe(expected),
  );
  it.each([
    [0, 16],
    [1, null],
  ])('trunk ports selected %i → %s', (count, expected) =>
    expect(code(validateTrunkPortSelected(count))).toBe(expected),
  );
});
