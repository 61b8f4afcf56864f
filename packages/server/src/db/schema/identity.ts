import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { tstz } from './columns.ts';

// Sign-in methods beyond the password (src/auth/oidc.ts, two-factor.ts, sms.ts; decisions 0056, 0057).

/** External identities bound to an account: one per provider slot, one account per identity. */
export const accountIdentities = pgTable(
  'account_identities',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    /** The provider's issuer and its `sub` claim: together they name the person for good. */
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    label: text('label').notNull().default(''),
    boundAt: tstz('bound_at').notNull(),
  },
  (t) => [
    uniqueIndex('account_identities_subject_uq').on(t.provider, t.issuer, t.subject),
    uniqueIndex('account_identities_account_uq').on(t.accountId, t.provider),
  ],
);

/**
 * An authorization request on its way through the provider: its state, nonce and PKCE verifier,
 * kept in the database so that any server instance can take the callback; the browser that started
 * it holds `browserHash`'s secret in a cookie. Used once, 10 minutes at most.
 */
export const oidcFlows = pgTable(
  'oidc_flows',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    state: text('state').notNull(),
    browserHash: text('browser_hash').notNull(),
    provider: text('provider').notNull(),
    /** null: sign in (or sign up); an account: bind to it. */
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    remember: boolean('remember').notNull().default(false),
    /** "Sign in here anyway" (code 69, decision 0068). */
    force: boolean('force').notNull().default(false),
    createdAt: tstz('created_at').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
  },
  (t) => [uniqueIndex('oidc_flows_state_uq').on(t.state), index('oidc_flows_expires_idx').on(t.expiresAt)],
);

/** Per-account sign-in settings: single-session mode, the TOTP secret (sealed), the verified phone. */
export const accountSecurity = pgTable(
  'account_security',
  {
    accountId: integer('account_id')
      .primaryKey()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    singleSession: boolean('single_session').notNull().default(false),
    totpSecret: text('totp_secret'),
    totpEnabledAt: tstz('totp_enabled_at'),
    /** The last 30-second step whose code was accepted: a code is good once (RFC 6238 §5.2). */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    totpPendingSecret: text('totp_pending_secret'),
    totpPendingAt: tstz('totp_pending_at'),
    phoneRegion: text('phone_region'),
    phoneNumber: text('phone_number'),
    phoneVerifiedAt: tstz('phone_verified_at'),
  },
  // A verified number signs in to one account (decision 0068).
  (t) => [
    uniqueIndex('account_security_phone_uq')
      .on(t.phoneRegion, t.phoneNumber)
      .where(sql`${t.phoneVerifiedAt} is not null`),
  ],
);

/** Single-use recovery codes of two-factor sign-in (only a SHA-256 is kept). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: tstz('created_at').notNull(),
    usedAt: tstz('used_at'),
  },
  (t) => [index('recovery_codes_account_idx').on(t.accountId)],
);

/** A sign-in that passed its first factor and waits for the second (a cookie holds the secret). */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tokenHash: text('token_hash').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    persistent: boolean('persistent').notNull().default(false),
    createdAt: tstz('created_at').notNull(),
    expiresAt: tstz('expires_at').notNull(),
    usedAt: tstz('used_at'),
  },
  (t) => [uniqueIndex('sign_in_challenges_token_uq').on(t.tokenHash)],
);
