import type { ImportResultView } from '@beacon/protocol';
import * as XLSX from '@e965/xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertProject, insertSeen, testSn } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';
import { sheetOf, xlsxParts, zerosDeflated } from './helpers/zip.ts';

/**
 * A hostile import file is checked before it is parsed, and parsed off the event loop
 * (src/devices/sheet-reader.ts): a zip bomb and a million-row sheet are refused with their codes
 * while the server keeps answering other requests.
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await server?.close();
});

function upload(bytes: Buffer, name = 'devices.xlsx'): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  return form;
}

const importFile = (bytes: Buffer, name?: string) =>
  owner.client.request<ImportResultView>(
    'POST',
    `/projects/${projectId}/devices/import`,
    upload(bytes, name),
  );

/**
 * Runs `work` while calling /api/v1/health back to back; answers the work's result and the slowest
 * health answer. One health call always starts together with the work.
 */
async function whileProbing<T>(
  work: () => Promise<T>,
): Promise<{ result: T; slowestMs: number; probes: number }> {
  let finished = false;
  let slowestMs = 0;
  let probes = 0;
  const probing = (async () => {
    do {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/v1/health`);
      await res.text();
      slowestMs = Math.max(slowestMs, performance.now() - started);
      probes += 1;
    } while (!finished);
  })();
  const result = await work().finally(() => {
    finished = true;
  });
  await probing;
  return { result, slowestMs, probes };
}

/** Well above a health answer on a loaded machine, far below the stalls the files caused (11-17 s). */
const PROMPT_MS = 3_000;

describe('hostile spreadsheets', () => {
  it('a zip that declares 2 GiB unpacked is refused with 5040, the server answering meanwhile', async () => {
    const bomb = { name: 'xl/media/image1.bin', deflated: zerosDeflated(2048), size: 2 ** 31 };
    const file = xlsxParts(sheetOf('<row><c t="inlineStr"><is><t>SN</t></is></c></row>'), [bomb]);
    expect(file.length).toBeLessThan(5 * 1024 * 1024);
    const { result, slowestMs } = await whileProbing(() => importFile(file));
    expect({ status: result.status, code: result.body.code }).toEqual({ status: 413, code: 5040 });
    expect(slowestMs).toBeLessThan(PROMPT_MS);
  });

  it('a zip whose entries lie about their size is refused with 5040 once it inflates past what it declared', async () => {
    const liar = { name: 'xl/media/image1.bin', deflated: zerosDeflated(2048), size: 1000 };
    const file = xlsxParts(sheetOf('<row><c t="inlineStr"><is><t>SN</t></is></c></row>'), [liar]);
    const { result, slowestMs } = await whileProbing(() => importFile(file));
    expect({ status: result.status, code: result.body.code }).toEqual({ status: 413, code: 5040 });
    expect(slowestMs).toBeLessThan(PROMPT_MS);
  });

  it('a worksheet that is itself the bomb is refused with 5040', async () => {
    const sheet = { name: 'xl/worksheets/sheet1.xml', deflated: zerosDeflated(2048), size: 2 ** 31 };
    const { result, slowestMs } = await whileProbing(() => importFile(xlsxParts(sheet)));
    expect({ status: result.status, code: result.body.code }).toEqual({ status: 413, code: 5040 });
    expect(slowestMs).toBeLessThan(PROMPT_MS);
  });

  it('a sheet of 1,000,000 rows is refused with 5020 (too many devices), the server answering meanwhile', async () => {
    const rows = Array.from({ length: 1_000_000 }, (_, i) => `<row><c><v>${i}</v></c></row>`).join('');
    const file = xlsxParts(sheetOf(rows));
    expect(file.length).toBeLessThan(5 * 1024 * 1024);
    const { result, slowestMs, probes } = await whileProbing(() => importFile(file));
    expect({ status: result.status, code: result.body.code }).toEqual({ status: 400, code: 5020 });
    expect(probes).toBeGreaterThan(0);
    expect(slowestMs).toBeLessThan(PROMPT_MS);
  });

  it('an xls of 5,000 rows is refused with 5020', async () => {
    const sheet = XLSX.utils.aoa_to_sheet(Array.from({ length: 5000 }, (_, i) => [`ROW${i}`]));
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Devices');
    const res = await importFile(
      XLSX.write(book, { type: 'buffer', bookType: 'biff8' }) as Buffer,
      'big.xls',
    );
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 5020 });
  });

  it('500 devices with blank rows between them still import', async () => {
    const sns = Array.from({ length: 500 }, () => testSn('B'));
    await Promise.all(sns.map((sn) => insertSeen(server, sn, { model: 'BA-W1200C', type: 'ap' })));
    const grid: string[][] = [['Serial number']];
    sns.forEach((sn, i) => {
      grid.push([sn]);
      if (i % 20 === 0) grid.push(['']);
    });
    const sheet = XLSX.utils.aoa_to_sheet(grid);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, sheet, 'Devices');
    const res = await importFile(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    expect(res.body.code, JSON.stringify(res.body).slice(0, 300)).toBe(0);
    expect(res.body.data).toMatchObject({ total: 500, added: 500 });
  });

  it('a 3 MB cell is echoed back as a short prefix', async () => {
    // Excel caps a cell at 32,767 characters; a hand-made file need not.
    const cell = (text: string) => `<c t="inlineStr"><is><t>${text}</t></is></c>`;
    const file = xlsxParts(
      sheetOf(
        `<row>${cell('Serial number')}${cell('Name')}</row>` +
          `<row>${cell('A'.repeat(3 * 1024 * 1024))}${cell('x')}</row>` +
          `<row>${cell('SHORT')}${cell('N'.repeat(5000))}</row>`,
      ),
    );
    const res = await importFile(file);
    expect(res.body.code, JSON.stringify(res.body).slice(0, 300)).toBe(0);
    const [first, second] = res.body.data.rows;
    expect(first).toMatchObject({ row: 2, result: 'invalid', sn: `${'A'.repeat(64)}…` });
    expect(second).toMatchObject({ row: 3, result: 'invalid', sn: 'SHORT' });
    expect(JSON.stringify(res.body).length).toBeLessThan(2_000);
  });
});
