import type { DeviceConfigState } from '@beacon/protocol';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tstz } from './columns.ts';
import { projects } from './projects.ts';

// Devices and what they report (src/devices/, src/gateway/).

/**
 * Every device Beacon knows (src/devices/, src/gateway/): devices that connected at least once
 * ("seen", claimed by a project or not) and devices pre-provisioned by SN and model: the inventory
 * and the desired configuration with its convergence bookkeeping (invariant 3). What the device
 * reports is in `deviceState` (docs/decisions/0031).
 */
export const devices = pgTable(
  'devices',
  {
    sn: text('sn').primaryKey(),
    /** The project the device is bound to; null = unclaimed. */
    projectId: bigint('project_id', { mode: 'number' }).references(() => projects.id, {
      onDelete: 'set null',
    }),
    name: text('name').notNull().default(''),
    remark: text('remark').notNull().default(''),
    model: text('model').notNull(),
    type: text('type').notNull(),
    mac: text('mac'),
    capabilities: jsonb('capabilities').$type<string[]>().notNull().default([]),
    managementMode: smallint('management_mode').notNull().default(1),
    /** Configuration the administrators want, committed before it is sent (invariant 3). */
    desiredRevision: integer('desired_revision').notNull().default(0),
    desiredConfig: jsonb('desired_config'),
    /** SHA-256 of the desired document (protocol configHash), to see drift. */
    desiredHash: text('desired_hash'),
    /** DeviceConfigState: pending | applied | failed (with configCode); changes on transitions only. */
    configStatus: text('config_status').$type<DeviceConfigState>().notNull().default('applied'),
    configCode: integer('config_code'),
    /** Convergence (src/config/convergence.ts): pushes tried since the last success, and when next. */
    configAttempts: integer('config_attempts').notNull().default(0),
    configRetryAt: tstz('config_retry_at'),
    /** The first hello ever (null = pre-provisioned, never seen). */
    firstSeenAt: tstz('first_seen_at'),
    boundAt: tstz('bound_at'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('devices_project_idx').on(t.projectId, t.type),
    index('devices_mac_idx').on(t.mac),
    index('devices_config_retry_idx').on(t.configRetryAt).where(sql`${t.configRetryAt} is not null`),
  ],
);

/**
 * Events and alarms devices report on dev/{sn}/up/event (the alarm and log screens read them): a time
 * series partitioned by UTC day of `at` (migration 0011, db/partitions.ts, docs/decisions/0036).
 * Written by src/logs/device-events.ts; retention drops whole partitions (src/logs/retention.ts).
 */
export const deviceEvents = pgTable(
  'device_events',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    sn: text('sn').notNull(),
    projectId: bigint('project_id', { mode: 'number' }),
    eventId: text('event_id').notNull(),
    at: tstz('at').notNull(),
    event: text('event').notNull(),
    level: text('level').notNull(),
    message: text('message').notNull(),
    data: jsonb('data'),
    receivedAt: tstz('received_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'device_events_pkey', columns: [t.id, t.at] }),
    uniqueIndex('device_events_uq').on(t.sn, t.eventId, t.at),
    index('device_events_project_idx').on(t.projectId, t.at),
    index('device_events_project_sn_idx').on(t.projectId, t.sn, t.at),
  ],
);

/**
 * What a device reports about itself (hello, state, telemetry), one row per device, apart from the
 * inventory in `devices` so that device traffic never rewrites the inventory row
 * (docs/decisions/0031). A trigger on `devices` inserts the row with every device; it goes with it.
 */
export const deviceState = pgTable('device_state', {
  sn: text('sn')
    .primaryKey()
    .references(() => devices.sn, { onDelete: 'cascade' }),
  firmware: text('firmware'),
  hardware: text('hardware'),
  ip: text('ip'),
  /** SPEC.md §4 status code. */
  status: smallint('status').notNull().default(0),
  operation: text('operation'),
  progress: smallint('progress'),
  deviceMode: smallint('device_mode'),
  meshRole: text('mesh_role'),
  cpeMode: text('cpe_mode'),
  bootId: text('boot_id'),
  uptime: integer('uptime'),
  /**
   * The uptime of the hello that made the current connection's row: hellos alone write it, so it
   * orders the connections of one boot (isStaleHello). `uptime` moves with every telemetry, which can
   * be written before the same connection's hello (decision 0065).
   */
  helloUptime: integer('hello_uptime'),
  /** When the device's current MQTT connection was made, as its hello says (device clock): a last will stamped earlier is of a connection gone before. */
  connectedAt: tstz('connected_at'),
  uplinkSn: text('uplink_sn'),
  uplinkPort: integer('uplink_port'),
  ports: jsonb('ports').$type<unknown[]>().notNull().default([]),
  portCount: smallint('port_count').notNull().default(0),
  clientCount: integer('client_count').notNull().default(0),
  dhcpClientCount: integer('dhcp_client_count').notNull().default(0),
  poeTotal: real('poe_total'),
  poeUsed: real('poe_used'),
  poeRemaining: real('poe_remaining'),
  cpu: real('cpu'),
  memory: real('memory'),
  /** The latest telemetry message as received (history tables come beside this one). */
  telemetry: jsonb('telemetry'),
  telemetryAt: tstz('telemetry_at'),
  /**
   * The device's own time (ms) of the newest state and telemetry written in its current connection
   * (a hello resets both): an older one, handled late by another server instance, is dropped
   * (gateway/ingest.ts, docs/decisions/0065).
   */
  stateTs: bigint('state_ts', { mode: 'number' }),
  telemetryTs: bigint('telemetry_ts', { mode: 'number' }),
  remote: jsonb('remote'),
  /** Configuration revision the device reports running. */
  reportedRevision: integer('reported_revision').notNull().default(0),
  /** What the device says it runs (state configHash); differs from devices.desiredHash = drift. */
  reportedHash: text('reported_hash'),
  lastSeenAt: tstz('last_seen_at'),
});
