import type { DeviceConfigState } from '@beacon/protocol';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    /** The login name: the email address at sign-up, lower case. */
    account: text('account').notNull(),
    email: text('email').notNull(),
    nick: text('nick').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    role: smallint('role').notNull().default(0),
    cloudId: text('cloud_id').notNull(),
    companyName: text('company_name').notNull().default(''),
    companyNameChangedAt: tstz('company_name_changed_at'),
    companyLocation: text('company_location').notNull().default(''),
    companyLocationChangedAt: tstz('company_location_changed_at'),
    avatar: bytea('avatar'),
    avatarMime: text('avatar_mime'),
    avatarVersion: integer('avatar_version').notNull().default(0),
    remindTags: jsonb('remind_tags').$type<string[]>().notNull().default([]),
    /** Menu permission flags that are switched off for this account (SPEC.md §6); empty = all on. */
    disabledFlags: jsonb('disabled_flags').$type<string[]>().notNull().default([]),
    /** Bumped on password change so every older session is refused with code 70. */
    passwordVersion: integer('password_version').notNull().default(0),
    isSystem: boolean('is_system').notNull().default(false),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('accounts_account_uq').on(t.account),
    uniqueIndex('accounts_cloud_id_uq').on(t.cloudId),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    passwordVersion: integer('password_version').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    lastSeenAt: tstz('last_seen_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
    /** True for "remember me" sessions (persistent cookie). */
    persistent: boolean('persistent').notNull().default(false),
    revokedAt: tstz('revoked_at'),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [uniqueIndex('sessions_token_uq').on(t.tokenHash), index('sessions_account_idx').on(t.accountId)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    lastUsedAt: tstz('last_used_at'),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash)],
);

export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    purpose: text('purpose').notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
  },
  (t) => [index('verification_codes_email_idx').on(t.email, t.purpose, t.createdAt)],
);

/** Failed attempts (wrong code, wrong password) per subject; 5 within 5 minutes lock for 30. */
export const authFailures = pgTable(
  'auth_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    at: tstz('at').notNull().defaultNow(),
  },
  (t) => [index('auth_failures_subject_idx').on(t.kind, t.subject, t.at)],
);

export const authLocks = pgTable(
  'auth_locks',
  {
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    until: tstz('until').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.subject] })],
);

export const mailOutbox = pgTable('mail_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: tstz('created_at').notNull().defaultNow(),
  sentAt: tstz('sent_at'),
  error: text('error'),
});

export const customScenarios = pgTable(
  'custom_scenarios',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('custom_scenarios_uq').on(t.accountId, t.name)],
);

export const projects = pgTable(
  'projects',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedByDefaultAsIdentity({ startWith: 1000000 }),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    netMode: smallint('net_mode').notNull().default(0),
    scenario: text('scenario').notNull(),
    location: text('location').notNull().default(''),
    address: text('address').notNull().default(''),
    /** An IANA zone (protocol/src/timezone.ts); device times and schedules are shown and run in it. */
    timeZone: text('time_zone').notNull().default('Asia/Shanghai'),
    isDemo: boolean('is_demo').notNull().default(false),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('projects_owner_idx').on(t.ownerId, t.createdAt),
    uniqueIndex('projects_owner_name_uq').on(t.ownerId, sql`lower(${t.name})`),
  ],
);

/**
 * Accounts other than the owner that may see a project (sharing, SPEC.md §6): permission 'r' or
 * 'rw', permanent (expiresAt null) or timed. Filled by the sharing capability.
 */
export const projectMembers = pgTable(
  'project_members',
  {
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    permission: text('permission').notNull(),
    expiresAt: tstz('expires_at'),
    /** When the account accepted the share or the invitation (rows are written on acceptance). */
    acceptedAt: tstz('accepted_at'),
    sharedBy: integer('shared_by').references(() => accounts.id),
    /** Hours a timed share lasts once accepted (null = permanent); see src/sharing/. */
    validHours: integer('valid_hours'),
    /**
     * How the account came in: 'share' (an offer to the account, accepted) or 'invite' (an invite
     * code). SPEC.md §6: invitation projects are read-only to invitees, whatever `permission` says.
     */
    via: text('via', { enum: ['share', 'invite'] })
      .notNull()
      .default('share'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.accountId] }),
    index('project_members_account_idx').on(t.accountId),
    check('project_members_via_ck', sql`${t.via} in ('share', 'invite')`),
  ],
);

/**
 * A share offered to an account and not yet accepted (docs/decisions/0022-consent-to-shares-and-transfers.md):
 * it grants nothing and counts toward none of the receiving account's limits until the account
 * accepts it, which turns it into a project_members row.
 */
export const shareOffers = pgTable(
  'share_offers',
  {
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    permission: text('permission').notNull(),
    /** Hours the share lasts once accepted (null = permanent). */
    validHours: integer('valid_hours'),
    offeredBy: integer('offered_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.accountId] }),
    index('share_offers_account_idx').on(t.accountId),
  ],
);

/**
 * A transfer of permission offered to an account and not yet accepted (one per project): the
 * project changes owner only when the receiving account accepts.
 */
export const projectTransfers = pgTable(
  'project_transfers',
  {
    projectId: bigint('project_id', { mode: 'number' })
      .primaryKey()
      .references(() => projects.id, { onDelete: 'cascade' }),
    fromAccountId: integer('from_account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    toAccountId: integer('to_account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: tstz('created_at').notNull(),
  },
  (t) => [index('project_transfers_to_idx').on(t.toAccountId)],
);

/**
 * Invitations to a project (src/sharing/): a single-use code, stored hashed, that expires (64).
 * With accountId the invitee already has an unaccepted project_members row; without, anyone
 * signed in may accept it once.
 */
export const shareInvites = pgTable(
  'share_invites',
  {
    id: serial('id').primaryKey(),
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    permission: text('permission').notNull(),
    validHours: integer('valid_hours'),
    expiresAt: tstz('expires_at').notNull(),
    createdBy: integer('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: tstz('created_at').notNull().defaultNow(),
    usedAt: tstz('used_at'),
    usedBy: integer('used_by').references(() => accounts.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('share_invites_code_uq').on(t.codeHash),
    index('share_invites_project_idx').on(t.projectId),
  ],
);

/**
 * Why an account lost a project it could see (docs/decisions/0013-lost-project-codes.md): written
 * when its access ends — 'expired' by the expiry job, 'removed' when the owner deletes the share,
 * the member unbinds or the project is transferred away from it — and cleared when the account is
 * given access to the project again. projects/access.ts reads it only when the project is not
 * visible, to answer 74 (expired) or 73 (removed) instead of 30.
 */
export const projectDepartures = pgTable(
  'project_departures',
  {
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    reason: text('reason', { enum: ['expired', 'removed'] }).notNull(),
    at: tstz('at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.accountId] }),
    index('project_departures_account_idx').on(t.accountId),
    check('project_departures_reason_ck', sql`${t.reason} in ('expired', 'removed')`),
  ],
);

/**
 * Durable jobs (src/jobs/): claimed with FOR UPDATE SKIP LOCKED, so several server instances
 * share them; a job with a key exists once (scheduling it again moves it).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    key: text('key'),
    payload: jsonb('payload').notNull().default({}),
    runAt: tstz('run_at').notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    failedAt: tstz('failed_at'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('jobs_key_uq').on(t.key), index('jobs_due_idx').on(t.runAt)],
);

/** Invariant 2: one row per administrator write; the Log screen reads it. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: tstz('at').notNull().defaultNow(),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    accountName: text('account_name').notNull(),
    projectId: bigint('project_id', { mode: 'number' }),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    requestId: text('request_id'),
  },
  (t) => [
    index('audit_log_project_idx').on(t.projectId, t.at),
    index('audit_log_account_idx').on(t.accountId, t.at),
  ],
);

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
 * Desired configuration as revisions (src/config/): a device's (sn set) or a project's own (sn
 * null). Each change is a new row, written in the change's transaction; secrets in `document` are
 * sealed (security/secrets.ts). `hash` is configHash of the plain document.
 */
export const configRevisions = pgTable(
  'config_revisions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    projectId: bigint('project_id', { mode: 'number' }).references(() => projects.id, {
      onDelete: 'cascade',
    }),
    sn: text('sn'),
    revision: integer('revision').notNull(),
    document: jsonb('document').notNull(),
    hash: text('hash').notNull(),
    authorId: integer('author_id').references(() => accounts.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    reason: text('reason').notNull().default(''),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('config_revisions_device_uq').on(t.sn, t.revision).where(sql`${t.sn} is not null`),
    uniqueIndex('config_revisions_project_uq').on(t.projectId, t.revision).where(sql`${t.sn} is null`),
    index('config_revisions_project_idx').on(t.projectId, t.sn, t.revision),
  ],
);

/** Commands sent to devices (src/gateway/commands.ts): one at a time per device, one outcome each. */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: text('id').primaryKey(),
    sn: text('sn').notNull(),
    /** The device's project when the command was sent (for the events and the UI). */
    projectId: bigint('project_id', { mode: 'number' }),
    name: text('name').notNull(),
    params: jsonb('params').notNull().default({}),
    /** sent | success | failed | timeout */
    state: text('state').notNull(),
    code: integer('code'),
    message: text('message'),
    data: jsonb('data'),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    accountName: text('account_name'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
    finishedAt: tstz('finished_at'),
    /**
     * What became of a command the device accepted and then carries out (gateway/outcomes.ts):
     * pending | done | failed | timeout; null for commands without a later outcome.
     */
    finalState: text('final_state'),
    finalCode: integer('final_code'),
    finalMessage: text('final_message'),
    finalAt: tstz('final_at'),
  },
  (t) => [
    index('device_commands_sn_idx').on(t.sn, t.createdAt),
    index('device_commands_open_idx').on(t.expiresAt).where(sql`${t.state} = 'sent'`),
    index('device_commands_final_idx').on(t.sn).where(sql`${t.finalState} = 'pending'`),
  ],
);

/** Events and alarms devices report on dev/{sn}/up/event (the alarm and log screens read them). */
export const deviceEvents = pgTable(
  'device_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
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
    uniqueIndex('device_events_uq').on(t.sn, t.eventId),
    index('device_events_project_idx').on(t.projectId, t.at),
  ],
);

// ── device maintenance (src/maintenance/) ───────────────────────────────────

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
 * Remote management sessions: the device's local page (its URL and bearer token) reached through
 * the server's own expiring address /api/v1/remote/{token}/, for the account that opened it.
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
    deviceUrl: text('device_url').notNull(),
    deviceToken: text('device_token').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    closedAt: tstz('closed_at'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [index('remote_sessions_sn_idx').on(t.sn, t.createdAt)],
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
  remote: jsonb('remote'),
  /** Configuration revision the device reports running. */
  reportedRevision: integer('reported_revision').notNull().default(0),
  /** What the device says it runs (state configHash); differs from devices.desiredHash = drift. */
  reportedHash: text('reported_hash'),
  lastSeenAt: tstz('last_seen_at'),
});
