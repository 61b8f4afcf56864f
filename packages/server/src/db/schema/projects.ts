import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { tstz } from './columns.ts';

// Projects and who may see them: members, offers, transfers, invitations, departures (src/projects/, src/sharing/).

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
     * 'subordinate': the owner gave the project to one of its subordinate accounts (docs/decisions/0059).
     */
    via: text('via', { enum: ['share', 'invite', 'subordinate'] })
      .notNull()
      .default('share'),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.accountId] }),
    index('project_members_account_idx').on(t.accountId),
    check('project_members_via_ck', sql`${t.via} in ('share', 'invite', 'subordinate')`),
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
