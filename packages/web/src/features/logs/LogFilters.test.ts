import { describe, expect, it } from 'vitest';
import { filterOf, fromOf, isReversed } from './LogFilters.tsx';

describe('log filters', () => {
  it('turns a preset range into its start, and "all" into none', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(fromOf('24h', now)).toBe('2026-11-23T12:00:00.000Z');
    expect(fromOf('180d', now)).toBe('2026-05-28T12:00:00.000Z');
    expect(fromOf('all', now)).toBeUndefined();
  });

  it('sends a custom range as ISO times, and not at all when its start is after its end', () => {
    const custom = { range: 'custom' as const, customFrom: '2026-01-01T00:00', customTo: '2026-01-02T00:00' };
    const f = filterOf(custom, 'device');
    expect(f.from).toBe(new Date('2026-01-01T00:00').toISOString());
    expect(f.to).toBe(new Date('2026-01-02T00:00').toISOString());
    const reversed = { ...custom, customFrom: '2026-01-03T00:00' };
    expect(isReversed(reversed)).toBe(true);
    expect(filterOf(reversed, 'device')).toMatchObject({ from: undefined, to: undefined });
  });

  it('keeps the level for the device log only', () => {
    expect(filterOf({ range: 'all', level: 'warning', sn: 'X', type: 'port-down' }, 'device')).toEqual({
      from: undefined,
      to: undefined,
      sn: 'X',
      type: 'port-down',
      level: 'warning',
    });
    expect(filterOf({ range: 'all', level: 'warning' }, 'audit').level).toBeUndefined();
  });
});
