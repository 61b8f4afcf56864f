import { describe, expect, it } from 'vitest';
import { formatVlanList, parseVlanText } from './vlanText.ts';

describe('VLAN list text', () => {
  it('formats runs as ranges and parses them back', () => {
    expect(formatVlanList([12, 10, 11, 20, 21])).toBe('10-12,20,21');
    expect(parseVlanText('10-12,20,21')).toEqual([10, 11, 12, 20, 21]);
    expect(parseVlanText('  ')).toEqual([]);
  });
  it('answers the catalogue failure of a bad list', () => {
    expect(parseVlanText('10,5000')).toMatchObject({ code: 16 });
    expect(parseVlanText('x')).toMatchObject({ code: 112 });
  });
});
