import {
  AUDIT_RETENTION_DAYS,
  type AuditLogDownloadQuery,
  type AuditLogQuery,
  type AuditView,
  DEFAULT_LOG_RETENTION_DAYS,
  type DeviceLogDownloadQuery,
  type DeviceLogQuery,
  type DeviceLogView,
  LIMITS,
  LOG_RETENTION_DAYS,
  type LogSettingsBody,
  type LogSettingsView,
} from '@beacon/protocol';
import { and, asc, count, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { Caller } from '../auth/principal.ts';
import type { DbOrTx } from '../db/client.ts';
import { pageWindow, withTotal } from '../db/paging.ts';
import { auditLog, deviceEvents, devices, projectLogSettings } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { loadProjectAccess } from '../projects/access.ts';
import { withProjectWrite } from '../projects/write.ts';

/**
 * The Log screen's reads and its one write (docs/decisions/0036-logs.md): device events and audit
 * rows of a project, filtered by time, device and type, paged; the retention setting. Downloads
 * (download.ts) reuse the same filters.
 */

type Paged<T> = { items: T[]; total: number; page: number; pageSize: number };
type ServiceDeps = Pick<Deps, 'database' | 'now'>;

interface Range {
  from?: string;
  to?: string;
}

export function deviceLogWhere(
  projectId: number,
  q: Range & { sn?: string; type?: string; level?: string },
): SQL {
  const conditions: (SQL | undefined)[] = [eq(deviceEvents.projectId, projectId)];
  if (q.from) conditions.push(gte(deviceEvents.at, new Date(q.from)));
  if (q.to) conditions.push(lte(deviceEvents.at, new Date(q.to)));
  if (q.sn) conditions.push(eq(deviceEvents.sn, q.sn));
  if (q.type) conditions.push(eq(deviceEvents.event, q.type));
  if (q.level) conditions.push(eq(deviceEvents.level, q.level));
  return and(...conditions) as SQL;
}

export function auditLogWhere(projectId: number, q: Range & { sn?: string; type?: string }): SQL {
  const conditions: (SQL | undefined)[] = [eq(auditLog.projectId, projectId)];
  if (q.from) conditions.push(gte(auditLog.at, new Date(q.from)));
  if (q.to) conditions.push(lte(auditLog.at, new Date(q.to)));
  if (q.sn) conditions.push(eq(auditLog.entityId, q.sn));
  if (q.type) conditions.push(eq(auditLog.action, q.type));
  return and(...conditions) as SQL;
}

/** Device events with the device's name in the project (left join: a device may have left it). */
export function selectDeviceLog(db: DbOrTx, where: SQL, order: 'asc' | 'desc' = 'desc') {
  const by = order === 'asc' ? asc : desc;
  return db
    .select({
      id: deviceEvents.id,
      at: deviceEvents.at,
      receivedAt: deviceEvents.receivedAt,
      sn: deviceEvents.sn,
      deviceName: devices.name,
      eventId: deviceEvents.eventId,
      event: deviceEvents.event,
      level: deviceEvents.level,
      message: deviceEvents.message,
      data: deviceEvents.data,
    })
    .from(deviceEvents)
    .leftJoin(devices, and(eq(devices.sn, deviceEvents.sn), eq(devices.projectId, deviceEvents.projectId)))
    .where(where)
    .orderBy(by(deviceEvents.at), by(deviceEvents.id));
}

export function selectAuditLog(db: DbOrTx, where: SQL, order: 'asc' | 'desc' = 'desc') {
  const by = order === 'asc' ? asc : desc;
  return db.select().from(auditLog).where(where).orderBy(by(auditLog.at), by(auditLog.id));
}

type DeviceLogRow = Awaited<ReturnType<typeof selectDeviceLog>>[number];
type AuditRow = typeof auditLog.$inferSelect;

export function toDeviceLogView(row: DeviceLogRow): DeviceLogView {
  return {
    id: row.id,
    at: row.at.toISOString(),
    receivedAt: row.receivedAt.toISOString(),
    sn: row.sn,
    deviceName: row.deviceName ?? '',
    eventId: row.eventId,
    event: row.event,
    level: row.level,
    message: row.message,
    data: (row.data ?? null) as Record<string, unknown> | null,
  };
}

export function toAuditView(row: AuditRow): AuditView {
  return {
    id: row.id,
    at: row.at.toISOString(),
    account: row.accountName,
    action: row.action,
    entity: row.entity,
    entityId: row.entityId,
    before: row.before ?? null,
    after: row.after ?? null,
  };
}

export async function listDeviceLogs(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  query: DeviceLogQuery,
): Promise<Paged<DeviceLogView>> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const where = deviceLogWhere(projectId, query);
  const { limit, offset } = pageWindow(query);
  const { rows, total } = await withTotal(
    selectDeviceLog(db, where, query.order).limit(limit).offset(offset),
    db.select({ n: count() }).from(deviceEvents).where(where),
  );
  return { items: rows.map(toDeviceLogView), total, page: query.page, pageSize: query.pageSize };
}

export async function listAuditLogs(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  query: AuditLogQuery,
): Promise<Paged<AuditView>> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const where = auditLogWhere(projectId, query);
  const { limit, offset } = pageWindow(query);
  const { rows, total } = await withTotal(
    selectAuditLog(db, where, query.order).limit(limit).offset(offset),
    db.select({ n: count() }).from(auditLog).where(where),
  );
  return { items: rows.map(toAuditView), total, page: query.page, pageSize: query.pageSize };
}

function settingsView(retentionDays: number): LogSettingsView {
  return {
    retentionDays,
    choices: [...LOG_RETENTION_DAYS],
    auditRetentionDays: AUDIT_RETENTION_DAYS,
    maxDownloadRows: LIMITS.LOGS_PER_DOWNLOAD,
  };
}

async function retentionOf(db: DbOrTx, projectId: number): Promise<number> {
  const [row] = await db
    .select({ days: projectLogSettings.retentionDays })
    .from(projectLogSettings)
    .where(eq(projectLogSettings.projectId, projectId));
  return row?.days ?? DEFAULT_LOG_RETENTION_DAYS;
}

export async function getLogSettings(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
): Promise<LogSettingsView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  return settingsView(await retentionOf(db, projectId));
}

export async function putLogSettings(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  body: LogSettingsBody,
): Promise<LogSettingsView> {
  return withProjectWrite(deps, caller, projectId, async ({ tx, now, audit }) => {
    const before = await retentionOf(tx, projectId);
    await tx
      .insert(projectLogSettings)
      .values({ projectId, retentionDays: body.retentionDays, updatedAt: now })
      .onConflictDoUpdate({
        target: projectLogSettings.projectId,
        set: { retentionDays: body.retentionDays, updatedAt: now },
      });
    audit({
      action: 'update',
      entity: 'log-settings',
      entityId: projectId,
      before: { retentionDays: before },
      after: { retentionDays: body.retentionDays },
    });
    return settingsView(body.retentionDays);
  });
}

/** Read access for a download (checked before the first byte is sent). */
export async function checkLogReadable(deps: ServiceDeps, caller: Caller, projectId: number): Promise<void> {
  await loadProjectAccess(deps.database.db, caller, projectId, { now: deps.now() });
}

export type { AuditLogDownloadQuery, DeviceLogDownloadQuery };
