import { describe, expect, it } from 'vitest';
import {
  fileExtension,
  isRecommendedMapRatio,
  validateFileFormat,
  validateFileSize,
  validateFirmwareFile,
  validateImageFile,
  validateImportFile,
  validateImportRows,
} from './files.ts';
import type { Check } from './result.ts';

const code = (c: Check) => c?.code ?? null;
const MB = 1024 * 1024;

describe('fileExtension', () => {
  it.each([
    ['a.XLSX', 'xlsx'],
    ['dir/a.b.bin', 'bin'],
    ['C:\\x\\fw.BIN', 'bin'],
    ['noext', ''],
    ['.hidden', ''],
    ['trailing.', ''],
  ])('%j → %j', (name, ext) => expect(fileExtension(name)).toBe(ext));
});

describe('validateFileFormat', () => {
  it.each([
    ['a.png', ['png'], null],
    ['a.PNG', ['png'], null],
    ['a.png', ['.png'], null],
    ['a.png.exe', ['png'], 5041],
    ['a', ['png'], 5041],
  ] as [string, string[], number | null][])('%j in %j → %s', (name, allowed, expected) =>
    expect(code(validateFileFormat(name, allowed))).toBe(expected),
  );
});

describe('validateImageFile (jpg, png, jpeg, gif, bmp ≤ 10 MB)', () => {
  it.each([
    ['a.jpg', 1, null],
    ['a.jpeg', 1, null],
    ['a.png', 1, null],
    ['a.gif', 1, null],
    ['a.bmp', 1, null],
    ['a.webp', 1, 5041],
    ['a.svg', 1, 5041],
    ['a.png', 10 * MB - 1, null],
    ['a.png', 10 * MB, null],
    ['a.png', 10 * MB + 1, 5017],
  ])('%j of %i bytes → %s', (name, size, expected) =>
    expect(code(validateImageFile(name, size))).toBe(expected),
  );
});

describe('validateFirmwareFile (.bin ≤ 40 MB)', () => {
  it.each([
    ['fw.bin', 40 * MB - 1, null],
    ['fw.bin', 40 * MB, null],
    ['fw.bin', 40 * MB + 1, 5040],
    ['fw.img', 1, 5041],
    ['fw.bin.zip', 1, 5041],
  ])('%j of %i bytes → %s', (name, size, expected) =>
    expect(code(validateFirmwareFile(name, size))).toBe(expected),
  );
});

describe('validateFileSize', () => {
  it.each([
    [MB, MB, null],
    [MB + 1, MB, 5040],
  ])('%i of max %i → %s', (size, max, expected) => expect(code(validateFileSize(size, max))).toBe(expected));
  it('can use the image code', () => expect(code(validateFileSize(2, 1, 5017))).toBe(5017));
});

describe('validateImportFile (xls or xlsx, 1-500 rows)', () => {
  it.each([
    ['devices.xls', undefined, null],
    ['devices.xlsx', undefined, null],
    ['devices.csv', undefined, 5041],
    ['devices.xlsx', 0, 5019],
    ['devices.xlsx', 1, null],
    ['devices.xlsx', 499, null],
    ['devices.xlsx', 500, null],
    ['devices.xlsx', 501, 5020],
    ['devices.csv', 1, 5041],
  ] as [string, number | undefined, number | null][])('%j with %s rows → %s', (name, rows, expected) =>
    expect(code(validateImportFile(name, rows))).toBe(expected),
  );
  it('rows alone', () => {
    expect(validateImportRows(501)?.message).toBe('At most 500 devices can be imported at a time');
  });
});

describe('isRecommendedMapRatio (5:3)', () => {
  it.each([
    [500, 300, true],
    [1000, 600, true],
    [1010, 600, true],
    [1100, 600, false],
    [400, 300, false],
    [0, 300, false],
  ])('%i×%i → %s', (w, h, expected) => expect(isRecommendedMapRatio(w, h)).toBe(expected));
});
