import { BackupSyncState, BackupType, type BackupView, LIMITS, NetMode } from '@beacon/protocol';
import { and, asc, count, desc, eq, getTableColumns, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { configBackups, devices } from '../db/schema.ts';

/** Queries of the backups domain (docs/decisions/0049); the service decides, this reads and writes. */

export type BackupRow = typeof configBackups.$inferSelect;

/** Every column but the file itself: lists and views never read `content`. */
const { content: _content, ...metaColumns } = getTableColumns(configBackups);
export const backupMeta = metaColumns;
export type BackupMeta = Omit<BackupRow, 'content'>;

export const isWlan = (project: { netMode: number }) => project.netMode === NetMode.WLAN;

export function backupView(row: BackupMeta & { deviceName?: string | null }): BackupView {
  return {
    id: row.id,
    fileName: row.fileName,
    sn: row.sn,
    deviceName: row.deviceName ?? '',
    model: row.model,
    mac: row.mac,
    type: row.type,
    trigger: row.trigger,
    size: row.size,
    status: row.status,
    code: row.code,
    message: row.message,
    revision: row.revision,
    configHash: row.configHash,
    checksum: row.checksum,
    requestedAt: row.requestedAt.toISOString(),
    takenAt: row.takenAt?.toISOString() ?? null,
  };
}

/** A backup's metadata with the device's name in the project now ('' when it left). */
export function selectBackups(db: DbOrTx) {
  return db
    .select({ ...backupMeta, deviceName: devices.name })
    .from(configBackups)
    .leftJoin(devices, and(eq(devices.sn, configBackups.sn), eq(devices.projectId, configBackups.projectId)));
}

export async function findBackup(db: DbOrTx, projectId: number, id: number) {
  const [row] = await selectBackups(db).where(
    and(eq(configBackups.projectId, projectId), eq(configBackups.id, id)),
  );
  return row;
}

/** General backups that count against the 128 (kept or on their way; failed ones hold nothing). */
export async function generalCount(db: DbOrTx, projectId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(configBackups)
    .where(
      and(
        eq(configBackups.projectId, projectId),
        eq(configBackups.type, BackupType.GENERAL),
        ne(configBackups.status, BackupSyncState.FAILED),
      ),
    );
  return row.n;
}

/** The synchronized general backups the next ones overwrite, oldest first. */
export async function oldestGeneral(db: DbOrTx, projectId: number, limit: number) {
  return db
    .select({ id: configBackups.id, fileName: configBackups.fileName, sn: configBackups.sn })
    .from(configBackups)
    .where(
      and(
        eq(configBackups.projectId, projectId),
        eq(configBackups.type, BackupType.GENERAL),
        eq(configBackups.status, BackupSyncState.SYNCHRONIZED),
      ),
    )
    .orderBy(asc(configBackups.requestedAt), asc(configBackups.id))
    .limit(limit);
}

/**
 * Deletes the oldest synchronized general backups of a project beyond the 128 (SPEC.md §9: the
 * oldest is overwritten) and answers what went, for the audit.
 */
export async function pruneGeneral(
  tx: DbOrTx,
  projectId: number,
): Promise<{ id: number; fileName: string; sn: string }[]> {
  const kept = await generalCount(tx, projectId);
  const over = kept - LIMITS.CLOUD_BACKUPS;
  if (over <= 0) return [];
  const victims = await oldestGeneral(tx, projectId, over);
  if (victims.length === 0) return [];
  await tx.delete(configBackups).where(
    inArray(
      configBackups.id,
      victims.map((v) => v.id),
    ),
  );
  return victims;
}

/** The device's synchronized restore point in the project, if any. */
export async function restorePointOf(db: DbOrTx, projectId: number, sn: string) {
  const [row] = await db
    .select({ id: configBackups.id, fileName: configBackups.fileName })
    .from(configBackups)
    .where(
      and(
        eq(configBackups.projectId, projectId),
        eq(configBackups.sn, sn),
        eq(configBackups.type, BackupType.RESTORE_POINT),
        eq(configBackups.status, BackupSyncState.SYNCHRONIZED),
      ),
    );
  return row;
}

/** Which of these devices have a synchronized restore point in the project (one query). */
export async function withRestorePoint(
  db: DbOrTx,
  projectId: number,
  sns: readonly string[],
): Promise<Set<string>> {
  if (sns.length === 0) return new Set();
  const rows = await db
    .select({ sn: configBackups.sn })
    .from(configBackups)
    .where(
      and(
        eq(configBackups.projectId, projectId),
        inArray(configBackups.sn, [...sns]),
        eq(configBackups.type, BackupType.RESTORE_POINT),
        eq(configBackups.status, BackupSyncState.SYNCHRONIZED),
      ),
    );
  return new Set(rows.map((r) => r.sn));
}

/**
 * For each device, when its latest backup that counts for the 3-minute interval was requested
 * (SPEC.md §9): a manual request counts every backup that did not fail.
 */
export async function lastBackupTimes(
  db: DbOrTx,
  projectId: number,
  sns: readonly string[],
): Promise<Map<string, Date>> {
  if (sns.length === 0) return new Map();
  const rows = await db
    .select({
      sn: configBackups.sn,
      at: sql<Date>`max(${configBackups.requestedAt})`.mapWith((v) => new Date(v)),
    })
    .from(configBackups)
    .where(
      and(
        eq(configBackups.projectId, projectId),
        inArray(configBackups.sn, [...sns]),
        ne(configBackups.status, BackupSyncState.FAILED),
        ne(configBackups.trigger, 'upload'),
      ),
    )
    .groupBy(configBackups.sn);
  return new Map(rows.map((r) => [r.sn, r.at]));
}

/** Newest first, filtered by device and type. */
export function listOrder() {
  return [desc(configBackups.requestedAt), desc(configBackups.id)];
}
