import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { bytea, tstz } from './columns.ts';

// Accounts, their sign-in sessions, API keys and the sign-up / sign-in safeguards (src/accounts/, src/auth/).

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
    /** Subordinate accounts (docs/decisions/0059): the main account, and the level (guest 0, admin 1). */
    parentId: integer('parent_id').references((): AnyPgColumn => accounts.id, { onDelete: 'cascade' }),
    level: smallint('level'),
    /** The device-joining alert lists devices first seen after this (null: since createdAt). */
    joinedSeenThrough: tstz('joined_seen_through'),
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
    /** Why it ended: null (signed out, expired), 'elsewhere' (single-session mode: answers 5003). */
    revokedReason: text('revoked_reason'),
    userAgent: text('user_agent'),
    ip: text('ip'),
    /** 'web' (the console) or 'app' (another app, by the X-Beacon-Client header): decision 0068. */
    client: text('client', { enum: ['web', 'app'] })
      .notNull()
      .default('web'),
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
    /** 'read' or 'read-write' (docs/decisions/0058). */
    scope: text('scope', { enum: ['read', 'read-write'] })
      .notNull()
      .default('read'),
    /** null: every project the account can see. */
    projectIds: bigint('project_ids', { mode: 'number' }).array(),
    expiresAt: tstz('expires_at'),
    ratePerMinute: integer('rate_per_minute').notNull().default(600),
  },
  (t) => [uniqueIndex('api_keys_hash_uq').on(t.keyHash)],
);

/** Calls per API key and minute: the rate counter every server instance shares. */
export const apiKeyUsage = pgTable(
  'api_key_usage',
  {
    keyId: integer('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    windowStart: tstz('window_start').notNull(),
    calls: integer('calls').notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.windowStart] })],
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
