import type { BackupListQuery, BackupSettings, CreateBackupsBody, UpdateBackupBody } from '@beacon/protocol';
import {
  AppError,
  type BackupCompareView,
  type BackupDetail,
  type BackupList,
  BackupSyncState,
  BackupTrigger,
  BackupType,
  type BackupView,
  Codes,
  type CreateBackupsResult,
  DeviceConfigState,
  deviceConfigSchema,
  diffConfigs,
  getConfigReplySchema,
  isOfflineStatus,
  LIMITS,
  ManagementMode,
  modelInfo,
  REDACTED,
  type RestoreView,
  redactSecrets,
  SECRET_KEYS,
  validateDeviceConfig,
} from '@beacon/protocol';
import { and, count, eq, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import { commitDeviceRevision } from '../config/repository.ts';
import type { DbOrTx } from '../db/client.ts';
import { pageWindow, withTotal } from '../db/paging.ts';
import { backupSettings, configBackups, devices } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { selectDevices } from '../devices/row.ts';
import { loadProjectAccess, type ProjectAccess } from '../projects/access.ts';
import { type ProjectWrite, type WriteCaller, withProjectWrite } from '../projects/write.ts';
import {
  backupFileName,
  buildBackupFile,
  checkUploadedFile,
  openDocument,
  safeFileName,
  storedFile,
} from './file.ts';
import {
  backupView,
  findBackup,
  generalCount,
  isWlan,
  lastBackupTimes,
  listOrder,
  oldestGeneral,
  pruneGeneral,
  restorePointOf,
  selectBackups,
  withRestorePoint,
} from './repository.ts';
import { backupSync } from './sync.ts';

/**
 * Configuration backup and restore (SPEC.md §3 Backup, §4, §9; docs/decisions/0049). A backup is
 * what a device reports it runs (get-config, sync.ts), kept as a file with its checksum; a restore
 * is a new configuration revision of the device through the configuration domain, which the device
 * must report applied. Every backup, restore and deletion leaves an audit row; writes go through
 * the project write path (read-only members and demo projects are refused there); MESH projects
 * have no backups (5364).
 */

const INTERVAL_MS = LIMITS.BACKUP_INTERVAL_MINUTES * 60_000;
const secretsOf = (deps: Deps) => deps.gateway.commands.secrets;

function wlanOnly(access: ProjectAccess): void {
  if (!isWlan(access.project)) throw new AppError(Codes.BACKUP_WLAN_ONLY);
}

async function readAccess(deps: Deps, caller: WriteCaller, projectId: number): Promise<ProjectAccess> {
  const access = await loadProjectAccess(deps.database.db, caller, projectId, { now: deps.now() });
  wlanOnly(access);
  return access;
}

/** A project write that is refused in a MESH project; serialised per project (counts, intervals). */
function backupWrite<T>(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  change: (write: ProjectWrite) => Promise<T>,
): Promise<T> {
  return withProjectWrite(
    deps,
    caller,
    projectId,
    async (write) => {
      wlanOnly(write.access);
      return change(write);
    },
    { lock: 'update' },
  );
}

async function backupOr404(db: DbOrTx, projectId: number, id: number) {
  const row = await findBackup(db, projectId, id);
  if (!row) throw new AppError(Codes.NOT_FOUND, 'There is no such backup');
  return row;
}

/** The stored file's bytes of a synchronized backup; 31 (no configuration file) otherwise. */
async function contentOf(db: DbOrTx, projectId: number, id: number): Promise<Buffer> {
  const [row] = await db
    .select({ content: configBackups.content })
    .from(configBackups)
    .where(and(eq(configBackups.projectId, projectId), eq(configBackups.id, id)));
  if (!row?.content) throw new AppError(Codes.NO_CONFIG_FILE, 'The backup holds no configuration file yet');
  return row.content;
}

const overwriteMessage = (count: number, adding: number) =>
  `The project keeps ${LIMITS.CLOUD_BACKUPS} general backups and holds ${count}: ${
    count + adding - LIMITS.CLOUD_BACKUPS
  } of the oldest will be overwritten. Confirm to go on.`;

// ── reads ────────────────────────────────────────────────────────────────────

export async function listBackups(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  query: z.output<typeof BackupListQuery>,
): Promise<BackupList> {
  await readAccess(deps, caller, projectId);
  const { db } = deps.database;
  const filters = [eq(configBackups.projectId, projectId)];
  if (query.sn) filters.push(eq(configBackups.sn, query.sn.toUpperCase()));
  if (query.type) filters.push(eq(configBackups.type, query.type));
  const where = and(...filters);
  const { limit, offset } = pageWindow(query);
  const [{ rows, total }, general, oldest] = await Promise.all([
    withTotal(
      selectBackups(db)
        .where(where)
        .orderBy(...listOrder())
        .limit(limit)
        .offset(offset),
      db.select({ n: count() }).from(configBackups).where(where),
    ),
    generalCount(db, projectId),
    oldestGeneral(db, projectId, 1),
  ]);
  return {
    items: rows.map(backupView),
    total,
    page: query.page,
    pageSize: query.pageSize,
    general: { count: general, max: LIMITS.CLOUD_BACKUPS },
    nextOverwrite:
      general >= LIMITS.CLOUD_BACKUPS && oldest[0]
        ? { id: oldest[0].id, fileName: oldest[0].fileName }
        : null,
  };
}

export async function getBackup(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  id: number,
): Promise<BackupDetail> {
  await readAccess(deps, caller, projectId);
  const row = await backupOr404(deps.database.db, projectId, id);
  let document: Record<string, unknown> | null = null;
  if (row.status === BackupSyncState.SYNCHRONIZED) {
    const file = storedFile(await contentOf(deps.database.db, projectId, id));
    document = redactSecrets(openDocument(secretsOf(deps), file.document));
  }
  return { ...backupView(row), document };
}

/** For the download: the backup's name, size and checksum, after the caller's access is checked. */
export async function backupForDownload(deps: Deps, caller: WriteCaller, projectId: number, id: number) {
  await readAccess(deps, caller, projectId);
  const row = await backupOr404(deps.database.db, projectId, id);
  if (row.status !== BackupSyncState.SYNCHRONIZED || !row.checksum) {
    throw new AppError(Codes.NO_CONFIG_FILE, 'The backup holds no configuration file yet');
  }
  return { id: row.id, fileName: row.fileName, size: row.size, checksum: row.checksum };
}

const isSecretPath = (path: string) => SECRET_KEYS.has(path.slice(path.lastIndexOf('.') + 1));
const mask = (v: unknown) => (v === undefined || v === '' ? v : REDACTED);

/** What the device runs now, asked of the device (get-config); its code when it cannot answer. */
async function runningConfig(deps: Deps, caller: WriteCaller, sn: string) {
  const outcome = await deps.gateway.commands.send(sn, 'get-config', {}, caller);
  if (outcome.code !== 0) throw new AppError(outcome.code as never, outcome.message ?? undefined);
  const reply = getConfigReplySchema.safeParse(outcome.data);
  if (!reply.success) throw new AppError(Codes.NO_CONFIG_FILE, 'The device answered without a configuration');
  return reply.data;
}

/** Two backups, or a backup and the running configuration of a device, side by side. */
export async function compareBackup(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  id: number,
  query: { other?: number; sn?: string },
): Promise<BackupCompareView> {
  await readAccess(deps, caller, projectId);
  const { db } = deps.database;
  const secrets = secretsOf(deps);
  const row = await backupOr404(db, projectId, id);
  const leftDoc = openDocument(secrets, storedFile(await contentOf(db, projectId, id)).document);
  type Side = BackupCompareView['left'];
  const left: Side = {
    label: row.fileName,
    backupId: row.id,
    sn: row.sn,
    revision: row.revision,
    document: leftDoc,
  };
  let right: Side;
  if (query.other !== undefined) {
    const other = await backupOr404(db, projectId, query.other);
    const doc = openDocument(secrets, storedFile(await contentOf(db, projectId, other.id)).document);
    right = {
      label: other.fileName,
      backupId: other.id,
      sn: other.sn,
      revision: other.revision,
      document: doc,
    };
  } else {
    const sn = (query.sn ?? row.sn).toUpperCase();
    const [device] = await selectDevices(db).where(and(eq(devices.projectId, projectId), eq(devices.sn, sn)));
    if (!device) throw new AppError(Codes.NOT_FOUND, 'The device is not in this project');
    const running = await runningConfig(deps, caller, sn);
    right = {
      label: `${device.name || sn} (running)`,
      backupId: null,
      sn,
      revision: running.revision,
      document: running.document as Record<string, unknown>,
    };
  }
  const changes = diffConfigs(left.document, right.document).map((c) =>
    isSecretPath(c.path) ? { path: c.path, before: mask(c.before), after: mask(c.after) } : c,
  );
  return {
    left: { ...left, document: redactSecrets(left.document) },
    right: { ...right, document: redactSecrets(right.document) },
    changes,
  };
}

// ── writes ───────────────────────────────────────────────────────────────────

/**
 * Backs up devices of the project: one row each, unsynchronized until the device is asked
 * (sync.ts; an offline device's waits for it). A device backed up less than 3 minutes ago answers
 * 5361, one not in the project 5033. Past 128 general backups (or over a device's restore point)
 * the whole request is refused (5362, 5363) unless the user confirmed the overwrite.
 */
export async function requestBackups(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  body: z.output<typeof CreateBackupsBody>,
): Promise<CreateBackupsResult> {
  const result = await backupWrite(deps, caller, projectId, async (write) => {
    const { tx, now } = write;
    const sns = [...new Set(body.sns)];
    const rows = await selectDevices(tx).where(
      and(eq(devices.projectId, projectId), inArray(devices.sn, sns)),
    );
    const bySn = new Map(rows.map((r) => [r.sn, r]));
    const last = await lastBackupTimes(tx, projectId, sns);
    const items: CreateBackupsResult['items'] = [];
    const take: typeof rows = [];
    for (const sn of sns) {
      const device = bySn.get(sn);
      const at = last.get(sn);
      if (!device) {
        items.push({
          sn,
          code: Codes.NOT_FOUND,
          message: 'The device is not in this project',
          backupId: null,
          status: null,
        });
      } else if (at && now.getTime() - at.getTime() < INTERVAL_MS) {
        const next = new Date(at.getTime() + INTERVAL_MS);
        items.push({
          sn,
          code: Codes.BACKUP_INTERVAL,
          message: `The device was backed up less than ${LIMITS.BACKUP_INTERVAL_MINUTES} minutes ago; try again after ${next.toISOString()}`,
          backupId: null,
          status: null,
        });
      } else take.push(device);
    }
    if (take.length && body.type === BackupType.GENERAL && !body.confirmOverwrite) {
      const kept = await generalCount(tx, projectId);
      if (kept + take.length > LIMITS.CLOUD_BACKUPS) {
        throw new AppError(Codes.BACKUP_OVERWRITE, overwriteMessage(kept, take.length));
      }
    }
    if (take.length && body.type === BackupType.RESTORE_POINT && !body.confirmOverwrite) {
      const having = await withRestorePoint(
        tx,
        projectId,
        take.map((d) => d.sn),
      );
      const first = take.find((d) => having.has(d.sn));
      if (first) {
        throw new AppError(
          Codes.RESTORE_POINT_EXISTS,
          having.size === 1
            ? `${first.name || first.sn} already has a restore point: confirm to replace it`
            : `${having.size} of the devices already have a restore point: confirm to replace them`,
        );
      }
    }
    if (take.length) {
      const inserted = await tx
        .insert(configBackups)
        .values(
          take.map((d) => ({
            projectId,
            sn: d.sn,
            model: d.model,
            mac: d.mac,
            firmware: d.firmware,
            type: body.type,
            trigger: BackupTrigger.MANUAL,
            status: BackupSyncState.UNSYNCHRONIZED,
            fileName: backupFileName(d.sn, d.model, now),
            requestedById: caller.accountId,
            requestedBy: caller.account,
            requestedAt: now,
          })),
        )
        .returning({ id: configBackups.id, sn: configBackups.sn, fileName: configBackups.fileName });
      for (const r of inserted) {
        const device = bySn.get(r.sn)!;
        write.audit({
          action: 'backup',
          entity: 'config-backup',
          entityId: r.id,
          after: { sn: r.sn, type: body.type, trigger: BackupTrigger.MANUAL, fileName: r.fileName },
        });
        items.push({
          sn: r.sn,
          code: 0,
          message: isOfflineStatus(device.status) ? 'Waits for the device to come online' : null,
          backupId: r.id,
          status: BackupSyncState.UNSYNCHRONIZED,
        });
      }
      write.afterCommit(() => backupSync(deps).kick());
    }
    const order = new Map(sns.map((sn, i) => [sn, i]));
    items.sort((a, b) => order.get(a.sn)! - order.get(b.sn)!);
    return { items };
  });
  return result;
}

/**
 * An uploaded backup file, checked whole before anything is stored (file.ts checkUploadedFile),
 * kept as a general backup (its secrets sealed again under this server's key).
 */
export async function uploadBackup(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  upload: { fileName: string; bytes: Buffer; confirmOverwrite: boolean },
): Promise<BackupView> {
  return backupWrite(deps, caller, projectId, async (write) => {
    const { tx, now } = write;
    const secrets = secretsOf(deps);
    const checked = await checkUploadedFile(secrets, upload.fileName, upload.bytes);
    const kept = await generalCount(tx, projectId);
    if (kept + 1 > LIMITS.CLOUD_BACKUPS && !upload.confirmOverwrite) {
      throw new AppError(Codes.BACKUP_OVERWRITE, overwriteMessage(kept, 1));
    }
    const { file } = checked;
    const takenAt = new Date(file.takenAt);
    const built = await buildBackupFile(
      secrets,
      {
        sn: file.sn,
        model: file.model,
        mac: file.mac,
        firmware: file.firmware,
        revision: file.revision,
        takenAt,
      },
      checked.document,
    );
    const [row] = await tx
      .insert(configBackups)
      .values({
        projectId,
        sn: file.sn,
        model: file.model,
        mac: file.mac,
        firmware: file.firmware,
        type: BackupType.GENERAL,
        trigger: BackupTrigger.UPLOAD,
        status: BackupSyncState.SYNCHRONIZED,
        revision: file.revision,
        configHash: built.configHash,
        fileName: safeFileName(upload.fileName),
        size: built.bytes.length,
        checksum: built.checksum,
        content: built.bytes,
        requestedById: caller.accountId,
        requestedBy: caller.account,
        requestedAt: now,
        takenAt,
      })
      .returning({ id: configBackups.id });
    write.audit({
      action: 'backup-upload',
      entity: 'config-backup',
      entityId: row.id,
      after: {
        sn: file.sn,
        model: file.model,
        fileName: safeFileName(upload.fileName),
        size: built.bytes.length,
      },
    });
    for (const gone of await pruneGeneral(tx, projectId)) {
      write.audit({
        action: 'backup-overwrite',
        entity: 'config-backup',
        entityId: gone.id,
        before: { sn: gone.sn, fileName: gone.fileName },
      });
    }
    return backupView((await findBackup(tx, projectId, row.id))!);
  });
}

/** Marks a backup as the device's restore point (replacing its current one, when confirmed) or general. */
export async function updateBackup(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  id: number,
  body: z.output<typeof UpdateBackupBody>,
): Promise<BackupView> {
  return backupWrite(deps, caller, projectId, async (write) => {
    const { tx } = write;
    const row = await backupOr404(tx, projectId, id);
    if (row.type === body.type) return backupView(row);
    if (row.status !== BackupSyncState.SYNCHRONIZED) {
      throw new AppError(Codes.NO_CONFIG_FILE, 'Only a synchronized backup can change its type');
    }
    let replaced: number | null = null;
    if (body.type === BackupType.RESTORE_POINT) {
      const current = await restorePointOf(tx, projectId, row.sn);
      if (current && !body.confirmOverwrite) throw new AppError(Codes.RESTORE_POINT_EXISTS);
      if (current) {
        await tx.delete(configBackups).where(eq(configBackups.id, current.id));
        replaced = current.id;
      }
    } else {
      const kept = await generalCount(tx, projectId);
      if (kept + 1 > LIMITS.CLOUD_BACKUPS && !body.confirmOverwrite) {
        throw new AppError(Codes.BACKUP_OVERWRITE, overwriteMessage(kept, 1));
      }
    }
    await tx.update(configBackups).set({ type: body.type }).where(eq(configBackups.id, id));
    write.audit({
      action: 'backup-update',
      entity: 'config-backup',
      entityId: id,
      before: { sn: row.sn, type: row.type },
      after: { sn: row.sn, type: body.type, replaced },
    });
    if (body.type === BackupType.GENERAL) {
      for (const gone of await pruneGeneral(tx, projectId)) {
        write.audit({
          action: 'backup-overwrite',
          entity: 'config-backup',
          entityId: gone.id,
          before: { sn: gone.sn, fileName: gone.fileName },
        });
      }
    }
    return backupView((await findBackup(tx, projectId, id))!);
  });
}

export async function deleteBackup(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  id: number,
): Promise<BackupView> {
  return backupWrite(deps, caller, projectId, async (write) => {
    const row = await backupOr404(write.tx, projectId, id);
    await write.tx.delete(configBackups).where(eq(configBackups.id, id));
    write.audit({
      action: 'backup-delete',
      entity: 'config-backup',
      entityId: id,
      before: { sn: row.sn, type: row.type, fileName: row.fileName, status: row.status },
    });
    return backupView(row);
  });
}

/**
 * Restores a backup to its device or to another of the same model (a replacement): the document
 * becomes the device's next configuration revision (config/repository.ts), pushed now or — for an
 * offline device — when it is back; the device must report it applied. A model mismatch is 5360; a
 * device in local management mode 76, upgrading 71; the document is checked with the model's rules.
 */
export async function restoreBackup(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  id: number,
  body: { sn?: string },
): Promise<RestoreView> {
  const secrets = secretsOf(deps);
  const view = await backupWrite(deps, caller, projectId, async (write) => {
    const { tx } = write;
    const row = await backupOr404(tx, projectId, id);
    const content = await contentOf(tx, projectId, id);
    const sn = (body.sn ?? row.sn).toUpperCase();
    const [target] = await selectDevices(tx).where(and(eq(devices.projectId, projectId), eq(devices.sn, sn)));
    if (!target)
      throw new AppError(Codes.NOT_FOUND, 'The device is not in this project', { sn: 'Not in this project' });
    if (target.model !== row.model) {
      throw new AppError(
        Codes.BACKUP_MODEL_MISMATCH,
        `The backup is of the model ${row.model}; ${target.name || target.sn} is a ${target.model}`,
        { sn: 'Another model' },
      );
    }
    if (target.managementMode === ManagementMode.LOCAL) throw new AppError(Codes.LOCAL_MANAGE);
    if ([3, 4, 5].includes(target.status) || target.operation === 'upgrade')
      throw new AppError(Codes.UPGRADING);
    const document = deviceConfigSchema.parse(openDocument(secrets, storedFile(content).document));
    const failure = validateDeviceConfig(document, modelInfo(target.model)!);
    if (failure)
      throw new AppError(
        failure.code,
        failure.message,
        failure.path ? { [failure.path]: failure.message } : undefined,
      );
    const { before, device, revision } = await commitDeviceRevision(tx, secrets, {
      sn: target.sn,
      projectId,
      document: document as Record<string, unknown>,
      author: caller,
      reason: `Restore of backup ${row.fileName}`,
      now: write.now,
    });
    write.audit({
      action: 'backup-restore',
      entity: 'config-backup',
      entityId: id,
      before: { sn: target.sn, revision: before.desiredRevision, hash: before.desiredHash },
      after: { sn: target.sn, revision: revision.revision, hash: revision.hash, fileName: row.fileName },
    });
    return {
      backupId: id,
      sn: device.sn,
      revision: revision.revision,
      hash: revision.hash,
      status: DeviceConfigState.PENDING,
      waiting: isOfflineStatus(device.status),
    } satisfies RestoreView;
  });
  // An offline or busy device gets it when it can (its hello, its state, or the convergence job).
  deps.gateway.commands.converge(view.sn);
  return view;
}

// ── automatic backups ────────────────────────────────────────────────────────

const DEFAULT_SETTINGS: BackupSettings = { afterChange: false, everyHours: 0 };

export async function getSettings(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
): Promise<BackupSettings> {
  await readAccess(deps, caller, projectId);
  const [row] = await deps.database.db
    .select()
    .from(backupSettings)
    .where(eq(backupSettings.projectId, projectId));
  return row
    ? { afterChange: row.afterChange, everyHours: row.everyHours as BackupSettings['everyHours'] }
    : DEFAULT_SETTINGS;
}

export async function putSettings(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  body: BackupSettings,
): Promise<BackupSettings> {
  return backupWrite(deps, caller, projectId, async (write) => {
    const [before] = await write.tx
      .select()
      .from(backupSettings)
      .where(eq(backupSettings.projectId, projectId));
    await write.tx
      .insert(backupSettings)
      .values({ projectId, afterChange: body.afterChange, everyHours: body.everyHours, updatedAt: write.now })
      .onConflictDoUpdate({
        target: backupSettings.projectId,
        set: { afterChange: body.afterChange, everyHours: body.everyHours, updatedAt: write.now },
      });
    write.audit({
      action: 'update',
      entity: 'backup-settings',
      entityId: projectId,
      before: before ? { afterChange: before.afterChange, everyHours: before.everyHours } : DEFAULT_SETTINGS,
      after: body,
    });
    return body;
  });
}
