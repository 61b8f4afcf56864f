import {
  CATALOGUE_BRAND,
  DEVICE_EXPORT_COLUMNS,
  DEVICE_STATUS_NAMES,
  modelInfo,
  NO_LOCATION,
  OTHER_BRAND,
  PIVOT_DIMENSIONS,
  type PivotDimension,
  type PivotQuery,
  type PivotView,
} from '@beacon/protocol';
import * as XLSX from '@e965/xlsx';
import { and, asc, count, eq, inArray, isNotNull, type SQL } from 'drizzle-orm';
import type { Caller } from '../auth/principal.ts';
import { cloudModels, deviceState, devices, projects } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { csvLine, neutralise } from '../logs/download.ts';
import { loadProjectAccess, visibleProjectIds } from '../projects/access.ts';

/**
 * The pivot report of activated devices and the device information export (SPEC.md §1, §2;
 * docs/decisions/0055). A device is activated when it has come online at least once (first_seen_at)
 * and is bound to a project the caller may see; the query is grouped in PostgreSQL by model, type
 * and the project's location, then pivoted here (the groups are few whatever the device count).
 */

type ServiceDeps = Pick<Deps, 'database' | 'now'>;
type Group = Record<PivotDimension, string> & { count: number };

async function activatedGroups(deps: ServiceDeps, caller: Caller, projectId?: number): Promise<Group[]> {
  const db = deps.database.db;
  const where: SQL[] = [
    isNotNull(devices.firstSeenAt),
    inArray(devices.projectId, visibleProjectIds(caller.accountId, deps.now())),
  ];
  if (projectId) where.push(eq(devices.projectId, projectId));
  const rows = await db
    .select({ model: devices.model, type: devices.type, location: projects.location, count: count() })
    .from(devices)
    .innerJoin(projects, eq(projects.id, devices.projectId))
    .where(and(...where))
    .groupBy(devices.model, devices.type, projects.location);
  const uploaded = new Map(
    (await db.select({ model: cloudModels.model, brand: cloudModels.brand }).from(cloudModels)).map((r) => [
      r.model.toUpperCase(),
      r.brand,
    ]),
  );
  const brandOf = (model: string) =>
    modelInfo(model) ? CATALOGUE_BRAND : (uploaded.get(model.toUpperCase()) ?? OTHER_BRAND);
  return rows.map((r) => ({
    brand: brandOf(r.model),
    type: r.type,
    model: r.model,
    location: r.location.trim() || NO_LOCATION,
    count: Number(r.count),
  }));
}

const sorted = (values: Iterable<string>) => [...new Set(values)].sort((a, b) => a.localeCompare(b));

export async function pivot(deps: ServiceDeps, caller: Caller, query: PivotQuery): Promise<PivotView> {
  const groups = await activatedGroups(deps, caller, query.projectId);
  const options = Object.fromEntries(
    PIVOT_DIMENSIONS.map((d) => [d, sorted(groups.map((g) => g[d]))]),
  ) as PivotView['options'];
  const kept = groups.filter((g) => PIVOT_DIMENSIONS.every((d) => !query[d] || g[d] === query[d]));
  const columns = sorted(kept.map((g) => g[query.columns]));
  const rows = new Map<string, { cells: Record<string, number>; total: number }>();
  const columnTotals: Record<string, number> = {};
  let total = 0;
  for (const g of kept) {
    const key = g[query.rows];
    const col = g[query.columns];
    const row = rows.get(key) ?? { cells: {}, total: 0 };
    row.cells[col] = (row.cells[col] ?? 0) + g.count;
    row.total += g.count;
    rows.set(key, row);
    columnTotals[col] = (columnTotals[col] ?? 0) + g.count;
    total += g.count;
  }
  return {
    rows: sorted(rows.keys()).map((key) => ({ key, ...rows.get(key)! })),
    columns,
    columnTotals,
    total,
    options,
  };
}

const DIMENSION_NAMES: Record<PivotDimension, string> = {
  brand: 'Brand',
  type: 'Type',
  model: 'Model',
  location: 'Location',
};

export async function pivotWorkbook(deps: ServiceDeps, caller: Caller, query: PivotQuery): Promise<Buffer> {
  const view = await pivot(deps, caller, query);
  const header = [
    `${DIMENSION_NAMES[query.rows]} \\ ${DIMENSION_NAMES[query.columns]}`,
    ...view.columns,
    'Total',
  ];
  const body = view.rows.map((r) => [
    neutralise(r.key),
    ...view.columns.map((c) => r.cells[c] ?? 0),
    r.total,
  ]);
  const totals = ['Total', ...view.columns.map((c) => view.columnTotals[c] ?? 0), view.total];
  const sheet = XLSX.utils.aoa_to_sheet([header.map(neutralise), ...body, totals]);
  sheet['!cols'] = header.map((_, i) => ({ wch: i === 0 ? 24 : 14 }));
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Activated devices');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

/** The project's devices' base information (read access to the project), at most one row per device. */
export async function deviceExport(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  format: 'xlsx' | 'csv',
): Promise<{ body: Buffer | string; contentType: string; filename: string }> {
  const db = deps.database.db;
  const access = await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const rows = await db
    .select({
      name: devices.name,
      model: devices.model,
      type: devices.type,
      mac: devices.mac,
      sn: devices.sn,
      firmware: deviceState.firmware,
      ip: deviceState.ip,
      status: deviceState.status,
    })
    .from(devices)
    .innerJoin(deviceState, eq(deviceState.sn, devices.sn))
    .where(eq(devices.projectId, projectId))
    .orderBy(asc(devices.name), asc(devices.sn));
  const project = access.project.name;
  const cells = rows.map((r) => [
    r.name,
    r.model,
    r.type,
    r.mac ?? '',
    r.sn,
    r.firmware ?? '',
    r.ip ?? '',
    DEVICE_STATUS_NAMES[r.status] ?? String(r.status),
    project,
  ]);
  const stamp = deps.now().toISOString().slice(0, 10);
  if (format === 'csv') {
    return {
      body: `\ufeff${csvLine([...DEVICE_EXPORT_COLUMNS])}${cells.map(csvLine).join('')}`,
      contentType: 'text/csv; charset=utf-8',
      filename: `devices-${projectId}-${stamp}.csv`,
    };
  }
  const sheet = XLSX.utils.aoa_to_sheet([[...DEVICE_EXPORT_COLUMNS], ...cells.map((c) => c.map(neutralise))]);
  sheet['!cols'] = DEVICE_EXPORT_COLUMNS.map((c) => ({ wch: c === 'Name' || c === 'Project' ? 24 : 18 }));
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, sheet, 'Devices');
  return {
    body: XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer,
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    filename: `devices-${projectId}-${stamp}.xlsx`,
  };
}
