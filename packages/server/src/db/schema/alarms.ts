import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tstz } from './columns.ts';
import { projects } from './projects.ts';

// Alarms (src/alarms/, docs/decisions/0037).

/**
 * One row per incident: a device's kind of trouble from when it began until it cleared. At most
 * one open incident per device and kind (`alarms_open_uq`), so repeated events or sweeps of the
 * same trouble count up on the open row instead of raising again. Device facts (MAC, model, name)
 * are copied at raise time: the row still reads right after the device is renamed or removed.
 */
export const alarms = pgTable(
  'alarms',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    sn: text('sn').notNull(),
    kind: text('kind').notNull(),
    level: text('level').notNull(),
    message: text('message').notNull(),
    mac: text('mac'),
    model: text('model').notNull().default(''),
    name: text('name').notNull().default(''),
    raisedAt: tstz('raised_at').notNull(),
    lastAt: tstz('last_at').notNull(),
    count: integer('count').notNull().default(1),
    clearedAt: tstz('cleared_at'),
    /** SPEC.md §4: unread 0, read 1. */
    read: smallint('read').notNull().default(0),
    readAt: tstz('read_at'),
    readBy: bigint('read_by', { mode: 'number' }),
    /** The last device event counted on it (its id per device): a re-sent event is not counted again. */
    eventId: text('event_id'),
  },
  (t) => [
    uniqueIndex('alarms_open_uq').on(t.sn, t.kind).where(sql`${t.clearedAt} is null`),
    index('alarms_project_idx').on(t.projectId, t.raisedAt),
    index('alarms_unread_idx').on(t.projectId).where(sql`${t.read} = 0`),
  ],
);

/** Per project: who hears of alarms (email, webhook) and the rule thresholds. */
export const alarmSettings = pgTable('alarm_settings', {
  projectId: bigint('project_id', { mode: 'number' })
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  emails: jsonb('emails').$type<string[]>().notNull().default([]),
  webhookUrl: text('webhook_url'),
  /** Sealed (security/secrets.ts); opened only to sign a delivery. */
  webhookSecret: text('webhook_secret'),
  offlineMinutes: integer('offline_minutes').notNull().default(5),
  cpuPercent: integer('cpu_percent').notNull().default(90),
  memoryPercent: integer('memory_percent').notNull().default(90),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
});

/** One delivery of one alarm to one target, with its outcome; retried by the job runner. */
export const alarmDeliveries = pgTable(
  'alarm_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    alarmId: bigint('alarm_id', { mode: 'number' })
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    channel: text('channel').notNull(),
    target: text('target').notNull(),
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    responseStatus: integer('response_status'),
    lastError: text('last_error'),
    createdAt: tstz('created_at').notNull(),
    deliveredAt: tstz('delivered_at'),
    nextAttemptAt: tstz('next_attempt_at'),
  },
  (t) => [index('alarm_deliveries_project_idx').on(t.projectId, t.id)],
);

/** A maintenance window: no alarm is raised for its devices between its start and end. */
export const alarmWindows = pgTable(
  'alarm_windows',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    sns: jsonb('sns').$type<string[]>().notNull(),
    startsAt: tstz('starts_at').notNull(),
    endsAt: tstz('ends_at').notNull(),
    reason: text('reason').notNull().default(''),
    createdAt: tstz('created_at').notNull(),
    createdBy: bigint('created_by', { mode: 'number' }),
  },
  (t) => [index('alarm_windows_project_idx').on(t.projectId, t.endsAt)],
);
