// Reads import spreadsheets in a worker thread (src/devices/sheet-reader.ts), so a hostile file
// costs this thread's time and memory, never the server's event loop. Plain JavaScript: the server
// runs TypeScript through tsx, which a worker thread does not inherit under every runner.
//
// workerData: { maxRows, maxUnpackedBytes, maxEntries }. Messages in: one file's bytes (xlsx or xls)
// at a time; one message out for each: { grid } (rows of cell texts, at most maxRows) or { error } with one of
// 'too-large' (unpacks to more than maxUnpackedBytes), 'too-many-rows', 'unreadable'.
import { parentPort, workerData } from 'node:worker_threads';
import * as XLSX from '@e965/xlsx';
import yauzl from 'yauzl';

const { maxRows, maxUnpackedBytes, maxEntries } = workerData;

class Refusal extends Error {}

/** Serial number, model, name, remark and room for other columns a template may carry. */
const MAX_COLUMNS = 64;

const isZip = (bytes) => bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
const WORKSHEET = /^xl\/worksheets\/[^/]+\.xml$/i;
// A row element, with or without a namespace prefix (<row …>, <x:row …>).
const ROW_TAG = /<(?:[A-Za-z_][\w.-]*:)?row[\s>/]/g;

/** Inflates one entry, handing each piece to `onChunk`; stops when it returns false. */
async function stream(zip, entry, onChunk) {
  const input = await zip.openReadStreamPromise(entry);
  try {
    for await (const chunk of input) if (onChunk(chunk) === false) break;
  } catch (err) {
    // yauzl stops an entry that inflates to more than its declared size.
    if (/too many bytes/.test(String(err?.message))) throw new Refusal('too-large');
    throw err;
  } finally {
    input.destroy();
  }
}

/** Rows of a worksheet, counted while it inflates: stops past maxRows or maxUnpackedBytes. */
async function countRows(zip, entry) {
  let rows = 0;
  let bytes = 0;
  let carry = '';
  await stream(zip, entry, (chunk) => {
    bytes += chunk.length;
    if (bytes > maxUnpackedBytes) throw new Refusal('too-large');
    const text = carry + chunk.toString('latin1');
    rows += text.match(ROW_TAG)?.length ?? 0;
    // Keep a tag cut in two by the chunk boundary for the next piece, without counting it twice.
    const cut = text.lastIndexOf('<');
    carry = cut >= 0 && text.length - cut < 64 && !text.slice(cut).includes('>') ? text.slice(cut) : '';
    if (carry) rows -= carry.match(ROW_TAG)?.length ?? 0;
    return rows <= maxRows;
  });
  return rows;
}

/**
 * The zip's central directory is read before anything is inflated: too many entries or a declared
 * unpacked size over the limit is refused at once. Worksheets are then scanned for their row count
 * (a long sheet is "too many devices" whatever its size), and every entry is inflated once under
 * the limit, since declared sizes can lie.
 */
async function inspectZip(bytes) {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, autoClose: false });
  try {
    const entries = [];
    for await (const entry of zip.eachEntry()) {
      if (entries.length >= maxEntries) throw new Refusal('too-large');
      entries.push(entry);
    }
    for (const entry of entries.filter((e) => WORKSHEET.test(e.fileName))) {
      if ((await countRows(zip, entry)) > maxRows) throw new Refusal('too-many-rows');
    }
    const declared = entries.reduce((sum, e) => sum + e.uncompressedSize, 0);
    if (declared > maxUnpackedBytes) throw new Refusal('too-large');
    let actual = 0;
    for (const entry of entries) {
      if (entry.fileName.endsWith('/')) continue;
      await stream(zip, entry, (chunk) => {
        actual += chunk.length;
        if (actual > maxUnpackedBytes) throw new Refusal('too-large');
      });
    }
  } finally {
    zip.close();
  }
}

async function read(bytes) {
  if (isZip(bytes)) await inspectZip(bytes);
  const book = XLSX.read(bytes, {
    type: 'buffer',
    dense: true,
    sheets: 0,
    // One more than allowed, to tell "exactly at the limit" from "over it".
    sheetRows: maxRows + 1,
    cellFormula: false,
    cellHTML: false,
    cellStyles: false,
  });
  const sheet = book.SheetNames.length ? book.Sheets[book.SheetNames[0]] : undefined;
  if (!sheet) throw new Refusal('unreadable');
  if (!sheet['!ref']) return [];
  // The used range comes from the file: a sheet claiming 16,384 columns is read as its first few.
  const range = XLSX.utils.decode_range(sheet['!ref']);
  range.e.c = Math.min(range.e.c, range.s.c + MAX_COLUMNS - 1);
  const grid = XLSX.utils.sheet_to_json(sheet, { header: 1, blankrows: true, defval: '', raw: false, range });
  if (grid.length > maxRows) throw new Refusal('too-many-rows');
  return grid;
}

parentPort.on('message', async (bytes) => {
  try {
    parentPort.postMessage({ grid: await read(Buffer.from(bytes)) });
  } catch (err) {
    parentPort.postMessage({ error: err instanceof Refusal ? err.message : 'unreadable' });
  }
});
