import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import {
  AppError,
  Codes,
  DEFAULT_REGION_CODE,
  type PhoneLoginBody,
  type PhoneSignInCodeBody,
} from '@beacon/protocol';
import type { Deps } from '../deps.ts';
import { verifyPassword } from './passwords.ts';
import * as repo from './repository.ts';
import type { AuthService } from './service.ts';
import { CODE_TTL_MS, FAILURE_WINDOW_MS, LOCK_MS, MAX_FAILURES, SEND_LIMITS } from './service.ts';
import { accountOfPhone, e164, smsSenderOf } from './sms.ts';
import { createTwoFactor, type RequestContext, type SignInOutcome } from './two-factor.ts';

/**
 * Signing in with a verified phone number (decision 0068): with the account's password, or with a
 * 4-digit SMS code (SPEC.md §5; region code 86 by default, §9). The same safeguards as the email:
 * a wrong password counts towards the account's login lockout (80), a wrong code towards the
 * number's verification lock (75), the SMS limits 53/51/52 per number, and the second factor after.
 * Whether a number belongs to an account is never told: unknown numbers get the same answers.
 */
export const PHONE_SIGN_IN_PURPOSE = 'phone-login';

const hashCode = (to: string, code: string) =>
  createHash('sha256').update(`sms-login:${to}:${code}`).digest('hex');
const sameHash = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

type Input<T> = T & { regionCode?: string };

export function createPhoneSignIn(deps: Deps, auth: AuthService) {
  const { db } = deps.database;
  const sender = smsSenderOf(deps);
  const twoFactor = createTwoFactor(deps);

  /** A wrong code for `to`: counted; the 5th within 5 minutes locks the number for 30 (75). */
  async function wrongCode(to: string, now: Date): Promise<never> {
    const locked = await db.transaction(async (tx) => {
      await repo.lockKey(tx, `auth-failure:code:${to}`);
      await repo.insertFailure(tx, 'code', to, now);
      const since = new Date(now.getTime() - FAILURE_WINDOW_MS);
      if ((await repo.countFailuresSince(tx, 'code', to, since)) < MAX_FAILURES) return false;
      await repo.upsertLock(tx, 'code', to, new Date(now.getTime() + LOCK_MS));
      await repo.deleteFailures(tx, 'code', to);
      return true;
    });
    if (locked) throw new AppError(Codes.VERIFY_LIMIT);
    throw new AppError(Codes.VERIFICATION_CODE, 'Wrong verification code', {
      code: 'Wrong verification code',
    });
  }

  async function usableAccount(regionCode: string, phone: string) {
    const id = await accountOfPhone(db, regionCode, phone);
    const account = id === undefined ? undefined : await repo.findAccountById(db, id);
    return account && !account.isSystem ? account : undefined;
  }

  return {
    /** POST /auth/phone/code: the code row and the limits whether or not the number is known. */
    async sendCode(body: Input<PhoneSignInCodeBody>): Promise<void> {
      if (!sender.available) throw new AppError(Codes.SMS_UNAVAILABLE);
      const now = deps.now();
      const regionCode = body.regionCode ?? DEFAULT_REGION_CODE;
      const to = e164(regionCode, body.phone);
      const code = String(randomInt(0, 10_000)).padStart(4, '0');
      await db.transaction(async (tx) => {
        await repo.lockKey(tx, `code-send:${PHONE_SIGN_IN_PURPOSE}:${to}`);
        const sent = await repo.countCodesSent(tx, to, PHONE_SIGN_IN_PURPOSE, now);
        if (sent.minute >= SEND_LIMITS.minute) throw new AppError(Codes.SEND_PER_MINUTE);
        if (sent.hour >= SEND_LIMITS.hour) throw new AppError(Codes.SEND_PER_HOUR);
        if (sent.day >= SEND_LIMITS.day) throw new AppError(Codes.SEND_PER_DAY);
        await repo.insertCode(tx, {
          email: to,
          purpose: PHONE_SIGN_IN_PURPOSE,
          codeHash: hashCode(to, code),
          createdAt: now,
          expiresAt: new Date(now.getTime() + CODE_TTL_MS),
        });
      });
      // In the background, so that the answer's timing does not tell whether the number is known.
      void (async () => {
        if (!(await usableAccount(regionCode, body.phone))) return;
        await sender.send(to, `Beacon sign-in code: ${code}. Valid for 10 minutes.`);
      })().catch((err) => deps.log.error({ err }, 'sign-in SMS not sent'));
    },

    /** POST /auth/phone/login: password or SMS code, then the second factor when it is on. */
    async login(body: Input<PhoneLoginBody>, ctx: RequestContext): Promise<SignInOutcome> {
      const now = deps.now();
      const regionCode = body.regionCode ?? DEFAULT_REGION_CODE;
      const to = e164(regionCode, body.phone);
      const account = await usableAccount(regionCode, body.phone);
      const remember = body.remember === true;
      const force = body.force === true;
      if (body.password !== undefined) {
        // The email sign-in's rules: the account's lockout (80), or the number's for unknown ones.
        const subject = account ? `id:${account.id}` : `phone:${to}`;
        await auth.assertLoginNotLockedBy(subject, now);
        const verified = await verifyPassword(account?.passwordHash, body.password);
        if (!account || !verified) {
          const locked = await auth.recordLoginFailureBy(subject, now);
          throw new AppError(locked ? Codes.PASSWORD_INPUT_LIMIT : Codes.BAD_CREDENTIALS);
        }
        return db.transaction(async (tx) => {
          await auth.clearLoginFailures(tx, subject);
          return twoFactor.completeSignIn(tx, account, remember, ctx, now, force);
        });
      }
      if (await repo.lockedUntil(db, 'code', to, now)) throw new AppError(Codes.VERIFY_LIMIT);
      const latest = await repo.latestUnusedCode(db, to, PHONE_SIGN_IN_PURPOSE);
      if (!account || !latest || !sameHash(latest.codeHash, hashCode(to, body.code ?? ''))) {
        return wrongCode(to, now);
      }
      if (latest.expiresAt.getTime() <= now.getTime()) {
        throw new AppError(Codes.VERIFICATION_CODE, 'The verification code has expired', {
          code: 'The verification code has expired',
        });
      }
      return db.transaction(async (tx) => {
        if (!(await repo.markCodeUsed(tx, latest.id, now))) return wrongCode(to, now);
        await repo.deleteFailures(tx, 'code', to);
        return twoFactor.completeSignIn(tx, account, remember, ctx, now, force);
      });
    },
  };
}
