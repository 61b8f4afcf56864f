import { describe, expect, it } from 'vitest';
import {
  type TopologyNodeView,
  TopologyTypeBody,
  topologyNodeMatches,
  validateTopoTypeCode,
} from './topology.ts';

const node: TopologyNodeView = {
  id: 'SWSN000000000001',
  kind: 'switch',
  sn: 'SWSN000000000001',
  mac: '02:BE:AC:12:34:56',
  name: 'Core switch',
  model: 'BS-S2024P',
  ip: '10.16.0.2',
  deviceType: 'switch',
  status: 1,
  clients: null,
  role: null,
  typeCode: null,
  ports: ['1', '24'],
  vlans: [1, 20],
  group: null,
  members: null,
};

describe('topology search (SPEC.md §3 filter fields)', () => {
  it.each([
    ['ip', '10.16.0', true],
    ['ip', '10.17', false],
    ['model', 's2024', true],
    ['name', 'core', true],
    ['name', 'SWSN0000', true],
    ['mac', 'ac:12', true],
    ['mac', 'BEAC1234', true],
    ['port', '24', true],
    ['port', '2', false],
    ['vlan', '20', true],
    ['vlan', '2', false],
    ['name', '  ', false],
  ] as const)('%s "%s" → %s', (field, text, expected) => {
    expect(topologyNodeMatches(node, field, text)).toBe(expected);
  });
});

describe('topology device-type codes', () => {
  it('takes -1 and 1 to 12, refuses the rest with 5380', () => {
    for (const code of [-1, 1, 6, 12]) expect(validateTopoTypeCode(code)).toBeNull();
    for (const code of [0, -2, 13, 99]) expect(validateTopoTypeCode(code)?.code).toBe(5380);
  });
  it('names a node by SN or by MAC (upper-cased)', () => {
    expect(TopologyTypeBody.parse({ node: '02:be:ac:12:34:56', code: 3 }).node).toBe('02:BE:AC:12:34:56');
    expect(TopologyTypeBody.safeParse({ node: 'not a node', code: 3 }).success).toBe(false);
  });
});
