import type { BackupSyncState, BackupTrigger, BackupType } from '@beacon/protocol';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { bytea, tstz } from './columns.ts';
import { projects } from './projects.ts';

// Configuration backups (src/backups/, docs/decisions/0049).

/**
 * One backup of a device's configuration: what the device reported it runs (get-config), as the
 * file a download gives (`content`: JSON with sealed secrets, stored out of line and uncompressed so
 * it is read in slices; `checksum` SHA-256 of those bytes). A row exists from the request on: its
 * `status` is unsynchronized (waiting for the device), synchronizing (get-config out),
 * synchronized (content stored) or failed (`code`). `type` general (128 per project, the oldest
 * overwritten) or restore_point (one synchronized per device and project, never overwritten by the
 * system).
 */
export const configBackups = pgTable(
  'config_backups',
  {
    id: serial('id').primaryKey(),
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    sn: text('sn').notNull(),
    model: text('model').notNull(),
    mac: text('mac'),
    firmware: text('firmware'),
    type: text('type').$type<BackupType>().notNull(),
    trigger: text('trigger').$type<BackupTrigger>().notNull(),
    status: text('status').$type<BackupSyncState>().notNull(),
    code: integer('code'),
    message: text('message'),
    revision: integer('revision'),
    configHash: text('config_hash'),
    fileName: text('file_name').notNull(),
    size: integer('size').notNull().default(0),
    checksum: text('checksum'),
    content: bytea('content'),
    requestedById: integer('requested_by_id').references(() => accounts.id, { onDelete: 'set null' }),
    requestedBy: text('requested_by').notNull(),
    requestedAt: tstz('requested_at').notNull(),
    syncStartedAt: tstz('sync_started_at'),
    takenAt: tstz('taken_at'),
    attempts: smallint('attempts').notNull().default(0),
  },
  (t) => [
    index('config_backups_project_idx').on(t.projectId, t.requestedAt),
    index('config_backups_device_idx').on(t.projectId, t.sn, t.requestedAt),
    index('config_backups_open_idx')
      .on(t.status, t.requestedAt)
      .where(sql`${t.status} in ('unsynchronized', 'synchronizing')`),
    uniqueIndex('config_backups_restore_point_uq')
      .on(t.projectId, t.sn)
      .where(sql`${t.type} = 'restore_point' and ${t.status} = 'synchronized'`),
  ],
);

/** Automatic backups of a project (no row: off). */
export const backupSettings = pgTable('backup_settings', {
  projectId: bigint('project_id', { mode: 'number' })
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  afterChange: boolean('after_change').notNull().default(false),
  everyHours: smallint('every_hours').notNull().default(0),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
});
