import { SegmentKind } from '../enums/network.ts';
import { Codes, type ErrorCode } from '../errors.ts';
import { integerMessage, rangeMessage, toInteger } from './messages.ts';
import { type Check, invalid } from './result.ts';

/** Parses a dotted IPv4 address to an unsigned 32-bit number; null when malformed (no leading zeros). */
export function parseIpv4(text: string): number | null {
  const parts = text.trim().split('.');
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255) return null;
    value = value * 256 + octet;
  }
  return value;
}

export const ipToString = (value: number): string =>
  [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');

export const isIpv4 = (text: string): boolean => parseIpv4(text) !== null;

/** Prefix length (0-32) to its unsigned mask number. */
export const prefixToMaskNumber = (prefix: number): number =>
  prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
export const prefixToMask = (prefix: number): string => ipToString(prefixToMaskNumber(prefix));

/** Dotted mask to its prefix length; null when not a valid contiguous mask. */
export function maskToPrefix(mask: string): number | null {
  const value = parseIpv4(mask);
  if (value === null) return null;
  for (let prefix = 0; prefix <= 32; prefix++) if (prefixToMaskNumber(prefix) === value) return prefix;
  return null;
}

/** A mask given as a prefix (24 or "24") or dotted ("255.255.255.0"); null when invalid. */
export type Mask = number | string;
export function toPrefix(mask: Mask): number | null {
  if (typeof mask === 'string' && mask.includes('.')) return maskToPrefix(mask);
  const n = toInteger(mask);
  return Number.isInteger(n) && n >= 0 && n <= 32 ? n : null;
}

/** SPEC.md §5: mask length, integer 0-32. */
export function validateMaskLength(value: number | string): Check {
  const n = toInteger(value);
  if (!Number.isInteger(n)) return invalid(Codes.FORM_DATA, integerMessage('Mask'));
  if (n < 0 || n > 32) return invalid(Codes.FORM_DATA, rangeMessage('Mask', 0, 32));
  return null;
}

/** SPEC.md §5: a valid dotted subnet mask (contiguous ones), e.g. 255.255.255.0. */
export const validateSubnetMask = (mask: string): Check =>
  maskToPrefix(mask) === null ? invalid(Codes.FORM_DATA, 'Enter a valid subnet mask') : null;

/**
 * SPEC.md §5: a host or network address; the first octet is 1 to 223 and not 127.
 */
export function validateIpv4(text: string, label = 'IP address'): Check {
  const value = parseIpv4(text);
  if (value === null) return invalid(Codes.FORM_DATA, `Enter a valid ${label}`);
  const first = value >>> 24;
  if (first === 127) return invalid(Codes.FORM_DATA, `${label} cannot start with 127`);
  if (first < 1 || first > 223)
    return invalid(Codes.FORM_DATA, `The first part of the ${label} must be 1 to 223`);
  return null;
}

/** SPEC.md §5: a gateway is a valid address that cannot start with 127. */
export const validateGateway = (text: string): Check => validateIpv4(text, 'Gateway');

/**
 * SPEC.md §5: the host part of `ip` under `mask` cannot be all 0s (network address) or all 1s
 * (broadcast). /31 and /32 have no such addresses (RFC 3021), so they always pass.
 */
export function validateHostPart(ip: string, mask: Mask): Check {
  const value = parseIpv4(ip);
  const prefix = toPrefix(mask);
  if (value === null) return invalid(Codes.FORM_DATA, 'Enter a valid IP address');
  if (prefix === null) return invalid(Codes.FORM_DATA, 'Enter a valid subnet mask');
  if (prefix >= 31) return null;
  const hostMask = ~prefixToMaskNumber(prefix) >>> 0;
  const host = (value & hostMask) >>> 0;
  if (host === 0) return invalid(Codes.FORM_DATA, 'The host part of the IP address cannot be all 0s');
  if (host === hostMask) return invalid(Codes.FORM_DATA, 'The host part of the IP address cannot be all 1s');
  return null;
}

/** A host with its mask: valid address and valid host part. */
export const validateHostAddress = (ip: string, mask: Mask, label = 'IP address'): Check =>
  validateIpv4(ip, label) ?? validateHostPart(ip, mask);

/** Network number of `ip` under `mask`; null when either is invalid. */
export function networkOf(ip: string, mask: Mask): number | null {
  const value = parseIpv4(ip);
  const prefix = toPrefix(mask);
  return value === null || prefix === null ? null : (value & prefixToMaskNumber(prefix)) >>> 0;
}

/** Whether two addresses are on the same segment under `mask`. */
export function isSameSegment(a: string, b: string, mask: Mask): boolean {
  const na = networkOf(a, mask);
  return na !== null && na === networkOf(b, mask);
}

/** Code 107 when the two addresses are not on the same segment. */
export const validateSameSegment = (a: string, b: string, mask: Mask): Check =>
  isSameSegment(a, b, mask)
    ? null
    : invalid(Codes.NOT_SAME_NETWORK, 'The addresses must be on the same network segment');

/** A network of the gateway: its kind, an address in it and its mask. */
export interface Segment {
  kind: SegmentKind;
  ip: string;
  mask: Mask;
  /** For messages, e.g. the VLAN name. */
  label?: string;
}

/** Whether two networks overlap: same network number under the shorter of the two masks. */
export function segmentsOverlap(a: Segment, b: Segment): boolean {
  const pa = toPrefix(a.mask);
  const pb = toPrefix(b.mask);
  if (pa === null || pb === null) return false;
  const shorter = Math.min(pa, pb);
  return isSameSegment(a.ip, b.ip, shorter);
}

const VLAN_CLASH: Record<SegmentKind, ErrorCode> = {
  lan: 113,
  guest: 114,
  pppoe: 115,
  pptp: 116,
  l2tp: 117,
  vlan: 118,
  wan: 119,
};
const WAN_CLASH: Partial<Record<SegmentKind, ErrorCode>> = {
  lan: 122,
  pptp: 123,
  l2tp: 124,
  guest: 125,
  pppoe: 126,
  vlan: 127,
};

/**
 * The catalogue code for `subject` (the network being saved) clashing with `other`: a VLAN being
 * saved → 113-119 by the other kind; the WAN being saved → 122-127; a network clashing with the WAN
 * (WAN on the other side) → the WAN code of its kind; with a VLAN on the other side → 113-117;
 * every other pair → 5042.
 */
export function segmentClashCode(subject: SegmentKind, other: SegmentKind): ErrorCode {
  if (subject === SegmentKind.VLAN) return VLAN_CLASH[other];
  if (subject === SegmentKind.WAN) return WAN_CLASH[other] ?? Codes.SEGMENT_CLASH;
  if (other === SegmentKind.WAN) return WAN_CLASH[subject] ?? Codes.SEGMENT_CLASH;
  if (other === SegmentKind.VLAN) return VLAN_CLASH[subject];
  return Codes.SEGMENT_CLASH;
}

const KIND_LABEL: Record<SegmentKind, string> = {
  wan: 'WAN',
  lan: 'LAN',
  vlan: 'VLAN',
  guest: 'guest network',
  pppoe: 'PPPoE',
  pptp: 'PPTP',
  l2tp: 'L2TP',
};

/**
 * SPEC.md §5: the WAN IP and the LAN, VLAN, guest, PPPoE, PPTP and L2TP networks must be on
 * different segments. `others` are the networks already configured (leave out the one being edited).
 */
export function validateDifferentSegments(subject: Segment, others: readonly Segment[]): Check {
  for (const other of others) {
    if (segmentsOverlap(subject, other)) {
      const name = other.label ?? KIND_LABEL[other.kind];
      return invalid(
        segmentClashCode(subject.kind, other.kind),
        `The ${subject.label ?? KIND_LABEL[subject.kind]} segment clashes with the ${name} segment`,
      );
    }
  }
  return null;
}

/** SPEC.md §5: the WAN IP and its gateway are on the same segment (121). */
export function validateWanGateway(ip: string, gateway: string, mask: Mask): Check {
  return (
    validateIpv4(ip, 'WAN IP') ??
    validateGateway(gateway) ??
    (isSameSegment(ip, gateway, mask)
      ? null
      : invalid(Codes.WAN_GATEWAY, 'The WAN IP and its gateway must be on the same segment'))
  );
}

export interface IpRange {
  start: string;
  end: string;
}

/** Whether `ip` lies within start..end, both included. */
export function isIpInRange(ip: string, range: IpRange): boolean {
  const v = parseIpv4(ip);
  const s = parseIpv4(range.start);
  const e = parseIpv4(range.end);
  return v !== null && s !== null && e !== null && v >= s && v <= e;
}

/** SPEC.md §5: the management IP lies within one of the given ranges and differs from the LAN IP (103). */
export function validateManagementIp(ip: string, ranges: readonly IpRange[], lanIp?: string): Check {
  const format = validateIpv4(ip, 'Management IP');
  if (format) return format;
  if (ranges.length > 0 && !ranges.some((r) => isIpInRange(ip, r))) {
    const list = ranges.map((r) => `${r.start}-${r.end}`).join(', ');
    return invalid(Codes.FORM_DATA, `The management IP must be within ${list}`);
  }
  if (lanIp !== undefined && parseIpv4(lanIp) === parseIpv4(ip)) {
    return invalid(Codes.SAME_AS_LAN_IP, 'The management IP must differ from the LAN IP');
  }
  return null;
}

/** SPEC.md §5: the DHCP end IP is greater than the start IP (109) and on the same segment (107). */
export function validateDhcpRange(start: string, end: string, mask: Mask): Check {
  const failure = validateIpv4(start, 'Start IP') ?? validateIpv4(end, 'End IP');
  if (failure) return failure;
  if (parseIpv4(end)! <= parseIpv4(start)!) {
    return invalid(Codes.END_IP_NOT_GREATER, 'The end IP must be greater than the start IP');
  }
  if (!isSameSegment(start, end, mask)) {
    return invalid(Codes.NOT_SAME_NETWORK, 'The start and end IP must be on the same segment');
  }
  return null;
}

/** SPEC.md §5: at most two DNS servers, each a valid address; primary and secondary differ (110). Blank entries are ignored. */
export function validateDns(servers: readonly string[]): Check {
  const list = servers.map((s) => s.trim()).filter((s) => s !== '');
  if (list.length > 2) return invalid(Codes.FORM_DATA, 'At most two DNS servers are allowed');
  for (const [i, server] of list.entries()) {
    const failure = validateIpv4(server, i === 0 ? 'Primary DNS' : 'Secondary DNS');
    if (failure) return failure;
  }
  if (list.length === 2 && parseIpv4(list[0]) === parseIpv4(list[1])) {
    return invalid(Codes.SAME_DNS, 'Primary and secondary DNS must differ');
  }
  return null;
}

/**
 * SPEC.md §5 static routes: the destination network is unique. Destinations are compared as
 * network number and prefix, so 10.0.0.1/24 and 10.0.0.0/255.255.255.0 are the same.
 */
export function validateUniqueDestination(
  destination: { ip: string; mask: Mask },
  existing: readonly { ip: string; mask: Mask }[],
): Check {
  const prefix = toPrefix(destination.mask);
  const net = networkOf(destination.ip, destination.mask);
  const taken = existing.some((d) => toPrefix(d.mask) === prefix && networkOf(d.ip, d.mask) === net);
  return taken ? invalid(Codes.DESTINATION_TAKEN, 'The destination network already exists') : null;
}
