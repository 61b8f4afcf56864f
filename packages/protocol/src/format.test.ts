import { describe, expect, it } from 'vitest';
import {
  echoPrefix,
  formatBytes,
  formatDistance,
  formatDuration,
  formatGmtOffset,
  formatRate,
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
