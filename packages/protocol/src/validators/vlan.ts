import { LIMITS } from '../enums/limits.ts';
import { Codes, type Failure } from '../errors.ts';
import { integerMessage, lengthMessage, rangeMessage, toInteger } from './messages.ts';
import { type Check, invalid } from './result.ts';

export interface VlanRange {
  min: number;
  max: number;
}

/**
 * SPEC.md §5 VLAN id ranges: the per-model default (server configuration min_vlan/max_vlan, default
 * 10-4094), wireless policy VLAN 1-4094, some screens 2-4094, tagged fields 1-4094.
 */
export const VLAN_RANGES = {
  DEFAULT: { min: LIMITS.DEFAULT_VLAN_MIN, max: LIMITS.DEFAULT_VLAN_MAX },
  WIRELESS_POLICY: { min: 1, max: 4094 },
  VARIANT: { min: 2, max: 4094 },
  TAGGED: { min: 1, max: 4094 },
} as const satisfies Record<string, VlanRange>;

/** SPEC.md §5: a VLAN id is an integer (112) within the range (16). */
export function validateVlanId(
  value: number | string,
  range: VlanRange = VLAN_RANGES.DEFAULT,
  label = 'VLAN ID',
): Check {
  const n = toInteger(value);
  if (!Number.isInteger(n)) return invalid(Codes.VLAN_ID_NOT_INTEGER, integerMessage(label));
  if (n < range.min || n > range.max)
    return invalid(Codes.FORM_DATA, rangeMessage(label, range.min, range.max));
  return null;
}

/** SPEC.md §5: the VLAN id is unique (111). */
export const validateVlanIdUnique = (id: number, existing: readonly number[]): Check =>
  existing.includes(id) ? invalid(Codes.VLAN_ID_EXISTS, `VLAN ${id} already exists`) : null;

/**
 * SPEC.md §5: parses a VLAN list of ids and ranges separated by commas ("10,20-23"), every id within
 * `range`, at most `max` ids in all (100 per add; the switch may give its own maximum). Duplicates are
 * merged; the answer is sorted.
 */
export function parseVlanList(
  text: string,
  range: VlanRange = VLAN_RANGES.DEFAULT,
  max: number = LIMITS.VLANS_PER_ADD,
): number[] | Failure {
  const items = text.split(',').map((s) => s.trim());
  if (items.length === 1 && items[0] === '') return invalid(Codes.FORM_DATA, 'VLAN list cannot be empty');
  const ids = new Set<number>();
  for (const item of items) {
    const match = /^(\S+?)\s*-\s*(\S+)$/.exec(item);
    const [from, to] = match ? [match[1], match[2]] : [item, item];
    const failure = validateVlanId(from, range) ?? validateVlanId(to, range);
    if (failure) return failure;
    const start = Number(from);
    const end = Number(to);
    if (end < start)
      return invalid(Codes.FORM_DATA, `In the range ${item}, the end must not be less than the start`);
    if (end - start + 1 > max) {
      return invalid(Codes.FORM_DATA, `At most ${max} VLANs can be added at a time`);
    }
    for (let id = start; id <= end; id++) ids.add(id);
    if (ids.size > max) return invalid(Codes.FORM_DATA, `At most ${max} VLANs can be added at a time`);
  }
  return [...ids].sort((a, b) => a - b);
}

export function validateVlanList(
  text: string,
  range: VlanRange = VLAN_RANGES.DEFAULT,
  max: number = LIMITS.VLANS_PER_ADD,
): Check {
  const result = parseVlanList(text, range, max);
  return Array.isArray(result) ? null : result;
}

const VLAN_NAME = /^[A-Za-z0-9_ .~!@#%^&*()+\-{}|/\\:]+$/;
export const RESERVED_VLAN_NAMES = ['br0', 'IPTV'] as const;

/**
 * SPEC.md §5 VLAN name (120): 1-32 characters of digits, letters, underscore, space and
 * .~!@#%^&*()+-{}|/\: ; not br0 or IPTV (case-insensitive); unique among `existing`.
 */
export function validateVlanName(value: string, existing: readonly string[] = [], max = 32): Check {
  if (value.length < 1 || value.length > max)
    return invalid(Codes.VLAN_NAME, lengthMessage('VLAN name', 1, max));
  if (!VLAN_NAME.test(value)) {
    return invalid(
      Codes.VLAN_NAME,
      'VLAN name can contain only digits, letters, underscore, space and .~!@#%^&*()+-{}|/\\:',
    );
  }
  if (RESERVED_VLAN_NAMES.some((r) => r.toLowerCase() === value.toLowerCase())) {
    return invalid(Codes.VLAN_NAME, `VLAN name cannot be ${value}`);
  }
  if (existing.includes(value)) return invalid(Codes.VLAN_NAME, `VLAN name "${value}" already exists`);
  return null;
}

/** SPEC.md §5: tagged VLANs must differ from the PVID. */
export const validateTaggedNotPvid = (tagged: readonly number[], pvid: number): Check =>
  tagged.includes(pvid) ? invalid(Codes.FORM_DATA, 'Tagged VLANs must differ from the PVID') : null;

/** SPEC.md §5: stripped and allowed VLAN ids must differ (no id in both). */
export function validateStrippedVsAllowed(stripped: readonly number[], allowed: readonly number[]): Check {
  const both = stripped.find((id) => allowed.includes(id));
  return both === undefined
    ? null
    : invalid(Codes.FORM_DATA, `VLAN ${both} cannot be both stripped and allowed`);
}

/** SPEC.md §5: a LAN port needs exactly one untagged VLAN. */
export const validateLanPortUntagged = (untagged: readonly number[]): Check =>
  new Set(untagged).size === 1
    ? null
    : invalid(Codes.FORM_DATA, 'A LAN port needs exactly one untagged VLAN');

/** SPEC.md §5: a trunk port must be selected. */
export const validateTrunkPortSelected = (count: number): Check =>
  count >= 1 ? null : invalid(Codes.FORM_DATA, 'Select a trunk port');
