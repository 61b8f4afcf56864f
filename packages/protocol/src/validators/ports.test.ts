import { describe, expect, it } from 'vitest';
import {
  parsePortSpec,
  validatePort,
  validatePortMapping,
  validatePortRange,
  validatePortSpec,
} from './ports.ts';
import type { Check } from './result.ts';

const code = (c: Check) => c?.code ?? null;

describe('validatePort (integer 1-65535)', () => {
  it.each([
    [0, 16],
    [1, null],
    [2, null],
    [65534, null],
    [65535, null],
    [65536, 16],
    [-1, 16],
    [80.5, 16],
    ['443', null],
    ['', 16],
    ['8o', 16],
    ['+443', null],
    ['10.0', 16],
    ['8.5', 16],
    ['80.0', 16],
    ['1e3', 16],
    [' 10', 16],
    ['10 ', 16],
  ] as [number | string, number | null][])('%j → %s', (value, expected) =>
    expect(code(validatePort(value))).toBe(expected),
  );

  it('messages: integer only, min-max', () => {
    expect(validatePort(1.5)?.message).toBe('Port must be an integer');
    expect(validatePort(0)?.message).toBe('Port must be between 1 and 65535');
  });
});

describe('validatePortRange (end ≥ start)', () => {
  it.each([
    [80, 79, 16],
    [80, 80, null],
    [80, 81, null],
    [0, 10, 16],
    [1, 65536, 16],
  ])('%i-%i → %s', (start, end, expected) => expect(code(validatePortRange(start, end))).toBe(expected));
});

describe('parsePortSpec', () => {
  it('single, range and list', () => {
    expect(parsePortSpec('80')).toEqual({ kind: 'single', ports: [80] });
    expect(parsePortSpec('8000-8002')).toEqual({
      kind: 'range',
      start: 8000,
      end: 8002,
      ports: [8000, 8001, 8002],
    });
    expect(parsePortSpec('8000~8001')).toMatchObject({ kind: 'range', ports: [8000, 8001] });
    expect(parsePortSpec('80;443; 8080')).toEqual({ kind: 'list', ports: [80, 443, 8080] });
  });
  it.each([
    ['80', null],
    ['1-65535', null],
    ['', 16],
    ['80-', 16],
    ['80-90-100', 16],
    ['90-80', 16],
    ['80;90-100', 16],
    ['80;90~100', 16],
    ['80;;90', 16],
    ['80;0', 16],
    ['abc', 16],
    ['80.0', 16],
    ['8.5', 16],
    ['1e3', 16],
    ['80.0-90', 16],
    ['80-90.0', 16],
    ['80;443.0', 16],
    [' 80 ', null],
    ['80; 443', null],
  ])('%j → %s', (text, expected) => expect(code(validatePortSpec(text))).toBe(expected));
  it('mixing message', () => expect(validatePortSpec('1;2-3')?.message).toMatch(/cannot be mixed/));
});

describe('validatePortMapping', () => {
  it.each([
    ['80', '8080', null],
    ['80-82', '8080-8082', null],
    ['80~82', '8080-8082', null],
    ['80;81;82', '8080;9000;9100', null],
    ['80-82', '8080-8083', 16],
    ['80-82', '8080-8081', 16],
    ['80;81', '8080', 16],
    ['80;81', '8080-8081', 16],
    ['80', '8080-8080', 16],
    ['80;80', '8080;8081', 16],
    ['80;81', '8080;8080', null],
    ['0', '8080', 16],
    ['80', '70000', 16],
    ['80.0', '8080', 16],
    ['80', '8080.0', 16],
  ])('%j → %j: %s', (internal, external, expected) =>
    expect(code(validatePortMapping(internal, external))).toBe(expected),
  );
  it('internal ports must differ', () =>
    expect(validatePortMapping('80;80', '1;2')?.message).toBe('Internal ports must differ'));
});
