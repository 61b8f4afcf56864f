import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { AppError, Codes, type SendSmsCodeBody, type VerifyPhoneBody } from '@beacon/protocol';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { recordAudit } from '../audit/audit.ts';
import type { Database, DbOrTx } from '../db/client.ts';
import { accountSecurity, mailOutbox } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import type { Principal } from './principal.ts';
import * as repo from './repository.ts';
import { CODE_TTL_MS, FAILURE_WINDOW_MS, LOCK_MS, MAX_FAILURES, SEND_LIMITS } from './service.ts';
import { upsertSecurity } from './two-factor.ts';

/**
 * SMS verification (decision 0057). No SMS provider is built in: an SmsTransport delivers, and the
 * one the server has is a webhook (SMS_WEBHOOK_URL: POST {"to","text"} as JSON to a relay of the
 * operator's provider). Every SMS is kept in the outbox first, as mail is, so the development outbox
 * (GET /dev/outbox?email=+8613800138000) shows it. Codes are 4 digits (SPEC.md §5), valid 10
 * minutes, sent at most 1 a minute (53), 5 an hour (51), 10 a day (52) per number, counted in
 * `verification_codes` (its `email` column holds the number) so every instance agrees.
 */
export interface SmsTransport {
  send(to: string, text: string): Promise<void>;
}

export function webhookTransport(url: string, timeoutMs = 10_000): SmsTransport {
  return {
    async send(to, text) {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ to, text }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!res.ok) throw new Error(`SMS relay answered HTTP ${res.status}`);
    },
  };
}

export interface SmsSender {
  /** True when an SMS can go anywhere (a transport, or the development outbox). */
  available: boolean;
  /** Keeps the SMS in the outbox, then hands it to the transport in the background. */
  send(to: string, text: string): Promise<void>;
}

export function createSmsSender(
  database: Database,
  transport: SmsTransport | null,
  devOutbox: boolean,
  log: FastifyBaseLogger,
): SmsSender {
  return {
    available: transport !== null || devOutbox,
    async send(to, text) {
      const [row] = await database.db
        .insert(mailOutbox)
        .values({ to, subject: 'SMS', body: text })
        .returning({ id: mailOutbox.id });
      if (!transport) return;
      void transport.send(to, text).then(
        () => database.db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row.id)),
        (err) => {
          log.error({ err, smsTo: to }, 'SMS delivery failed');
          return database.db
            .update(mailOutbox)
            .set({ error: String(err) })
            .where(eq(mailOutbox.id, row.id));
        },
      );
    },
  };
}

export const SMS_PURPOSE = 'phone';
export const e164 = (regionCode: string, phone: string): string => `+${regionCode}${phone}`;
const hashSmsCode = (accountId: number, to: string, code: string) =>
  createHash('sha256').update(`sms:${accountId}:${to}:${code}`).digest('hex');
const sameHash = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The server's SMS sender: the webhook transport when SMS_WEBHOOK_URL is set, the outbox always. */
export function smsSenderOf(deps: Deps): SmsSender {
  const transport = deps.config.signIn.smsWebhookUrl
    ? webhookTransport(deps.config.signIn.smsWebhookUrl)
    : null;
  return createSmsSender(deps.database, transport, deps.config.devOutbox, deps.log);
}

/** The account that has verified this number, if any (a number signs in to one account: 0068). */
export async function accountOfPhone(
  db: DbOrTx,
  regionCode: string,
  phone: string,
): Promise<number | undefined> {
  const [row] = await db
    .select({ accountId: accountSecurity.accountId })
    .from(accountSecurity)
    .where(
      and(
        eq(accountSecurity.phoneRegion, regionCode),
        eq(accountSecurity.phoneNumber, phone),
        isNotNull(accountSecurity.phoneVerifiedAt),
      ),
    );
  return row?.accountId;
}

export function createPhoneVerification(deps: Deps) {
  const { db } = deps.database;
  const sender = smsSenderOf(deps);

  async function wrong(to: string, now: Date): Promise<never> {
    const locked = await db.transaction(async (tx) => {
      await repo.lockKey(tx, `auth-failure:code:${to}`);
      await repo.insertFailure(tx, 'code', to, now);
      const recent = await repo.countFailuresSince(
        tx,
        'code',
        to,
        new Date(now.getTime() - FAILURE_WINDOW_MS),
      );
      if (recent < MAX_FAILURES) return false;
      await repo.upsertLock(tx, 'code', to, new Date(now.getTime() + LOCK_MS));
      await repo.deleteFailures(tx, 'code', to);
      return true;
    });
    if (locked) throw new AppError(Codes.VERIFY_LIMIT);
    throw new AppError(Codes.VERIFICATION_CODE, 'Wrong verification code', {
      code: 'Wrong verification code',
    });
  }

  return {
    /** POST /account/phone/code */
    async sendCode(principal: Principal, body: SendSmsCodeBody): Promise<void> {
      if (!sender.available) throw new AppError(Codes.SMS_UNAVAILABLE);
      const now = deps.now();
      const to = e164(body.regionCode ?? '86', body.phone);
      const code = String(randomInt(0, 10_000)).padStart(4, '0');
      await db.transaction(async (tx) => {
        await repo.lockKey(tx, `code-send:${SMS_PURPOSE}:${to}`);
        const sent = await repo.countCodesSent(tx, to, SMS_PURPOSE, now);
        if (sent.minute >= SEND_LIMITS.minute) throw new AppError(Codes.SEND_PER_MINUTE);
        if (sent.hour >= SEND_LIMITS.hour) throw new AppError(Codes.SEND_PER_HOUR);
        if (sent.day >= SEND_LIMITS.day) throw new AppError(Codes.SEND_PER_DAY);
        await repo.insertCode(tx, {
          email: to,
          purpose: SMS_PURPOSE,
          codeHash: hashSmsCode(principal.accountId, to, code),
          createdAt: now,
          expiresAt: new Date(now.getTime() + CODE_TTL_MS),
        });
      });
      await sender.send(to, `Beacon verification code: ${code}. Valid for 10 minutes.`);
    },

    /** PUT /account/phone: the latest unused code of this number, sent for this account. */
    async verify(principal: Principal, body: VerifyPhoneBody, requestId: string): Promise<void> {
      const now = deps.now();
      const regionCode = body.regionCode ?? '86';
      const to = e164(regionCode, body.phone);
      if (await repo.lockedUntil(db, 'code', to, now)) throw new AppError(Codes.VERIFY_LIMIT);
      const holder = await accountOfPhone(db, regionCode, body.phone);
      if (holder !== undefined && holder !== principal.accountId) throw new AppError(Codes.PHONE_TAKEN);
      const latest = await repo.latestUnusedCode(db, to, SMS_PURPOSE);
      if (!latest || !sameHash(latest.codeHash, hashSmsCode(principal.accountId, to, body.code))) {
        return wrong(to, now);
      }
      if (latest.expiresAt.getTime() <= now.getTime()) {
        throw new AppError(Codes.VERIFICATION_CODE, 'The verification code has expired', {
          code: 'The verification code has expired',
        });
      }
      await db.transaction(async (tx) => {
        if (!(await repo.markCodeUsed(tx, latest.id, now))) return wrong(to, now);
        await repo.deleteFailures(tx, 'code', to);
        try {
          await upsertSecurity(tx, principal.accountId, {
            phoneRegion: regionCode,
            phoneNumber: body.phone,
            phoneVerifiedAt: now,
          });
        } catch (err) {
          // Another account verified it at the same moment.
          if (repo.isUniqueViolation(err, 'account_security_phone_uq')) throw new AppError(Codes.PHONE_TAKEN);
          throw err;
        }
        await recordAudit(
          tx,
          { accountId: principal.accountId, account: principal.account, requestId },
          {
            action: 'verify-phone',
            entity: 'account',
            entityId: principal.accountId,
            after: { phone: to },
            at: now,
          },
        );
      });
    },
  };
}
