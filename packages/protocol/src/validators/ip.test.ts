import { describe, expect, it } from 'vitest';
import { SegmentKind } from '../enums/network.ts';
import {
  isIpInRange,
  isSameSegment,
  maskToPrefix,
  parseIpv4,
  prefixToMask,
  type Segment,
  segmentClashCode,
  toPrefix,
  validateDhcpRange,
  validateDifferentSegments,
  validateDns,
  validateGateway,
  validateHostAddress,
  validateHostPart,
  validateIpv4,
  validateManagementIp,
  validateMaskLength,
  validateSameSegment,
  validateSubnetMask,
  validateUniqueDestination,
  validateWanGateway,
} from './ip.ts';
import type { Check } from './result.ts';

const code = (c: Check) => c?.code ?? null;

describe('parseIpv4', () => {
  it.each([
    ['0.0.0.0', 0],
    ['255.255.255.255', 0xffffffff],
    ['192.168.1.1', 0xc0a80101],
    ['256.1.1.1', null],
    ['1.1.1', null],
    ['1.1.1.1.1', null],
    ['01.1.1.1', null],
    ['1.1.1.a', null],
    ['', null],
    [' 10.0.0.1 ', 0x0a000001],
  ])('%j → %s', (text, value) => expect(parseIpv4(text)).toBe(value));
});

describe('validateIpv4 (first octet 1-223, not 127)', () => {
  it.each([
    ['0.1.2.3', 16],
    ['1.1.1.1', null],
    ['2.0.0.1', null],
    ['126.255.255.254', null],
    ['127.0.0.1', 16],
    ['128.0.0.1', null],
    ['222.1.1.1', null],
    ['223.255.255.1', null],
    ['224.0.0.1', 16],
    ['255.255.255.255', 16],
    ['300.1.1.1', 16],
    ['abc', 16],
  ])('%j → %s', (ip, expected) => expect(code(validateIpv4(ip))).toBe(expected));
  it('gateway cannot start with 127', () => {
    expect(validateGateway('127.0.0.1')?.message).toBe('Gateway cannot start with 127');
    expect(validateGateway('192.168.1.1')).toBeNull();
  });
});

describe('masks', () => {
  it.each([
    [-1, 16],
    [0, null],
    [1, null],
    [31, null],
    [32, null],
    [33, 16],
    [24.5, 16],
    ['24', null],
    ['24.0', 16],
    ['8.5', 16],
    ['1e1', 16],
    [' 24', 16],
    ['', 16],
  ] as [number | string, number | null][])('length %j → %s', (value, expected) =>
    expect(code(validateMaskLength(value))).toBe(expected),
  );
  it.each([
    ['255.255.255.0', null],
    ['255.255.255.255', null],
    ['0.0.0.0', null],
    ['255.255.255.254', null],
    ['255.255.254.0', null],
    ['255.255.255.1', 16],
    ['255.0.255.0', 16],
    ['255.255.256.0', 16],
    ['24', 16],
  ])('dotted %j → %s', (mask, expected) => expect(code(validateSubnetMask(mask))).toBe(expected));
  it('converts', () => {
    expect(maskToPrefix('255.255.255.128')).toBe(25);
    expect(prefixToMask(0)).toBe('0.0.0.0');
    expect(prefixToMask(20)).toBe('255.255.240.0');
    expect(prefixToMask(32)).toBe('255.255.255.255');
  });
  it.each([
    [24, 24],
    ['24', 24],
    ['255.255.255.0', 24],
    ['24.0', null],
    ['2.4e1', null],
    [' 24', null],
    ['', null],
    [24.5, null],
    [33, null],
  ] as [number | string, number | null][])('toPrefix(%j) → %s', (mask, expected) =>
    expect(toPrefix(mask)).toBe(expected),
  );
});

describe('validateHostPart (not all 0s / all 1s)', () => {
  it.each([
    ['192.168.1.0', 24, 16],
    ['192.168.1.1', 24, null],
    ['192.168.1.254', 24, null],
    ['192.168.1.255', 24, 16],
    ['192.168.1.0', '255.255.255.0', 16],
    ['192.168.1.128', 25, 16],
    ['192.168.1.127', 25, 16],
    ['192.168.1.126', 25, null],
    ['192.168.1.129', 25, null],
    ['10.0.0.0', 30, 16],
    ['10.0.0.1', 30, null],
    ['10.0.0.3', 30, 16],
    ['10.0.0.0', 31, null],
    ['10.0.0.1', 32, null],
    ['10.0.0.1', 33, 16],
    ['10.0.0.1', '255.0.255.0', 16],
  ] as [string, number | string, number | null][])('%s / %s → %s', (ip, mask, expected) =>
    expect(code(validateHostPart(ip, mask))).toBe(expected),
  );
  it('messages', () => {
    expect(validateHostPart('10.0.0.0', 24)?.message).toMatch(/all 0s/);
    expect(validateHostPart('10.0.0.255', 24)?.message).toMatch(/all 1s/);
    expect(code(validateHostAddress('127.0.0.5', 24))).toBe(16);
  });
});

describe('segments', () => {
  it.each([
    ['192.168.1.1', '192.168.1.254', 24, true],
    ['192.168.1.1', '192.168.2.1', 24, false],
    ['192.168.1.1', '192.168.2.1', 16, true],
    ['192.168.1.1', '192.168.1.129', 25, false],
    ['192.168.1.1', '192.168.1.127', 25, true],
  ])('%s and %s under /%i same: %s', (a, b, mask, same) => {
    expect(isSameSegment(a, b, mask)).toBe(same);
    expect(code(validateSameSegment(a, b, mask))).toBe(same ? null : 107);
  });

  it.each([
    ['vlan', 'lan', 113],
    ['vlan', 'guest', 114],
    ['vlan', 'pppoe', 115],
    ['vlan', 'pptp', 116],
    ['vlan', 'l2tp', 117],
    ['vlan', 'vlan', 118],
    ['vlan', 'wan', 119],
    ['wan', 'lan', 122],
    ['lan', 'wan', 122],
    ['wan', 'pptp', 123],
    ['wan', 'l2tp', 124],
    ['wan', 'guest', 125],
    ['wan', 'pppoe', 126],
    ['wan', 'vlan', 127],
    ['guest', 'wan', 125],
    ['lan', 'vlan', 113],
    ['pptp', 'vlan', 116],
    ['lan', 'guest', 5042],
    ['pppoe', 'l2tp', 5042],
    ['wan', 'wan', 5042],
  ] as [SegmentKind, SegmentKind, number][])('%s clashing with %s → %i', (subject, other, expected) =>
    expect(segmentClashCode(subject, other)).toBe(expected),
  );

  const lan: Segment = { kind: SegmentKind.LAN, ip: '192.168.1.1', mask: 24 };
  const guest: Segment = { kind: SegmentKind.GUEST, ip: '192.168.10.1', mask: '255.255.255.0' };
  const vlan: Segment = { kind: SegmentKind.VLAN, ip: '10.10.0.1', mask: 16, label: 'VLAN office' };
  it.each([
    [{ kind: SegmentKind.WAN, ip: '192.168.2.10', mask: 24 }, null],
    [{ kind: SegmentKind.WAN, ip: '192.168.1.10', mask: 24 }, 122],
    [{ kind: SegmentKind.WAN, ip: '192.168.10.10', mask: 24 }, 125],
    [{ kind: SegmentKind.WAN, ip: '10.10.200.1', mask: 24 }, 127],
    [{ kind: SegmentKind.WAN, ip: '192.168.0.10', mask: 16 }, 122],
    [{ kind: SegmentKind.VLAN, ip: '192.168.1.100', mask: 24 }, 113],
    [{ kind: SegmentKind.VLAN, ip: '10.11.0.1', mask: 16 }, null],
    [{ kind: SegmentKind.VLAN, ip: '10.10.0.1', mask: 8 }, 118],
  ] as [Segment, number | null][])('%o → %s', (subject, expected) =>
    expect(code(validateDifferentSegments(subject, [lan, guest, vlan]))).toBe(expected),
  );
  it('names the other network', () =>
    expect(
      validateDifferentSegments({ kind: SegmentKind.WAN, ip: '10.10.1.1', mask: 24 }, [vlan])?.message,
    ).toBe('The WAN segment clashes with the VLAN office segment'));
});

describe('validateWanGateway (121)', () => {
  it.each([
    ['100.64.1.10', '100.64.1.1', 24, null],
    ['100.64.1.10', '100.64.2.1', 24, 121],
    ['100.64.1.10', '100.64.2.1', 16, null],
    ['100.64.1.10', '127.0.0.1', 24, 16],
    ['127.0.0.1', '127.0.0.2', 24, 16],
  ] as [string, string, number, number | null][])('%s via %s /%i → %s', (ip, gw, mask, expected) =>
    expect(code(validateWanGateway(ip, gw, mask))).toBe(expected),
  );
});

describe('validateManagementIp', () => {
  const ranges = [
    { start: '192.168.0.1', end: '192.168.0.254' },
    { start: '10.0.0.10', end: '10.0.0.20' },
  ];
  it.each([
    ['192.168.0.0', 16],
    ['192.168.0.1', null],
    ['192.168.0.254', null],
    ['192.168.0.255', 16],
    ['10.0.0.9', 16],
    ['10.0.0.10', null],
    ['10.0.0.20', null],
    ['10.0.0.21', 16],
    ['192.168.0.100', 103],
    ['abc', 16],
  ])('%s → %s', (ip, expected) =>
    expect(code(validateManagementIp(ip, ranges, '192.168.0.100'))).toBe(expected),
  );
  it('lists the ranges in the message', () =>
    expect(validateManagementIp('1.1.1.1', ranges)?.message).toBe(
      'The management IP must be within 192.168.0.1-192.168.0.254, 10.0.0.10-10.0.0.20',
    ));
  it('range helper', () => {
    expect(isIpInRange('1.1.1.1', { start: '1.1.1.1', end: '1.1.1.1' })).toBe(true);
    expect(isIpInRange('x', { start: '1.1.1.1', end: '1.1.1.1' })).toBe(false);
  });
});

describe('validateDhcpRange', () => {
  it.each([
    ['192.168.1.100', '192.168.1.99', 24, 109],
    ['192.168.1.100', '192.168.1.100', 24, 109],
    ['192.168.1.100', '192.168.1.101', 24, null],
    ['192.168.1.100', '192.168.1.200', 24, null],
    ['192.168.1.100', '192.168.2.1', 24, 107],
    ['192.168.1.100', '192.168.2.1', 16, null],
    ['192.168.1.100', '300.1.1.1', 24, 16],
  ] as [string, string, number, number | null][])('%s-%s /%i → %s', (start, end, mask, expected) =>
    expect(code(validateDhcpRange(start, end, mask))).toBe(expected),
  );
});

describe('validateDns', () => {
  it.each([
    [[], null],
    [['8.8.8.8'], null],
    [['8.8.8.8', '1.1.1.1'], null],
    [['8.8.8.8', '8.8.8.8'], 110],
    [['8.8.8.8', ' 8.8.8.8 '], 110],
    [['8.8.8.8', '1.1.1.1', '9.9.9.9'], 16],
    [['8.8.8.8', ''], null],
    [['127.0.0.1'], 16],
    [['8.8.8'], 16],
  ] as [string[], number | null][])('%j → %s', (list, expected) =>
    expect(code(validateDns(list))).toBe(expected),
  );
});

describe('validateUniqueDestination', () => {
  const existing = [
    { ip: '10.0.0.0', mask: 24 },
    { ip: '172.16.0.0', mask: '255.255.0.0' },
  ];
  it.each([
    [{ ip: '10.0.0.0', mask: 24 }, 5043],
    [{ ip: '10.0.0.0', mask: '255.255.255.0' }, 5043],
    [{ ip: '10.0.0.5', mask: 24 }, 5043],
    [{ ip: '10.0.0.0', mask: 25 }, null],
    [{ ip: '10.0.1.0', mask: 24 }, null],
    [{ ip: '172.16.0.0', mask: 16 }, 5043],
  ])('%o → %s', (dest, expected) => expect(code(validateUniqueDestination(dest, existing))).toBe(expected));
});
