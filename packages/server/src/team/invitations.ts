import { createHash, timingSafeEqual } from 'node:crypto';
import {
  type AcceptInvitationBody,
  AppError,
  Codes,
  INVITATION_PAGE_PATH,
  INVITATION_TTL_DAYS,
  validatePasswordConfirmation,
} from '@beacon/protocol';
import { and, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import { recordAudit } from '../audit/audit.ts';
import { hashPassword } from '../auth/passwords.ts';
import * as authRepo from '../auth/repository.ts';
import { FAILURE_WINDOW_MS, LOCK_MS, MAX_FAILURES } from '../auth/service.ts';
import { newSecret } from '../auth/tokens.ts';
import type { DbOrTx } from '../db/client.ts';
import { verificationCodes } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import type { Mail } from '../mail/mailer.ts';

/**
 * The set-your-password invitation of a subordinate account (decision 0068), as Meraki does it: no
 * password is ever chosen by the main account or mailed. A new subordinate gets a mail with a
 * one-time link (7 days) to the web page that sets its password. The link's secret is kept like the
 * email codes of sign-up and password reset (`verification_codes`, purpose 'invite', its SHA-256
 * only); a newer invitation ends the older one (64), a used one answers 5435, wrong secrets count
 * towards the email's verification lock (75).
 */
export const INVITE_PURPOSE = 'invite';
export const INVITATION_TTL_MS = INVITATION_TTL_DAYS * 86_400_000;

const hashToken = (email: string, token: string) =>
  createHash('sha256').update(`invite:${email}:${token}`).digest('hex');
const sameHash = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** A password hash that is set (argon2); invited accounts hold '' until they accept. */
export const hasPassword = (passwordHash: string): boolean => passwordHash.startsWith('$argon2');

function invitationMail(to: string, link: string, inviter: string, expiresAt: Date): Mail {
  return {
    to,
    subject: 'You are invited to Beacon: set your password',
    body: [
      'Hello,',
      '',
      `${inviter} created a Beacon account for you (${to}).`,
      'Open this link to set your password; it works once and until',
      `${expiresAt.toUTCString()}:`,
      '',
      link,
      '',
      'If you did not expect this invitation, you can ignore this email.',
      '',
      'Beacon',
    ].join('\n'),
  };
}

export function createInvitations(deps: Deps) {
  const { db } = deps.database;

  return {
    /**
     * Issues a new link in `tx` (the older unused ones end now); returns the mail to send once the
     * transaction has committed.
     */
    async issue(
      tx: DbOrTx,
      email: string,
      inviter: string,
      now: Date,
    ): Promise<{ mail: Mail; expiresAt: Date }> {
      await tx
        .update(verificationCodes)
        .set({ expiresAt: now })
        .where(
          and(
            eq(verificationCodes.email, email),
            eq(verificationCodes.purpose, INVITE_PURPOSE),
            isNull(verificationCodes.usedAt),
            gt(verificationCodes.expiresAt, now),
          ),
        );
      const token = newSecret();
      const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
      await authRepo.insertCode(tx, {
        email,
        purpose: INVITE_PURPOSE,
        codeHash: hashToken(email, token),
        createdAt: now,
        expiresAt,
      });
      const link = new URL(INVITATION_PAGE_PATH, deps.config.publicUrl);
      link.searchParams.set('email', email);
      link.searchParams.set('token', token);
      return { mail: invitationMail(email, link.toString(), inviter, expiresAt), expiresAt };
    },

    /** When each email's waiting invitation ends (the newest unused, unexpired one). */
    async waiting(tx: DbOrTx, emails: string[], now: Date): Promise<Map<string, Date>> {
      const out = new Map<string, Date>();
      if (emails.length === 0) return out;
      const rows = await tx
        .select({ email: verificationCodes.email, expiresAt: verificationCodes.expiresAt })
        .from(verificationCodes)
        .where(
          and(
            inArray(verificationCodes.email, emails),
            eq(verificationCodes.purpose, INVITE_PURPOSE),
            isNull(verificationCodes.usedAt),
            gt(verificationCodes.expiresAt, now),
          ),
        )
        .orderBy(desc(verificationCodes.expiresAt));
      for (const r of rows) if (!out.has(r.email)) out.set(r.email, r.expiresAt);
      return out;
    },

    /**
     * POST /auth/invitation: sets the password of the invited account once. Unknown link 12 (and
     * counted: 5 within 5 minutes lock the email's codes for 30 minutes, 75), used 5435, ended 64.
     */
    async accept(body: AcceptInvitationBody, requestId: string): Promise<void> {
      const now = deps.now();
      const { email } = body;
      const failure = validatePasswordConfirmation(body.password, body.confirmPassword);
      if (failure) throw new AppError(failure.code, failure.message, { confirmPassword: failure.message });
      if (await authRepo.lockedUntil(db, 'code', email, now)) throw new AppError(Codes.VERIFY_LIMIT);
      const [row] = await db
        .select()
        .from(verificationCodes)
        .where(
          and(
            eq(verificationCodes.email, email),
            eq(verificationCodes.purpose, INVITE_PURPOSE),
            eq(verificationCodes.codeHash, hashToken(email, body.token)),
          ),
        );
      const account = row ? await authRepo.findAccountByEmail(db, email) : undefined;
      if (
        !row ||
        !account ||
        account.parentId === null ||
        !sameHash(row.codeHash, hashToken(email, body.token))
      ) {
        const locked = await db.transaction(async (tx) => {
          await authRepo.lockKey(tx, `auth-failure:code:${email}`);
          await authRepo.insertFailure(tx, 'code', email, now);
          const since = new Date(now.getTime() - FAILURE_WINDOW_MS);
          if ((await authRepo.countFailuresSince(tx, 'code', email, since)) < MAX_FAILURES) return false;
          await authRepo.upsertLock(tx, 'code', email, new Date(now.getTime() + LOCK_MS));
          await authRepo.deleteFailures(tx, 'code', email);
          return true;
        });
        if (locked) throw new AppError(Codes.VERIFY_LIMIT);
        throw new AppError(Codes.VERIFICATION_CODE, 'This invitation link is not valid', {
          token: 'This invitation link is not valid',
        });
      }
      if (row.usedAt) throw new AppError(Codes.INVITATION_USED);
      if (row.expiresAt.getTime() <= now.getTime()) throw new AppError(Codes.INVITE_EXPIRED);
      const passwordHash = await hashPassword(body.password);
      await db.transaction(async (tx) => {
        if (!(await authRepo.markCodeUsed(tx, row.id, now))) throw new AppError(Codes.INVITATION_USED);
        await authRepo.deleteFailures(tx, 'code', email);
        await authRepo.setPassword(tx, account.id, passwordHash, now);
        await recordAudit(
          tx,
          { accountId: account.id, account: account.account, requestId },
          { action: 'accept-invitation', entity: 'account', entityId: account.id, at: now },
        );
      });
    },
  };
}

export type Invitations = ReturnType<typeof createInvitations>;
