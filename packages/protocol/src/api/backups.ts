import { z } from 'zod';
import { LIMITS } from '../enums/limits.ts';
import { BackupSyncState, BackupType } from '../enums/tools.ts';
import { DeviceConfigState } from './devices.ts';
import { Paged, PageQuery } from './envelope.ts';
import { IdParam, ProjectParams } from './ids.ts';

/**
 * Configuration backup and restore (/manage/backup, WLAN projects; server src/backups/,
 * docs/decisions/0049):
 *
 *   GET    /api/v1/projects/{id}/backups                       the backups, newest first, and the 128 count
 *   POST   /api/v1/projects/{id}/backups                       { sns, type, confirmOverwrite } back up devices
 *   POST   /api/v1/projects/{id}/backups/upload                a backup file (multipart `file`)
 *   GET    /api/v1/projects/{id}/backups/settings              automatic backups
 *   PUT    /api/v1/projects/{id}/backups/settings              { afterChange, everyHours }
 *   GET    /api/v1/projects/{id}/backups/{backupId}            one, with its document (secrets as ********)
 *   PATCH  /api/v1/projects/{id}/backups/{backupId}            { type, confirmOverwrite } restore point or general
 *   DELETE /api/v1/projects/{id}/backups/{backupId}
 *   GET    /api/v1/projects/{id}/backups/{backupId}/file       the file, streamed
 *   GET    /api/v1/projects/{id}/backups/{backupId}/compare    ?other= another backup, else the running configuration
 *   POST   /api/v1/projects/{id}/backups/{backupId}/restore    { sn? } as a new revision of the device
 */

const BACKUP_TYPES = [BackupType.RESTORE_POINT, BackupType.GENERAL] as const;
const SYNC_STATES = [
  BackupSyncState.UNSYNCHRONIZED,
  BackupSyncState.SYNCHRONIZING,
  BackupSyncState.SYNCHRONIZED,
  BackupSyncState.FAILED,
] as const;

/** How a backup came to be: a user's request, the automatic schedule or change, an uploaded file. */
export const BackupTrigger = { MANUAL: 'manual', AUTO: 'auto', UPLOAD: 'upload' } as const;
export type BackupTrigger = (typeof BackupTrigger)[keyof typeof BackupTrigger];

/** Automatic backups every N hours (0: not on a schedule). */
export const BACKUP_SCHEDULE_HOURS = [0, 6, 12, 24, 168] as const;

const Sn = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{1,32}$/, 'Enter a serial number')
  .transform((s) => s.toUpperCase());

export const BackupParams = ProjectParams.extend({ backupId: IdParam });

export const BackupListQuery = PageQuery.extend({
  sn: z.string().trim().max(32).optional(),
  type: z.enum(BACKUP_TYPES).optional(),
});

export const BackupView = z.object({
  id: z.number().int(),
  fileName: z.string(),
  /** The associated device (it may have left the project since). */
  sn: z.string(),
  /** Its name in this project now ('' when it is not in the project). */
  deviceName: z.string(),
  model: z.string(),
  mac: z.string().nullable(),
  type: z.enum(BACKUP_TYPES),
  trigger: z.enum([BackupTrigger.MANUAL, BackupTrigger.AUTO, BackupTrigger.UPLOAD]),
  /** Bytes of the file (0 until it is synchronized). */
  size: z.number().int(),
  status: z.enum(SYNC_STATES),
  /** Why it failed (the device's code or 36, 5025 …). */
  code: z.number().int().nullable(),
  message: z.string().nullable(),
  /** The configuration revision the device reported with it, and the document's configHash. */
  revision: z.number().int().nullable(),
  configHash: z.string().nullable(),
  /** SHA-256 of the file's bytes (hex). */
  checksum: z.string().nullable(),
  requestedAt: z.string(),
  /** When the device answered (the backup time); null until synchronized. */
  takenAt: z.string().nullable(),
});
export type BackupView = z.infer<typeof BackupView>;

export const BackupList = Paged(BackupView).extend({
  /** General backups kept and the most the project keeps (128; the oldest is then overwritten). */
  general: z.object({ count: z.number().int(), max: z.number().int() }),
  /** The general backup the next one overwrites, once the project holds the maximum. */
  nextOverwrite: z.object({ id: z.number().int(), fileName: z.string() }).nullable(),
});
export type BackupList = z.infer<typeof BackupList>;

export const BackupDetail = BackupView.extend({ document: z.record(z.string(), z.unknown()).nullable() });
export type BackupDetail = z.infer<typeof BackupDetail>;

export const CreateBackupsBody = z.object({
  sns: z
    .array(Sn)
    .min(1, 'Select a device')
    .max(LIMITS.BACKUP_DEVICES_PER_REQUEST, `At most ${LIMITS.BACKUP_DEVICES_PER_REQUEST} devices at once`),
  type: z.enum(BACKUP_TYPES).default(BackupType.GENERAL),
  /** The user was told that the oldest general backups (or the device's restore point) go. */
  confirmOverwrite: z.boolean().default(false),
});
export type CreateBackupsBody = z.input<typeof CreateBackupsBody>;

export const CreateBackupsResult = z.object({
  items: z.array(
    z.object({
      sn: z.string(),
      /** 0: requested (backupId; an offline device's waits, unsynchronized, until it is back); else why not. */
      code: z.number().int(),
      message: z.string().nullable(),
      backupId: z.number().int().nullable(),
      status: z.enum(SYNC_STATES).nullable(),
    }),
  ),
});
export type CreateBackupsResult = z.infer<typeof CreateBackupsResult>;

/** The upload's query: the user was told that the oldest general backup goes (at 128). */
export const UploadBackupQuery = z.object({
  confirmOverwrite: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
});

export const UpdateBackupBody = z.object({
  type: z.enum(BACKUP_TYPES),
  confirmOverwrite: z.boolean().default(false),
});
export type UpdateBackupBody = z.input<typeof UpdateBackupBody>;

export const RestoreBackupBody = z.object({
  /** The device to restore (default: the backup's own); another device must be of the same model. */
  sn: Sn.optional(),
});
export type RestoreBackupBody = z.input<typeof RestoreBackupBody>;

export const RestoreView = z.object({
  backupId: z.number().int(),
  sn: z.string(),
  /** The new configuration revision of the device, and its status (pending until the device applies it). */
  revision: z.number().int(),
  hash: z.string(),
  status: z.enum([DeviceConfigState.PENDING, DeviceConfigState.APPLIED, DeviceConfigState.FAILED]),
  /** The device is offline: it gets the revision when it is back. */
  waiting: z.boolean(),
});
export type RestoreView = z.infer<typeof RestoreView>;

export const BackupCompareQuery = z.object({
  /** Another backup; without it, the running configuration of `sn` (default: the backup's device). */
  other: IdParam.optional(),
  sn: z.string().trim().max(32).optional(),
});

const CompareSide = z.object({
  label: z.string(),
  backupId: z.number().int().nullable(),
  sn: z.string(),
  revision: z.number().int().nullable(),
  document: z.record(z.string(), z.unknown()),
});

export const BackupCompareView = z.object({
  left: CompareSide,
  right: CompareSide,
  /** Leaf by leaf (secrets shown as changed, never their values). */
  changes: z.array(
    z.object({ path: z.string(), before: z.unknown().optional(), after: z.unknown().optional() }),
  ),
});
export type BackupCompareView = z.infer<typeof BackupCompareView>;

export const BackupSettings = z.object({
  /** Back up a device after each change it applied (at most once every 3 minutes). */
  afterChange: z.boolean(),
  everyHours: z.union([z.literal(0), z.literal(6), z.literal(12), z.literal(24), z.literal(168)]),
});
export type BackupSettings = z.infer<typeof BackupSettings>;
export type BackupSettingsInput = z.input<typeof BackupSettings>;
