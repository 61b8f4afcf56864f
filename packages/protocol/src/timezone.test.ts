import { describe, expect, it } from 'vitest';
import { UpdateProjectBody } from './api/projects.ts';
import {
  DEFAULT_TIME_ZONE,
  isTimeZone,
  offsetMinutesAt,
  validateTimeZone,
  zonedParts,
  zonedTimeToUtc,
  zoneForOffset,
} from './timezone.ts';

describe('validateTimeZone', () => {
  it.each([
    'Asia/Shanghai',
    'Europe/Berlin',
    'America/New_York',
    'UTC',
    // Both spellings, whichever the runtime's ICU calls canonical.
    'Asia/Kolkata',
    'Asia/Calcutta',
    'Europe/Kyiv',
    'Europe/Kiev',
    // Where old fixed offsets were migrated to.
    'Etc/GMT-8',
    'Etc/GMT+12',
    'Etc/GMT-14',
  ])('accepts %s', (zone) => expect(validateTimeZone(zone)).toBeNull());

  it.each(['', 'asia/shanghai', 'Mars/Olympus_Mons', 'GMT+8', '+08:00', 'Asia/Shanghai ', 'Etc/GMT-15'])(
    'refuses %j with 16',
    (zone) => {
      expect(validateTimeZone(zone)?.code).toBe(16);
      expect(isTimeZone(zone)).toBe(false);
    },
  );

  it('defaults to a +8 zone without daylight saving (SPEC.md §9)', () => {
    expect(offsetMinutesAt(DEFAULT_TIME_ZONE, new Date('2026-01-15T00:00:00Z'))).toBe(480);
    expect(offsetMinutesAt(DEFAULT_TIME_ZONE, new Date('2026-07-15T00:00:00Z'))).toBe(480);
  });
});

describe('zoneForOffset (old fixed offsets)', () => {
  it.each([
    [480, 'Etc/GMT-8'],
    [-300, 'Etc/GMT+5'],
    [0, 'Etc/GMT'],
    [840, 'Etc/GMT-14'],
    [-720, 'Etc/GMT+12'],
    [345, 'Asia/Kathmandu'],
  ])('%d → %s, which keeps that offset', (minutes, zone) => {
    expect(zoneForOffset(minutes)).toBe(zone);
    expect(offsetMinutesAt(zone, new Date('2026-01-15T00:00:00Z'))).toBe(minutes);
  });

  it('has no zone for an offset nobody keeps', () => {
    expect(zoneForOffset(15)).toBeNull();
    expect(zoneForOffset(481)).toBeNull();
  });

  it('reads an old client sending minutes as the zone of that offset', () => {
    expect(UpdateProjectBody.parse({ timeZone: 480 })).toEqual({ timeZone: 'Etc/GMT-8' });
    expect(UpdateProjectBody.parse({ timeZone: 'Europe/Berlin' })).toEqual({ timeZone: 'Europe/Berlin' });
    expect(UpdateProjectBody.safeParse({ timeZone: 15 }).success).toBe(false);
    expect(UpdateProjectBody.safeParse({ timeZone: 'Nowhere/Else' }).success).toBe(false);
  });
});

describe('zone arithmetic across daylight saving (Europe/Berlin, 2026)', () => {
  const berlin = 'Europe/Berlin';

  it('knows the offset on each side of the changes', () => {
    expect(offsetMinutesAt(berlin, new Date('2026-03-29T00:59:59Z'))).toBe(60);
    expect(offsetMinutesAt(berlin, new Date('2026-03-29T01:00:00Z'))).toBe(120);
    expect(offsetMinutesAt(berlin, new Date('2026-10-25T00:59:59Z'))).toBe(120);
    expect(offsetMinutesAt(berlin, new Date('2026-10-25T01:00:00Z'))).toBe(60);
  });

  it('turns a wall time into the instant, winter and summer', () => {
    const at = (month: number, day: number, hour: number, minute = 0) =>
      zonedTimeToUtc(berlin, { year: 2026, month, day, hour, minute }).toISOString();
    expect(at(3, 23, 3)).toBe('2026-03-23T02:00:00.000Z');
    expect(at(3, 30, 3)).toBe('2026-03-30T01:00:00.000Z');
    // 02:30 does not exist on 29 March: it runs right after the gap, at 03:30 summer time.
    expect(at(3, 29, 2, 30)).toBe('2026-03-29T01:30:00.000Z');
    // 02:30 happens twice on 25 October: the first one (summer time).
    expect(at(10, 25, 2, 30)).toBe('2026-10-25T00:30:00.000Z');
    expect(at(10, 26, 3)).toBe('2026-10-26T02:00:00.000Z');
  });

  it('reads the wall clock and weekday of an instant', () => {
    expect(zonedParts(new Date('2026-03-29T01:30:00Z'), berlin)).toEqual({
      year: 2026,
      month: 3,
      day: 29,
      hour: 3,
      minute: 30,
      second: 0,
      weekday: 0,
    });
    // Monday in Shanghai while it is still Sunday in UTC.
    expect(zonedParts(new Date('2026-03-29T20:30:00Z'), 'Asia/Shanghai').weekday).toBe(1);
  });
});
