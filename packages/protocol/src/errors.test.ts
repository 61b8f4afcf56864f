import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AppError,
  Codes,
  ERROR_CATALOGUE,
  errorMessage,
  fail,
  httpStatusFor,
  isKnownCode,
} from './errors.ts';

/** Every code SPEC.md §8 names by number. */
const SPEC_CODES = [
  0, -99, 404, 2000, 2010, 3000, 3001, 3002, 1, 2, 3, 7, 4, 5, 17, 6, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19,
  20, 21, 22, 23, 24, 25, 26, 27, 28, 30, 31, 34, 36, 37, 38, 40, 47, 50, 51, 52, 53, 59, 61, 62, 63, 64, 69,
  70, 71, 73, 74, 75, 76, 79, 80, 85, 88, 89, 91, 92, 93, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110,
  111, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 135, 136, 164, 165,
  320, 321, 410, 414, 2101, 2102, 2103,
];

describe('error catalogue', () => {
  it.each(SPEC_CODES)('code %i is in the catalogue with a message and an HTTP status', (code) => {
    expect(isKnownCode(code)).toBe(true);
    expect(errorMessage(code)).not.toMatch(/^Unknown error code/);
    expect(errorMessage(code).length).toBeGreaterThan(0);
    const status = httpStatusFor(code);
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(600);
  });

  it.each([8, 999, 5000, 99999, -1])('unknown code %i reads "Unknown error code N"', (code) => {
    expect(isKnownCode(code)).toBe(false);
    expect(errorMessage(code)).toBe(`Unknown error code ${code}`);
    expect(httpStatusFor(code)).toBe(500);
  });

  it('every message is non-empty and every status is an HTTP status', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      expect(entry.message.trim(), `code ${code}`).not.toBe('');
      expect(entry.status).toBeGreaterThanOrEqual(200);
      expect(entry.status).toBeLessThan(600);
    }
  });

  it('every named code is in the catalogue', () => {
    for (const [name, code] of Object.entries(Codes)) expect(isKnownCode(code), name).toBe(true);
  });

  it('keeps the fixed numbers', () => {
    expect(Codes.FORM_DATA).toBe(16);
    expect(Codes.FILE_FORMAT).toBe(5041);
    expect(Codes.FILE_TOO_LARGE).toBe(5040);
    expect(Codes.IMAGE_TOO_LARGE).toBe(5017);
    expect(Codes.SEGMENT_CLASH).toBe(5042);
    // Names given to numbers the server used bare; naming them renumbers nothing.
    expect(Codes.MODEL).toBe(2);
    expect(Codes.NO_CONFIG_FILE).toBe(31);
    expect(Codes.REMOTE_FAILED).toBe(320);
    expect(Codes.REMOTE_LOGIN_TIMEOUT).toBe(321);
    expect(Codes.BIND_FAILED).toBe(5006);
    expect(Codes.REMOTE_URL_FAILED).toBe(5023);
    expect(Codes.REMOTE_AUTH_TIMEOUT).toBe(5024);
    expect(Codes.COMMAND_TIMEOUT).toBe(5025);
    expect(errorMessage(0)).toBe('Success');
  });

  it('fail and AppError carry the catalogue message unless given one', () => {
    expect(fail(16)).toEqual({ code: 16, message: 'Form data error' });
    expect(fail(16, 'x', { a: 'b' })).toEqual({ code: 16, message: 'x', fields: { a: 'b' } });
    const error = new AppError(36);
    expect(error.message).toBe('The device is offline');
    expect(error.status).toBe(409);
  });
});

describe('SPEC.md §8 solution generator messages (no numbers in SPEC.md; ours from 5048)', () => {
  it.each([
    ['SOLUTION_INPUT', 5048, 'Incorrect client count, broadband or bandwidth', 400],
    ['SOLUTION_EDIT_ORDER', 5049, 'Edit the core switch first, then the access switch', 409],
    ['SOLUTION_SWITCHES_OUTNUMBER_APS', 5050, 'The switches outnumber the APs', 400],
    ['SOLUTION_NO_DEVICE_TYPE', 5051, 'Device type not selected', 400],
    ['SOLUTION_NO_PLAN', 5052, 'No matching plan', 409],
  ] as const)('%s is %i: "%s" (%i)', (name, code, message, status) => {
    expect((Codes as Record<string, number>)[name]).toBe(code);
    expect(errorMessage(code)).toBe(message);
    expect(httpStatusFor(code)).toBe(status);
  });

  it('leaves the codes before them as they were', () => {
    expect(errorMessage(5047)).toBe('The API key limit has been reached');
    expect(Codes.API_KEY_LIMIT).toBe(5047);
  });
});

describe('docs/error-codes.md', () => {
  const doc = readFileSync(new URL('../../../docs/error-codes.md', import.meta.url), 'utf8');
  const rows = new Map(
    [...doc.matchAll(/^\|\s*(\d+)\s*\|\s*(.+?)\s*\|\s*(\d+)\s*\|/gm)].map((m) => [
      Number(m[1]),
      { message: m[2], status: Number(m[3]) },
    ]),
  );
  const ours = Object.entries(ERROR_CATALOGUE).filter(([code]) => Number(code) >= 5000);

  it('lists every code >= 5000 with the catalogue message and status, and no other', () => {
    expect([...rows.keys()].sort((a, b) => a - b)).toEqual(
      ours.map(([code]) => Number(code)).sort((a, b) => a - b),
    );
    for (const [code, entry] of ours) expect(rows.get(Number(code)), code).toEqual(entry);
  });
});
