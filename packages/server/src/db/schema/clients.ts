import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
} from 'drizzle-orm/pg-core';
import { tstz } from './columns.ts';
import { devices } from './devices.ts';
import { projects } from './projects.ts';

// Online clients (src/clients/, docs/decisions/0035-online-clients.md; migration 0010).

/** The clients online now: one row per client MAC of a project, written from device telemetry. */
export const onlineClients = pgTable(
  'online_clients',
  {
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    mac: text('mac').notNull(),
    sn: text('sn')
      .notNull()
      .references(() => devices.sn, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    ip: text('ip').notNull().default(''),
    kind: text('kind').notNull(),
    wired: boolean('wired').notNull().default(false),
    ssid: text('ssid'),
    band: text('band'),
    rssi: smallint('rssi'),
    txRate: real('tx_rate').notNull().default(0),
    rxRate: real('rx_rate').notNull().default(0),
    txBytes: bigint('tx_bytes', { mode: 'number' }).notNull().default(0),
    rxBytes: bigint('rx_bytes', { mode: 'number' }).notNull().default(0),
    vlan: integer('vlan'),
    joinedAt: tstz('joined_at').notNull(),
    seenAt: tstz('seen_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.mac] }), index('online_clients_sn_idx').on(t.sn)],
);

/** Sessions of clients that left (partitioned by day on ended_at; no primary key on a partitioned table). */
export const clientSessions = pgTable(
  'client_sessions',
  {
    projectId: bigint('project_id', { mode: 'number' }).notNull(),
    mac: text('mac').notNull(),
    sn: text('sn').notNull(),
    name: text('name').notNull().default(''),
    ip: text('ip').notNull().default(''),
    kind: text('kind').notNull(),
    ssid: text('ssid'),
    band: text('band'),
    txBytes: bigint('tx_bytes', { mode: 'number' }).notNull().default(0),
    rxBytes: bigint('rx_bytes', { mode: 'number' }).notNull().default(0),
    startedAt: tstz('started_at').notNull(),
    endedAt: tstz('ended_at').notNull(),
    /** left (the device stopped listing it), forced (force offline), offline (its device went away). */
    reason: text('reason').notNull(),
  },
  (t) => [
    index('client_sessions_project_idx').on(t.projectId, t.endedAt),
    index('client_sessions_forced_idx').on(t.endedAt).where(sql`reason = 'forced'`),
  ],
);

/** Clients online per project, band and SSID, sampled every 5 minutes (partitioned by day on at). */
export const clientCounts = pgTable(
  'client_counts',
  {
    projectId: bigint('project_id', { mode: 'number' }).notNull(),
    at: tstz('at').notNull(),
    band: text('band').notNull(),
    ssid: text('ssid').notNull(),
    clients: integer('clients').notNull(),
  },
  (t) => [index('client_counts_project_idx').on(t.projectId, t.at)],
);

/** A project's client blacklist (at most CLIENT_BLACKLIST_MAX), delivered to its devices as configuration. */
export const clientBlacklist = pgTable(
  'client_blacklist',
  {
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    mac: text('mac').notNull(),
    note: text('note').notNull().default(''),
    createdBy: text('created_by'),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.mac] })],
);
