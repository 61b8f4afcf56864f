import { describe, expect, it } from 'vitest';
import { nextRebootAt } from './schedule.ts';

const MONDAY = 1;
const iso = (d: Date) => d.toISOString();

describe('nextRebootAt', () => {
  it('runs "every Monday 03:00" in Europe/Berlin at 03:00 local time on both sides of a DST change', () => {
    // Winter: 03:00 CET is 02:00Z.
    const winter = nextRebootAt([MONDAY], '03:00', 'Europe/Berlin', new Date('2026-03-20T12:00:00Z'));
    expect(iso(winter)).toBe('2026-03-23T02:00:00.000Z');
    // The clocks go forward on Sunday 29 March; the next Monday's 03:00 is CEST, 01:00Z.
    const summer = nextRebootAt([MONDAY], '03:00', 'Europe/Berlin', winter);
    expect(iso(summer)).toBe('2026-03-30T01:00:00.000Z');
    // And back in October (25th): Monday 26 October 03:00 CET is 02:00Z again.
    const autumn = nextRebootAt([MONDAY], '03:00', 'Europe/Berlin', new Date('2026-10-20T00:00:00Z'));
    expect(iso(autumn)).toBe('2026-10-26T02:00:00.000Z');
  });

  it('runs a time the clocks skip right after the gap, once', () => {
    const sunday = nextRebootAt([0], '02:30', 'Europe/Berlin', new Date('2026-03-28T12:00:00Z'));
    expect(iso(sunday)).toBe('2026-03-29T01:30:00.000Z');
    expect(iso(nextRebootAt([0], '02:30', 'Europe/Berlin', sunday))).toBe('2026-04-05T00:30:00.000Z');
  });

  it('runs a time the clocks pass twice only once', () => {
    const first = nextRebootAt([0], '02:30', 'Europe/Berlin', new Date('2026-10-24T12:00:00Z'));
    expect(iso(first)).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(nextRebootAt([0], '02:30', 'Europe/Berlin', first))).toBe('2026-11-01T01:30:00.000Z');
  });

  it('counts days on the project clock, not UTC', () => {
    // Sunday 20:30Z is already Monday 04:30 in Shanghai: that Monday's 04:30 is the instant itself, so next week.
    const after = new Date('2026-03-29T20:30:00Z');
    expect(iso(nextRebootAt([MONDAY], '04:30', 'Asia/Shanghai', after))).toBe('2026-04-05T20:30:00.000Z');
    expect(iso(nextRebootAt([MONDAY], '05:00', 'Asia/Shanghai', after))).toBe('2026-03-29T21:00:00.000Z');
  });

  it('works for a migrated fixed-offset zone and every weekday set', () => {
    const after = new Date('2026-01-01T00:00:00Z'); // Thursday 08:00 at +8
    expect(iso(nextRebootAt([4], '07:00', 'Etc/GMT-8', after))).toBe('2026-01-07T23:00:00.000Z');
    expect(iso(nextRebootAt([0, 1, 2, 3, 4, 5, 6], '09:00', 'Etc/GMT-8', after))).toBe(
      '2026-01-01T01:00:00.000Z',
    );
  });
});
