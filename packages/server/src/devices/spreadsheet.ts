import {
  AppError,
  Codes,
  IMPORT_COLUMNS,
  LIMITS,
  validateImportFile,
  validateImportRows,
} from '@beacon/protocol';
import * as XLSX from '@e965/xlsx';
import { readSheet } from './sheet-reader.ts';

/**
 * The batch-import spreadsheet (SPEC.md §5: xls or xlsx, at most 500 devices). Read with SheetJS
 * (@e965/xlsx 0.20.3, DESIGN.md). The first sheet is read; its first row is a header when it names
 * the columns (Serial number / SN, Model, Name, Remark, in any order), else column A holds serial
 * numbers from row 1. Empty rows are skipped.
 */

export interface ImportRow {
  /** Row number in the sheet (1-based, as a spreadsheet shows it). */
  row: number;
  sn: string;
  model: string;
  name: string;
  remark: string;
}

const HEADERS: Record<string, keyof Omit<ImportRow, 'row'>> = {
  'serial number': 'sn',
  serial: 'sn',
  sn: 'sn',
  'serial no': 'sn',
  model: 'model',
  name: 'name',
  'device name': 'name',
  remark: 'remark',
  remarks: 'remark',
};

const cell = (v: unknown): string => (v === null || v === undefined ? '' : String(v).trim());

const mb = (bytes: number) => bytes / (1024 * 1024);

/**
 * Parses the uploaded file: 5041 wrong extension, 5018 unreadable, 5019 no rows, 5020 over 500,
 * 5040 unpacks to more than LIMITS.IMPORT_MAX_UNPACKED_BYTES. The file is checked (kind, unpacked
 * size, row count) before it is parsed, and read on a worker thread (sheet-reader.ts).
 */
export async function parseImportFile(fileName: string, bytes: Buffer): Promise<ImportRow[]> {
  const format = validateImportFile(fileName);
  if (format) throw new AppError(format.code, format.message, { file: format.message });
  // Only real workbooks: xlsx is a ZIP container, xls an OLE2 compound file (SheetJS would read
  // plain text as CSV).
  const zip = bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  const cfb = bytes.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
  const read = zip || cfb ? await readSheet(bytes) : ({ error: 'unreadable' } as const);
  if ('error' in read) {
    if (read.error === 'too-many-rows') {
      const count = validateImportRows(LIMITS.DEVICES_PER_IMPORT + 1)!;
      throw new AppError(count.code, count.message, { file: count.message });
    }
    if (read.error === 'too-large') {
      const message = `The spreadsheet unpacks to more than ${mb(LIMITS.IMPORT_MAX_UNPACKED_BYTES)} MB`;
      throw new AppError(Codes.FILE_TOO_LARGE, message, { file: message });
    }
    throw new AppError(Codes.INVALID_EXCEL, undefined, { file: 'The file is not a readable Excel file' });
  }
  const { grid } = read;

  let columns: Partial<Record<keyof Omit<ImportRow, 'row'>, number>> = {
    sn: 0,
    model: 1,
    name: 2,
    remark: 3,
  };
  let first = 0;
  const header = (grid[0] ?? []).map((v) => cell(v).toLowerCase());
  const named = header.map((h) => HEADERS[h]);
  if (named.includes('sn')) {
    columns = {};
    named.forEach((key, i) => {
      if (key && columns[key] === undefined) columns[key] = i;
    });
    first = 1;
  }
  const rows: ImportRow[] = [];
  for (let i = first; i < grid.length; i++) {
    const line = (grid[i] ?? []) as unknown[];
    const get = (key: keyof Omit<ImportRow, 'row'>) => {
      const index = columns[key];
      return index === undefined ? '' : cell(line[index]);
    };
    const row = { row: i + 1, sn: get('sn'), model: get('model'), name: get('name'), remark: get('remark') };
    if (!row.sn && !row.model && !row.name && !row.remark) continue;
    rows.push(row);
  }
  const count = validateImportRows(rows.length);
  if (count) throw new AppError(count.code, count.message, { file: count.message });
  return rows;
}

/** The downloadable template: the header row and two example rows, as xlsx. */
export function importTemplate(): Buffer {
  const sheet = XLSX.utils.aoa_to_sheet([
    [...IMPORT_COLUMNS],
    ['BCN0AP0000000001', 'BA-W1200C', 'Lobby-AP', 'Ground floor'],
    ['BCN0SW0000000001', '', 'Core-switch', ''],
  ]);
  sheet['!cols'] = [{ wch: 34 }, { wch: 14 }, { wch: 20 }, { wch: 24 }];
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Devices');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}
