import { createHash, randomInt } from 'node:crypto';
import {
  AccessType,
  AppError,
  Codes,
  RECOVERY_CODE_COUNT,
  type RecoveryCodesView,
  type SecondFactorNeeded,
  type SessionView,
  type SignInClient,
  type TwoFactorSetupView,
} from '@beacon/protocol';
import { and, count, eq, isNull } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { toSessionView } from '../accounts/views.ts';
import { recordAudit } from '../audit/audit.ts';
import type { Config } from '../config.ts';
import type { DbOrTx } from '../db/client.ts';
import { accountSecurity, recoveryCodes, signInChallenges } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { DEV_SECRET_KEY, Secrets } from '../security/secrets.ts';
import type { Principal } from './principal.ts';
import * as repo from './repository.ts';
import { createSession } from './sessions.ts';
import { assertOtherAppOffline } from './single-session.ts';
import { hashSecret, newSecret } from './tokens.ts';

/**
 * Two-factor sign-in (decision 0057): TOTP of RFC 6238 (SHA-1, 6 digits, 30-second steps, one step
 * of drift either way, each step's code good once) with 10 single-use recovery codes. The second
 * factor follows the password or the social provider; 5 wrong codes within 5 minutes lock it for 30
 * minutes (75), as SPEC.md §8 rules for verification codes. Time is deps.now(): tests move it.
 */
export const TOTP_PERIOD_S = 30;
export const TOTP_WINDOW = 1;
export const CHALLENGE_TTL_MS = 5 * 60_000;
export const SETUP_TTL_MS = 15 * 60_000;
export const SECOND_FACTOR_LOCK = 'second-factor';
const FAILURE_WINDOW_MS = 5 * 60_000;
const MAX_FAILURES = 5;
const LOCK_MS = 30 * 60_000;
const ISSUER = 'Beacon';

export interface RequestContext {
  requestId: string;
  ip?: string;
  userAgent?: string;
  /** The kind of client signing in (X-Beacon-Client; decision 0068). */
  client?: SignInClient;
}

/** A sign-in's first factor passed: a session, or a challenge for the second factor. */
export type SignInOutcome =
  | { kind: 'session'; token: string; persistent: boolean; view: SessionView }
  | { kind: 'challenge'; challengeToken: string; step: SecondFactorNeeded };

const secretsOf = (config: Config) => new Secrets(config.secretKey ?? DEV_SECRET_KEY);

function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_S,
    secret: Secret.fromBase32(secretBase32),
  });
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
function newRecoveryCode(): string {
  let s = '';
  for (let i = 0; i < 8; i++) s += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${s.slice(0, 4)}-${s.slice(4)}`;
}
const hashRecovery = (accountId: number, code: string) =>
  createHash('sha256')
    .update(`recovery:${accountId}:${code.replace('-', '')}`)
    .digest('hex');

export async function securityRow(db: DbOrTx, accountId: number) {
  const [row] = await db.select().from(accountSecurity).where(eq(accountSecurity.accountId, accountId));
  return row;
}

export async function upsertSecurity(
  db: DbOrTx,
  accountId: number,
  set: Partial<typeof accountSecurity.$inferInsert>,
): Promise<void> {
  await db
    .insert(accountSecurity)
    .values({ accountId, ...set })
    .onConflictDoUpdate({ target: accountSecurity.accountId, set });
}

export async function twoFactorOn(db: DbOrTx, accountId: number): Promise<boolean> {
  const row = await securityRow(db, accountId);
  return Boolean(row?.totpEnabledAt && row.totpSecret);
}

export async function recoveryCodesLeft(db: DbOrTx, accountId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.accountId, accountId), isNull(recoveryCodes.usedAt)));
  return row.n;
}

async function replaceRecoveryCodes(tx: DbOrTx, accountId: number, now: Date): Promise<string[]> {
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.accountId, accountId));
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx
    .insert(recoveryCodes)
    .values(codes.map((c) => ({ accountId, codeHash: hashRecovery(accountId, c), createdAt: now })));
  return codes;
}

export function createTwoFactor(deps: Deps) {
  const { db } = deps.database;
  const { config } = deps;
  const secrets = secretsOf(config);
  const subject = (accountId: number) => `id:${accountId}`;

  async function assertNotLocked(accountId: number, now: Date): Promise<void> {
    if (await repo.lockedUntil(db, SECOND_FACTOR_LOCK, subject(accountId), now)) {
      throw new AppError(Codes.VERIFY_LIMIT);
    }
  }

  /** A wrong code: counted (committed on its own); the 5th within 5 minutes locks and answers 75. */
  async function wrongCode(accountId: number, now: Date): Promise<never> {
    const locked = await db.transaction(async (tx) => {
      const s = subject(accountId);
      await repo.lockKey(tx, `auth-failure:${SECOND_FACTOR_LOCK}:${s}`);
      await repo.insertFailure(tx, SECOND_FACTOR_LOCK, s, now);
      const recent = await repo.countFailuresSince(
        tx,
        SECOND_FACTOR_LOCK,
        s,
        new Date(now.getTime() - FAILURE_WINDOW_MS),
      );
      if (recent < MAX_FAILURES) return false;
      await repo.upsertLock(tx, SECOND_FACTOR_LOCK, s, new Date(now.getTime() + LOCK_MS));
      await repo.deleteFailures(tx, SECOND_FACTOR_LOCK, s);
      return true;
    });
    if (locked) throw new AppError(Codes.VERIFY_LIMIT);
    throw new AppError(Codes.VERIFICATION_CODE, 'Wrong authentication code', {
      code: 'Wrong authentication code',
    });
  }

  /** The step a TOTP code belongs to under `secret`, or null (a code of a used step is refused too). */
  function totpStep(secretBase32: string, code: string, now: Date, lastStep: number | null): number | null {
    const delta = totpFor(secretBase32, ISSUER).validate({
      token: code,
      timestamp: now.getTime(),
      window: TOTP_WINDOW,
    });
    if (delta === null) return null;
    const step = Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S) + delta;
    return lastStep !== null && step <= lastStep ? null : step;
  }

  /**
   * Checks a second factor in `tx`: a TOTP code (its step recorded) or, when allowed, an unused
   * recovery code (then used up). Refused while locked (75); wrong answers 12 and counts.
   */
  async function verify(
    tx: DbOrTx,
    accountId: number,
    code: string,
    now: Date,
    allowRecovery: boolean,
  ): Promise<'totp' | 'recovery'> {
    await assertNotLocked(accountId, now);
    await repo.lockKey(tx, `second-factor:${accountId}`);
    const row = await securityRow(tx, accountId);
    if (!row?.totpEnabledAt || !row.totpSecret) throw new AppError(Codes.TWO_FACTOR_OFF);
    if (/^\d{6}$/.test(code)) {
      const step = totpStep(secrets.open(row.totpSecret), code, now, row.totpLastStep);
      if (step !== null) {
        await upsertSecurity(tx, accountId, { totpLastStep: step });
        return 'totp';
      }
    } else if (allowRecovery) {
      const used = await tx
        .update(recoveryCodes)
        .set({ usedAt: now })
        .where(
          and(
            eq(recoveryCodes.accountId, accountId),
            eq(recoveryCodes.codeHash, hashRecovery(accountId, code)),
            isNull(recoveryCodes.usedAt),
          ),
        )
        .returning({ id: recoveryCodes.id });
      if (used.length > 0) return 'recovery';
    }
    return wrongCode(accountId, now);
  }

  async function clearFailures(tx: DbOrTx, accountId: number): Promise<void> {
    await repo.deleteFailures(tx, SECOND_FACTOR_LOCK, subject(accountId));
  }

  return {
    /**
     * The end of every first factor (password, phone, social provider): with two-factor sign-in on,
     * a challenge (5 minutes) instead of a session. In single-session mode, the account online in
     * another kind of client answers 69 unless `force` ("sign in here anyway", decision 0068).
     */
    async completeSignIn(
      tx: DbOrTx,
      account: repo.AccountRow,
      persistent: boolean,
      ctx: RequestContext,
      now: Date,
      force = false,
    ): Promise<SignInOutcome> {
      if (!force) await assertOtherAppOffline(tx, account.id, ctx.client ?? 'web', now);
      if (await twoFactorOn(tx, account.id)) {
        const challengeToken = newSecret();
        const expiresAt = new Date(now.getTime() + CHALLENGE_TTL_MS);
        await tx.insert(signInChallenges).values({
          tokenHash: hashSecret(challengeToken),
          accountId: account.id,
          persistent,
          createdAt: now,
          expiresAt,
        });
        return {
          kind: 'challenge',
          challengeToken,
          step: { secondFactor: true, expiresAt: expiresAt.toISOString() },
        };
      }
      const token = await createSession(tx, config, now, {
        accountId: account.id,
        passwordVersion: account.passwordVersion,
        persistent,
        userAgent: ctx.userAgent,
        ip: ctx.ip,
        client: ctx.client,
      });
      return {
        kind: 'session',
        token,
        persistent,
        view: toSessionView(account, AccessType.WEB, config.idleTimeoutSeconds, now),
      };
    },

    /** POST /auth/second-factor: the challenge's cookie and a TOTP or recovery code. */
    async finishSignIn(
      challengeToken: string | undefined,
      code: string,
      ctx: RequestContext,
    ): Promise<{ token: string; persistent: boolean; view: SessionView }> {
      const now = deps.now();
      const expired = () => new AppError(Codes.SECOND_FACTOR_EXPIRED);
      if (!challengeToken) throw expired();
      const [challenge] = await db
        .select()
        .from(signInChallenges)
        .where(eq(signInChallenges.tokenHash, hashSecret(challengeToken)));
      if (!challenge || challenge.usedAt || challenge.expiresAt.getTime() <= now.getTime()) throw expired();
      const account = await repo.findAccountById(db, challenge.accountId);
      if (!account) throw expired();
      return db.transaction(async (tx) => {
        const method = await verify(tx, account.id, code, now, true);
        const taken = await tx
          .update(signInChallenges)
          .set({ usedAt: now })
          .where(and(eq(signInChallenges.id, challenge.id), isNull(signInChallenges.usedAt)))
          .returning({ id: signInChallenges.id });
        if (taken.length === 0) throw expired();
        await clearFailures(tx, account.id);
        const token = await createSession(tx, config, now, {
          accountId: account.id,
          passwordVersion: account.passwordVersion,
          persistent: challenge.persistent,
          userAgent: ctx.userAgent,
          ip: ctx.ip,
          client: ctx.client,
        });
        if (method === 'recovery') {
          await recordAudit(
            tx,
            { accountId: account.id, account: account.account, requestId: ctx.requestId },
            { action: 'sign-in-recovery-code', entity: 'account', entityId: account.id, at: now },
          );
        }
        return {
          token,
          persistent: challenge.persistent,
          view: toSessionView(account, AccessType.WEB, config.idleTimeoutSeconds, now),
        };
      });
    },

    /** POST /account/two-factor/setup: a new secret waits (15 minutes) for a code that proves it. */
    async setup(principal: Principal): Promise<TwoFactorSetupView> {
      const now = deps.now();
      if (await twoFactorOn(db, principal.accountId)) throw new AppError(Codes.TWO_FACTOR_ON);
      const secret = new Secret({ size: 20 }).base32;
      await upsertSecurity(db, principal.accountId, {
        totpPendingSecret: secrets.seal(secret),
        totpPendingAt: now,
      });
      return { secret, uri: totpFor(secret, principal.account).toString() };
    },

    /** POST /account/two-factor/enable: a code of the waiting secret turns it on; recovery codes. */
    async enable(principal: Principal, code: string, ctx: RequestContext): Promise<RecoveryCodesView> {
      const now = deps.now();
      const accountId = principal.accountId;
      await assertNotLocked(accountId, now);
      return db.transaction(async (tx) => {
        await repo.lockKey(tx, `second-factor:${accountId}`);
        const row = await securityRow(tx, accountId);
        if (row?.totpEnabledAt) throw new AppError(Codes.TWO_FACTOR_ON);
        if (
          !row?.totpPendingSecret ||
          !row.totpPendingAt ||
          row.totpPendingAt.getTime() + SETUP_TTL_MS <= now.getTime()
        ) {
          throw new AppError(Codes.TWO_FACTOR_NO_SETUP);
        }
        const step = totpStep(secrets.open(row.totpPendingSecret), code, now, null);
        if (step === null) return wrongCode(accountId, now);
        await upsertSecurity(tx, accountId, {
          totpSecret: row.totpPendingSecret,
          totpEnabledAt: now,
          totpLastStep: step,
          totpPendingSecret: null,
          totpPendingAt: null,
        });
        await clearFailures(tx, accountId);
        const recoveryCodes = await replaceRecoveryCodes(tx, accountId, now);
        await recordAudit(
          tx,
          { accountId, account: principal.account, requestId: ctx.requestId },
          { action: 'two-factor-on', entity: 'account', entityId: accountId, at: now },
        );
        return { recoveryCodes };
      });
    },

    /** POST /account/two-factor/disable: a current code (or a recovery code) turns it off. */
    async disable(principal: Principal, code: string, ctx: RequestContext): Promise<void> {
      const now = deps.now();
      const accountId = principal.accountId;
      await db.transaction(async (tx) => {
        await verify(tx, accountId, code, now, true);
        await upsertSecurity(tx, accountId, { totpSecret: null, totpEnabledAt: null, totpLastStep: null });
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.accountId, accountId));
        await clearFailures(tx, accountId);
        await recordAudit(
          tx,
          { accountId, account: principal.account, requestId: ctx.requestId },
          { action: 'two-factor-off', entity: 'account', entityId: accountId, at: now },
        );
      });
    },

    /** POST /account/two-factor/recovery-codes: a current TOTP code; the old codes end. */
    async newRecoveryCodes(
      principal: Principal,
      code: string,
      ctx: RequestContext,
    ): Promise<RecoveryCodesView> {
      const now = deps.now();
      const accountId = principal.accountId;
      return db.transaction(async (tx) => {
        await verify(tx, accountId, code, now, false);
        await clearFailures(tx, accountId);
        const recoveryCodes = await replaceRecoveryCodes(tx, accountId, now);
        await recordAudit(
          tx,
          { accountId, account: principal.account, requestId: ctx.requestId },
          { action: 'recovery-codes', entity: 'account', entityId: accountId, at: now },
        );
        return { recoveryCodes };
      });
    },
  };
}

export type TwoFactor = ReturnType<typeof createTwoFactor>;
