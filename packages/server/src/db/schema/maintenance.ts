import { bigint, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { bytea, tstz } from './columns.ts';
import { projects } from './projects.ts';

// Device maintenance (src/maintenance/): reboot schedules, firmware images, remote sessions.

/**
 * Scheduled reboots (SPEC.md §1, §5: days and a time, at least one day). The reboot itself is a
 * durable job of src/jobs/ keyed `reboot-schedule:{sn}:{nextRunAt}`; the row says when it is due.
 */
export const rebootSchedules = pgTable(
  'reboot_schedules',
  {
    sn: text('sn').primaryKey(),
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    /** 0 Sunday … 6 Saturday. */
    days: jsonb('days').$type<number[]>().notNull(),
    /** HH:MM in the time zone below. */
    time: text('time').notNull(),
    /** An IANA zone: the project's time zone when saved. */
    timeZone: text('time_zone').notNull(),
    nextRunAt: tstz('next_run_at').notNull(),
    lastRunAt: tstz('last_run_at'),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('reboot_schedules_project_idx').on(t.projectId)],
);

/** Uploaded firmware images (.bin, ≤ 40 MB), kept in PostgreSQL so every instance can serve them. */
export const firmwareImages = pgTable(
  'firmware_images',
  {
    id: serial('id').primaryKey(),
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    model: text('model').notNull(),
    version: text('version').notNull(),
    fileName: text('file_name').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    data: bytea('data').notNull(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('firmware_images_project_idx').on(t.projectId, t.createdAt)],
);

/**
 * Remote management sessions: the device's local page (its path and bearer token) reached through
 * the server's own expiring address /api/v1/remote/{token}/, for the account that opened it, and
 * carried over the device's own MQTT link (docs/decisions/0060).
 */
export const remoteSessions = pgTable(
  'remote_sessions',
  {
    /**
     * The random address token. Kept as is (not hashed) so the opener can find the address again
     * while it lasts; it is useless without the opener's own session and expires with the device's.
     */
    token: text('token').primaryKey(),
    sn: text('sn').notNull(),
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The page's path on the device (`/` by default); every request stays under its directory. */
    pagePath: text('page_path').notNull(),
    deviceToken: text('device_token').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    closedAt: tstz('closed_at'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('remote_sessions_sn_idx').on(t.sn, t.createdAt)],
);
