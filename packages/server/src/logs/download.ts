import { PassThrough, Readable } from 'node:stream';
import { LIMITS, type LogDownloadFormat } from '@beacon/protocol';
import type { SQL } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import type { Database } from '../db/client.ts';
import { auditLogWhere, deviceLogWhere, selectAuditLog, selectDeviceLog } from './service.ts';

/**
 * Log downloads (SPEC.md §9: at most 50,000 rows), streamed: rows come from a server-side cursor
 * (DECLARE … CURSOR, FETCH in batches) on a connection of its own, and each batch is written out
 * before the next is fetched, so neither the rows nor the file are ever whole in memory. CSV is
 * written by hand (RFC 4180 quoting); xlsx by exceljs's streaming WorkbookWriter. Every text cell
 * is neutralised against spreadsheet formula injection (a leading =, +, -, @, tab or CR gets a ').
 */

const BATCH = 1000;

/** A cell a spreadsheet would read as a formula gets a leading apostrophe (OWASP CSV injection). */
export function neutralise(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function csvCell(value: string): string {
  const safe = neutralise(value);
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

export function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

interface Sheet {
  name: string;
  header: string[];
  /** The query (drizzle, with its filter and order); the limit is added here. */
  query: { toSQL(): { sql: string; params: unknown[] } };
  /** One raw row (as PostgreSQL answers it, column names in snake_case) to its cells. */
  cells(row: Record<string, unknown>): string[];
}

/** Reads the query's rows in batches from a cursor (at most LOGS_PER_DOWNLOAD). */
async function* cursorRows(
  database: Database,
  query: Sheet['query'],
): AsyncGenerator<Record<string, unknown>[]> {
  const { sql, params } = query.toSQL();
  const client = await database.pool.connect();
  let ok = false;
  try {
    await client.query('begin read only');
    await client.query(
      `declare log_download no scroll cursor for ${sql} limit ${LIMITS.LOGS_PER_DOWNLOAD}`,
      params,
    );
    for (;;) {
      const { rows } = await client.query({ text: `fetch ${BATCH} from log_download`, rowMode: 'array' });
      if (rows.length === 0) break;
      yield rows as unknown as Record<string, unknown>[];
      if (rows.length < BATCH) break;
    }
    await client.query('commit');
    ok = true;
  } finally {
    if (!ok) await client.query('rollback').catch(() => {});
    client.release();
  }
}

const iso = (v: unknown) =>
  v instanceof Date ? v.toISOString() : v == null ? '' : new Date(String(v)).toISOString();
const text = (v: unknown) => (v == null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** Column positions follow the select lists of selectDeviceLog and selectAuditLog. */
function deviceSheet(
  projectId: number,
  database: Database,
  filter: Parameters<typeof deviceLogWhere>[1],
): Sheet {
  return {
    name: 'Device log',
    header: ['Time (UTC)', 'Device SN', 'Device name', 'Event', 'Level', 'Message', 'Data'],
    query: selectDeviceLog(database.db, deviceLogWhere(projectId, filter) as SQL),
    cells: (r) => {
      const a = r as unknown as unknown[];
      // id, at, received_at, sn, name, event_id, event, level, message, data
      return [iso(a[1]), text(a[3]), text(a[4]), text(a[6]), text(a[7]), text(a[8]), text(a[9])];
    },
  };
}

function auditSheet(
  projectId: number,
  database: Database,
  filter: Parameters<typeof auditLogWhere>[1],
): Sheet {
  return {
    name: 'Audit log',
    header: ['Time (UTC)', 'Account', 'Action', 'Entity', 'Entity id', 'Before', 'After'],
    query: selectAuditLog(database.db, auditLogWhere(projectId, filter) as SQL),
    cells: (r) => {
      const a = r as unknown as unknown[];
      // id, at, account_id, account_name, project_id, action, entity, entity_id, before, after, request_id
      return [iso(a[1]), text(a[3]), text(a[5]), text(a[6]), text(a[7]), text(a[8]), text(a[9])];
    },
  };
}

async function* csvChunks(database: Database, sheet: Sheet): AsyncGenerator<string> {
  // A byte-order mark so that Excel reads the file as UTF-8.
  yield `\uFEFF${csvLine(sheet.header)}`;
  for await (const batch of cursorRows(database, sheet.query)) {
    yield batch.map((row) => csvLine(sheet.cells(row))).join('');
  }
}

function drainedOrClosed(stream: PassThrough): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

function xlsxStream(database: Database, sheet: Sheet): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useSharedStrings: false,
    useStyles: false,
  });
  const worksheet = workbook.addWorksheet(sheet.name);
  void (async () => {
    try {
      worksheet.addRow(sheet.header).commit();
      for await (const batch of cursorRows(database, sheet.query)) {
        for (const row of batch) worksheet.addRow(sheet.cells(row).map(neutralise)).commit();
        // Back-pressure: fetch the next batch only once the client has taken what was written.
        // A client that went away ends the loop (the cursor's connection is released).
        if (out.writableNeedDrain) await drainedOrClosed(out);
        if (out.destroyed) return;
      }
      worksheet.commit();
      await workbook.commit();
    } catch (err) {
      out.destroy(err as Error);
    }
  })();
  return out;
}

export interface Download {
  filename: string;
  contentType: string;
  body: Readable;
}

export function downloadLog(
  database: Database,
  kind: 'device' | 'audit',
  projectId: number,
  filter: Parameters<typeof deviceLogWhere>[1] & { format: LogDownloadFormat },
  now: Date,
): Download {
  const sheet =
    kind === 'device' ? deviceSheet(projectId, database, filter) : auditSheet(projectId, database, filter);
  const stamp = now.toISOString().slice(0, 10);
  const filename = `${kind}-log-${projectId}-${stamp}.${filter.format}`;
  if (filter.format === 'xlsx') {
    return {
      filename,
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      body: xlsxStream(database, sheet),
    };
  }
  return {
    filename,
    contentType: 'text/csv; charset=utf-8',
    body: Readable.from(csvChunks(database, sheet)),
  };
}
