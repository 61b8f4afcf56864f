import { describe, expect, it } from 'vitest';
import {
  echoPrefix,
  formatBytes,
  formatDateTimeInZone,
  formatDistance,
  formatDuration,
  formatGmtOffset,
  formatRate,
  formatTimeZone,
  timeZoneChoices,
} from './format.ts';

describe('formatBytes', () => {
  it.each([
    [0, '0B'],
    [-5, '0B'],
    [1, '1B'],
    [1023, '1023B'],
    [1024, '1K'],
    [1536, '1.5K'],
    [1024 * 1024 - 1, '1M'],
    [1024 * 1024, '1M'],
    [5.25 * 1024 * 1024, '5.25M'],
    [1024 ** 3, '1G'],
    [1024 ** 4, '1T'],
    [2048 * 1024 ** 4, '2048T'],
  ])('%d → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});

describe('formatRate', () => {
  it.each([
    [0, '0 bps'],
    [999, '999 bps'],
    [1000, '1 Kbps'],
    [1500, '1.5 Kbps'],
    [999_999, '1 Mbps'],
    [1e6, '1 Mbps'],
    [2.5e9, '2.5 Gbps'],
    [1e12, '1 Tbps'],
    [3e15, '3000 Tbps'],
  ])('%d → %s', (bps, text) => expect(formatRate(bps)).toBe(text));
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [-3, '0s'],
    [0.9, '0s'],
    [1, '1s'],
    [59, '59s'],
    [60, '1m'],
    [61, '1m 1s'],
    [3599, '59m 59s'],
    [3600, '1h'],
    [86399, '23h 59m 59s'],
    [86400, '1d'],
    [2 * 86400 + 3 * 3600 + 4 * 60 + 5, '2d 3h 4m 5s'],
    [86400 + 5, '1d 5s'],
  ])('%d → %s', (seconds, text) => expect(formatDuration(seconds)).toBe(text));
});

describe('formatGmtOffset', () => {
  it.each([
    [480, 'GMT+08:00'],
    [-330, 'GMT-05:30'],
    [0, 'GMT+00:00'],
    [330, 'GMT+05:30'],
    [-720, 'GMT-12:00'],
    [840, 'GMT+14:00'],
    [345, 'GMT+05:45'],
    [-30, 'GMT-00:30'],
  ])('%d → %s', (minutes, text) => expect(formatGmtOffset(minutes)).toBe(text));
});

describe('formatDistance', () => {
  it.each([
    [0, '0 m'],
    [999, '999 m'],
    [1000, '1 km'],
    [1250, '1.25 km'],
  ])('%d → %s', (m, text) => expect(formatDistance(m)).toBe(text));
});

describe('formatTimeZone (SPEC.md §9: with its GMT offset)', () => {
  it('shows the offset the zone has at that moment', () => {
    expect(formatTimeZone('Asia/Shanghai', new Date('2026-07-01T00:00:00Z'))).toBe(
      '(GMT+08:00) Asia/Shanghai',
    );
    expect(formatTimeZone('Europe/Berlin', new Date('2026-01-15T12:00:00Z'))).toBe(
      '(GMT+01:00) Europe/Berlin',
    );
    expect(formatTimeZone('Europe/Berlin', new Date('2026-07-15T12:00:00Z'))).toBe(
      '(GMT+02:00) Europe/Berlin',
    );
    expect(formatTimeZone('America/St_Johns', new Date('2026-01-15T12:00:00Z'))).toBe(
      '(GMT-03:30) America/St_Johns',
    );
    expect(formatTimeZone('Etc/GMT-8', new Date('2026-01-15T12:00:00Z'))).toBe('(GMT+08:00) Etc/GMT-8');
  });
});

describe('formatDateTimeInZone', () => {
  it("reads an instant on the zone's own clock across the spring-forward gap", () => {
    const berlin = (iso: string) => formatDateTimeInZone(iso, 'Europe/Berlin');
    expect(berlin('2026-03-29T00:59:00Z')).toBe('2026-03-29 01:59');
    expect(berlin('2026-03-29T01:00:00Z')).toBe('2026-03-29 03:00');
    expect(berlin('2026-03-29T01:30:00Z')).toBe('2026-03-29 03:30');
  });

  it('reads the repeated hour of the fall-back change twice', () => {
    const berlin = (iso: string) => formatDateTimeInZone(iso, 'Europe/Berlin', { seconds: true });
    expect(berlin('2026-10-25T00:30:00Z')).toBe('2026-10-25 02:30:00');
    expect(berlin('2026-10-25T01:30:00Z')).toBe('2026-10-25 02:30:00');
    expect(berlin('2026-10-25T02:30:00Z')).toBe('2026-10-25 03:30:00');
  });

  it("uses the project zone, not the machine's, and crosses the date line", () => {
    expect(formatDateTimeInZone('2026-03-29T20:30:00Z', 'Asia/Shanghai')).toBe('2026-03-30 04:30');
    expect(formatDateTimeInZone(new Date('2026-03-29T20:30:00Z'), 'America/New_York')).toBe(
      '2026-03-29 16:30',
    );
  });

  it('leaves empty and unreadable values alone', () => {
    expect(formatDateTimeInZone(null, 'UTC')).toBe('');
    expect(formatDateTimeInZone('', 'UTC')).toBe('');
    expect(formatDateTimeInZone('soon', 'UTC')).toBe('soon');
  });
});

describe('timeZoneChoices', () => {
  it('lists zones west to east with their offsets, keeping a migrated alias in use', () => {
    const at = new Date('2026-01-15T12:00:00Z');
    const choices = timeZoneChoices(at, 'Etc/GMT-8');
    expect(choices.find((c) => c.value === 'Asia/Shanghai')?.label).toBe('(GMT+08:00) Asia/Shanghai');
    expect(choices.find((c) => c.value === 'Etc/GMT-8')?.label).toBe('(GMT+08:00) Etc/GMT-8');
    expect(choices[0]!.label.startsWith('(GMT-1')).toBe(true);
    expect(choices.at(-1)!.label).toMatch(/^\(GMT\+1[34]:/);
    expect(timeZoneChoices(at).some((c) => c.value === 'Etc/GMT-8')).toBe(false);
  });
});

describe('echoPrefix', () => {
  it('keeps short values and cuts long ones to 64 characters and an ellipsis', () => {
    expect(echoPrefix('SHORT')).toBe('SHORT');
    expect(echoPrefix('A'.repeat(64))).toBe('A'.repeat(64));
    expect(echoPrefix('A'.repeat(3_000_000))).toBe(`${'A'.repeat(64)}…`);
    expect(echoPrefix('abcdef', 3)).toBe('abc…');
  });

  it('does not split a surrogate pair', () => {
    expect(echoPrefix(`${'a'.repeat(63)}😀tail`)).toBe(`${'a'.repeat(63)}…`);
  });
});
