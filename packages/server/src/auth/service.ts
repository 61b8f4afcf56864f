import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import {
  AccessType,
  AppError,
  type CodePurpose,
  Codes,
  type LoginBody,
  type ResetPasswordBody,
  type SendCodeBody,
  type SessionView,
  type SignInClient,
  type SignUpBody,
  validatePasswordConfirmation,
} from '@beacon/protocol';
import { deleteAllApiKeys } from '../accounts/repository.ts';
import { toSessionView } from '../accounts/views.ts';
import { recordAudit } from '../audit/audit.ts';
import type { DbOrTx } from '../db/client.ts';
import type { Deps } from '../deps.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import type { Principal } from './principal.ts';
import * as repo from './repository.ts';
import { createSession, revokeSession } from './sessions.ts';
import { createTwoFactor, type SignInOutcome } from './two-factor.ts';

/** SPEC.md §5/§9: codes live 10 minutes; 5 failures within 5 minutes lock for 30 minutes. */
export const CODE_TTL_MS = 10 * 60_000;
export const FAILURE_WINDOW_MS = 5 * 60_000;
export const MAX_FAILURES = 5;
export const LOCK_MS = 30 * 60_000;
/** SPEC.md §8 codes 53, 51, 52: at most 1 code per minute, 5 per hour, 10 per day. */
export const SEND_LIMITS = { minute: 1, hour: 5, day: 10 } as const;

export type LockKind = 'login' | 'code';

export interface RequestContext {
  requestId: string;
  ip?: string;
  userAgent?: string;
  client?: SignInClient;
}

export interface SignedIn {
  token: string;
  persistent: boolean;
  view: SessionView;
}

function hashCode(email: string, purpose: string, code: string): string {
  return createHash('sha256').update(`${purpose}:${email}:${code}`).digest('hex');
}

const wrongCode = (): AppError =>
  new AppError(Codes.VERIFICATION_CODE, 'Wrong verification code', { code: 'Wrong verification code' });

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const CLOUD_ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export function randomCloudId(): string {
  let id = '';
  for (let i = 0; i < 10; i++) id += CLOUD_ID_ALPHABET[randomInt(CLOUD_ID_ALPHABET.length)];
  return id;
}

function codeMail(purpose: CodePurpose, code: string): { subject: string; body: string } {
  const action = purpose === 'signup' ? 'create your Beacon account' : 'reset your Beacon password';
  return {
    subject: `Your Beacon verification code: ${code}`,
    body: [
      'Hello,',
      '',
      `Use this verification code to ${action}: ${code}`,
      '',
      'The code is valid for 10 minutes. If you did not ask for it, you can ignore this email.',
      '',
      'Beacon',
    ].join('\n'),
  };
}

export function createAuthService(deps: Deps) {
  const { db } = deps.database;
  const { config } = deps;
  const twoFactor = createTwoFactor(deps);

  // ------------------------------------------------------------ failures and locks

  async function assertNotLocked(kind: LockKind, subject: string, now: Date): Promise<void> {
    if (await repo.lockedUntil(db, kind, subject, now)) {
      throw new AppError(kind === 'login' ? Codes.PASSWORD_INPUT_LIMIT : Codes.VERIFY_LIMIT);
    }
  }

  /** Records a failure (committed on its own); true when it is the one that locks the subject. */
  async function recordFailure(kind: LockKind, subject: string, now: Date): Promise<boolean> {
    return db.transaction(async (tx) => {
      await repo.lockKey(tx, `auth-failure:${kind}:${subject}`);
      await repo.insertFailure(tx, kind, subject, now);
      const recent = await repo.countFailuresSince(
        tx,
        kind,
        subject,
        new Date(now.getTime() - FAILURE_WINDOW_MS),
      );
      if (recent < MAX_FAILURES) return false;
      await repo.upsertLock(tx, kind, subject, new Date(now.getTime() + LOCK_MS));
      await repo.deleteFailures(tx, kind, subject);
      return true;
    });
  }

  async function clearFailures(tx: DbOrTx, kind: LockKind, subject: string): Promise<void> {
    await repo.deleteFailures(tx, kind, subject);
    await repo.deleteLock(tx, kind, subject);
  }

  /**
   * Checks an email code: refused while the email's verification is locked (75); it must be the
   * latest unused code of that email and purpose and not expired, else 12 (SPEC.md §8; a malformed
   * code is refused with 11 by the validator). A wrong code counts towards the lock; the 5th failure
   * within 5 minutes answers 75. Returns the code's id.
   */
  async function checkCode(email: string, purpose: CodePurpose, code: string, now: Date): Promise<number> {
    await assertNotLocked('code', email, now);
    const latest = await repo.latestUnusedCode(db, email, purpose);
    if (!latest || !sameHash(latest.codeHash, hashCode(email, purpose, code))) {
      const locked = await recordFailure('code', email, now);
      if (locked) throw new AppError(Codes.VERIFY_LIMIT);
      throw wrongCode();
    }
    if (latest.expiresAt.getTime() <= now.getTime()) {
      throw new AppError(Codes.VERIFICATION_CODE, 'The verification code has expired', {
        code: 'The verification code has expired',
      });
    }
    return latest.id;
  }

  async function useCode(tx: DbOrTx, codeId: number, email: string, now: Date): Promise<void> {
    if (!(await repo.markCodeUsed(tx, codeId, now))) throw wrongCode();
    await clearFailures(tx, 'code', email);
  }

  function assertConfirmation(password: string, confirmation: string): void {
    const failure = validatePasswordConfirmation(password, confirmation);
    if (failure) throw new AppError(failure.code, failure.message, { confirmPassword: failure.message });
  }

  async function sessionFor(
    tx: DbOrTx,
    account: repo.AccountRow,
    persistent: boolean,
    ctx: RequestContext,
    now: Date,
  ): Promise<SignedIn> {
    const token = await createSession(tx, config, now, {
      accountId: account.id,
      passwordVersion: account.passwordVersion,
      persistent,
      userAgent: ctx.userAgent,
      ip: ctx.ip,
      client: ctx.client,
    });
    return {
      token,
      persistent,
      view: toSessionView(account, AccessType.WEB, config.idleTimeoutSeconds, now),
    };
  }

  return {
    /**
     * POST /auth/codes. For 'reset' an unknown email gets the same answer (and the same limits) as a
     * known one, but no mail: the answer never tells whether an account exists.
     */
    async sendCode(body: SendCodeBody): Promise<void> {
      const { email, purpose } = body;
      const now = deps.now();
      const existing =
        purpose === 'signup'
          ? await repo.findAccountByLogin(db, email)
          : await repo.findAccountByEmail(db, email);
      if (purpose === 'signup' && existing) throw new AppError(Codes.USER_EXISTS);
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      await db.transaction(async (tx) => {
        await repo.lockKey(tx, `code-send:${purpose}:${email}`);
        const sent = await repo.countCodesSent(tx, email, purpose, now);
        if (sent.minute >= SEND_LIMITS.minute) throw new AppError(Codes.SEND_PER_MINUTE);
        if (sent.hour >= SEND_LIMITS.hour) throw new AppError(Codes.SEND_PER_HOUR);
        if (sent.day >= SEND_LIMITS.day) throw new AppError(Codes.SEND_PER_DAY);
        await repo.insertCode(tx, {
          email,
          purpose,
          codeHash: hashCode(email, purpose, code),
          createdAt: now,
          expiresAt: new Date(now.getTime() + CODE_TTL_MS),
        });
      });
      const deliver = purpose === 'signup' || (existing !== undefined && !existing.isSystem);
      // In the background (decision 0010): waiting for the outbox row and SMTP only when the
      // account exists would let the answer's timing tell that it does.
      if (deliver) deps.mailer.sendLater({ to: email, ...codeMail(purpose, code) });
    },

    /** POST /auth/signup: creates the account (role 0, random cloud id) and signs it in. */
    async signUp(body: SignUpBody, ctx: RequestContext): Promise<SignedIn> {
      const now = deps.now();
      const email = body.email;
      assertConfirmation(body.password, body.confirmPassword);
      await assertNotLocked('code', email, now);
      if (await repo.findAccountByLogin(db, email)) throw new AppError(Codes.USER_EXISTS);
      const codeId = await checkCode(email, 'signup', body.code, now);
      const passwordHash = await hashPassword(body.password);
      let cloudId = randomCloudId();
      while (await repo.cloudIdExists(db, cloudId)) cloudId = randomCloudId();
      try {
        return await db.transaction(async (tx) => {
          await repo.lockKey(tx, `email:${email}`);
          if (await repo.findAccountByLogin(tx, email)) throw new AppError(Codes.USER_EXISTS);
          await useCode(tx, codeId, email, now);
          const nick = body.nick || email.split('@')[0].slice(0, 32);
          const account = await repo.insertAccount(tx, { email, nick, passwordHash, cloudId, now });
          await recordAudit(
            tx,
            { accountId: account.id, account: account.account, requestId: ctx.requestId },
            {
              action: 'signup',
              entity: 'account',
              entityId: account.id,
              after: { email, nick, cloudId },
              at: now,
            },
          );
          return sessionFor(tx, account, false, ctx, now);
        });
      } catch (err) {
        if (repo.isUniqueViolation(err, 'accounts_account_uq')) throw new AppError(Codes.USER_EXISTS);
        throw err;
      }
    },

    /**
     * POST /auth/login. Unknown account, wrong password and the system demo owner all answer 5001
     * after the same argon2 work; 5 failures within 5 minutes lock the login for 30 minutes (80).
     * With two-factor sign-in on, the answer is a challenge for the second factor (two-factor.ts).
     */
    async login(body: LoginBody, ctx: RequestContext): Promise<SignInOutcome> {
      const now = deps.now();
      const account = await repo.findAccountByLogin(db, body.account);
      const subject = account ? `id:${account.id}` : `name:${body.account}`;
      await assertNotLocked('login', subject, now);
      const usable = account && !account.isSystem ? account : undefined;
      const verified = await verifyPassword(usable?.passwordHash, body.password);
      if (!usable || !verified) {
        const locked = await recordFailure('login', subject, now);
        throw new AppError(locked ? Codes.PASSWORD_INPUT_LIMIT : Codes.BAD_CREDENTIALS);
      }
      return db.transaction(async (tx) => {
        await clearFailures(tx, 'login', subject);
        return twoFactor.completeSignIn(tx, usable, body.remember === true, ctx, now, body.force === true);
      });
    },

    /** POST /auth/logout: the session is revoked server-side; its token answers 10 afterwards. */
    async logout(principal: Principal | null): Promise<void> {
      if (principal?.sessionId) await revokeSession(db, principal.sessionId, deps.now());
    },

    /** GET /auth/session */
    async session(principal: Principal): Promise<SessionView> {
      const account = await repo.findAccountById(db, principal.accountId);
      if (!account) throw new AppError(Codes.TOKEN_OLD);
      return toSessionView(account, principal.accessType, config.idleTimeoutSeconds, deps.now());
    },

    /**
     * POST /auth/reset: same code rules and lockout as sign-up. Sets the password, bumps
     * passwordVersion (older sessions answer 70), ends every API key (docs/decisions/0023) and
     * lifts the login lockout.
     */
    async resetPassword(body: ResetPasswordBody, ctx: RequestContext): Promise<void> {
      const now = deps.now();
      const email = body.email;
      assertConfirmation(body.password, body.confirmPassword);
      const codeId = await checkCode(email, 'reset', body.code, now);
      const account = await repo.findAccountByEmail(db, email);
      if (!account || account.isSystem) throw wrongCode();
      const passwordHash = await hashPassword(body.password);
      await db.transaction(async (tx) => {
        await useCode(tx, codeId, email, now);
        await repo.setPassword(tx, account.id, passwordHash, now);
        const revokedApiKeys = await deleteAllApiKeys(tx, account.id);
        await clearFailures(tx, 'login', `id:${account.id}`);
        await recordAudit(
          tx,
          { accountId: account.id, account: account.account, requestId: ctx.requestId },
          {
            action: 'reset-password',
            entity: 'account',
            entityId: account.id,
            at: now,
            after: { revokedApiKeys },
          },
        );
      });
    },

    /** Shared with the account domain: wrong old passwords count towards the login lockout. */
    assertLoginNotLocked: (accountId: number, now: Date) => assertNotLocked('login', `id:${accountId}`, now),
    recordLoginFailure: (accountId: number, now: Date) => recordFailure('login', `id:${accountId}`, now),
    /** The same, for a sign-in subject of another kind (a phone number: auth/phone-sign-in.ts). */
    assertLoginNotLockedBy: (subject: string, now: Date) => assertNotLocked('login', subject, now),
    recordLoginFailureBy: (subject: string, now: Date) => recordFailure('login', subject, now),
    clearLoginFailures: (tx: DbOrTx, subject: string) => clearFailures(tx, 'login', subject),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
