import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { accounts, authFailures, authLocks, sessions, verificationCodes } from '../db/schema.ts';
import { publishSignOut } from '../events/bus.ts';

export type AccountRow = typeof accounts.$inferSelect;

/** Serialises concurrent writers on one key for the rest of the transaction (any server instance). */
export async function lockKey(tx: DbOrTx, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

/** True when a PostgreSQL unique constraint was violated (optionally a given one). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const pgErr = e as { code?: string; constraint?: string };
    if (pgErr.code === '23505') return constraint === undefined || pgErr.constraint === constraint;
  }
  return false;
}

// ---------------------------------------------------------------- accounts

export async function findAccountById(db: DbOrTx, id: number): Promise<AccountRow | undefined> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row;
}

/** The account whose login name or email is `login` (both are kept unique together). */
export async function findAccountByLogin(db: DbOrTx, login: string): Promise<AccountRow | undefined> {
  const rows = await db
    .select()
    .from(accounts)
    .where(or(eq(accounts.account, login), eq(accounts.email, login)))
    .orderBy(sql`(${accounts.account} = ${login}) desc`, accounts.id)
    .limit(1);
  return rows[0];
}

/** The account whose current email is `email` (password reset mails go only there). */
export async function findAccountByEmail(db: DbOrTx, email: string): Promise<AccountRow | undefined> {
  const rows = await db
    .select()
    .from(accounts)
    .where(eq(accounts.email, email))
    .orderBy(accounts.id)
    .limit(1);
  return rows[0];
}

export async function cloudIdExists(db: DbOrTx, cloudId: string): Promise<boolean> {
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.cloudId, cloudId))
    .limit(1);
  return rows.length > 0;
}

export async function insertAccount(
  db: DbOrTx,
  values: { email: string; nick: string; passwordHash: string; cloudId: string; now: Date },
): Promise<AccountRow> {
  const [row] = await db
    .insert(accounts)
    .values({
      account: values.email,
      email: values.email,
      nick: values.nick,
      passwordHash: values.passwordHash,
      cloudId: values.cloudId,
      role: 0,
      createdAt: values.now,
      updatedAt: values.now,
    })
    .returning();
  return row;
}

/**
 * Sets a new password hash and bumps passwordVersion: every older session then answers code 70,
 * and its open WebSockets close on every instance once this commits.
 */
export async function setPassword(
  db: DbOrTx,
  accountId: number,
  passwordHash: string,
  now: Date,
): Promise<number> {
  const [row] = await db
    .update(accounts)
    .set({ passwordHash, passwordVersion: sql`${accounts.passwordVersion} + 1`, updatedAt: now })
    .where(eq(accounts.id, accountId))
    .returning({ passwordVersion: accounts.passwordVersion });
  await publishSignOut(db, accountId);
  return row.passwordVersion;
}

// ---------------------------------------------------------------- verification codes

export interface CodeCounts {
  minute: number;
  hour: number;
  day: number;
}

/** Codes sent to an email for a purpose in the last minute, hour and day (limits 1, 5, 10). */
export async function countCodesSent(
  db: DbOrTx,
  email: string,
  purpose: string,
  now: Date,
): Promise<CodeCounts> {
  const t = now.getTime();
  const minuteAgo = new Date(t - 60_000);
  const hourAgo = new Date(t - 3_600_000);
  const dayAgo = new Date(t - 86_400_000);
  const [row] = await db
    .select({
      minute: sql<number>`count(*) filter (where ${verificationCodes.createdAt} > ${minuteAgo})`.mapWith(
        Number,
      ),
      hour: sql<number>`count(*) filter (where ${verificationCodes.createdAt} > ${hourAgo})`.mapWith(Number),
      day: sql<number>`count(*)`.mapWith(Number),
    })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.email, email),
        eq(verificationCodes.purpose, purpose),
        gt(verificationCodes.createdAt, dayAgo),
      ),
    );
  return row;
}

export async function insertCode(
  db: DbOrTx,
  values: { email: string; purpose: string; codeHash: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await db.insert(verificationCodes).values(values);
}

export async function latestUnusedCode(db: DbOrTx, email: string, purpose: string) {
  const [row] = await db
    .select({
      id: verificationCodes.id,
      codeHash: verificationCodes.codeHash,
      expiresAt: verificationCodes.expiresAt,
    })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.email, email),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.usedAt),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt), desc(verificationCodes.id))
    .limit(1);
  return row;
}

/** Marks a code used; false if another request used it first. */
export async function markCodeUsed(db: DbOrTx, id: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(verificationCodes)
    .set({ usedAt: now })
    .where(and(eq(verificationCodes.id, id), isNull(verificationCodes.usedAt)))
    .returning({ id: verificationCodes.id });
  return rows.length > 0;
}

// ---------------------------------------------------------------- failures and locks

export async function lockedUntil(
  db: DbOrTx,
  kind: string,
  subject: string,
  now: Date,
): Promise<Date | null> {
  const [row] = await db
    .select({ until: authLocks.until })
    .from(authLocks)
    .where(and(eq(authLocks.kind, kind), eq(authLocks.subject, subject), gt(authLocks.until, now)));
  return row?.until ?? null;
}

export async function insertFailure(db: DbOrTx, kind: string, subject: string, at: Date): Promise<void> {
  await db.insert(authFailures).values({ kind, subject, at });
}

export async function countFailuresSince(
  db: DbOrTx,
  kind: string,
  subject: string,
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(authFailures)
    .where(and(eq(authFailures.kind, kind), eq(authFailures.subject, subject), gt(authFailures.at, since)));
  return row.n;
}

export async function upsertLock(db: DbOrTx, kind: string, subject: string, until: Date): Promise<void> {
  await db
    .insert(authLocks)
    .values({ kind, subject, until })
    .onConflictDoUpdate({ target: [authLocks.kind, authLocks.subject], set: { until } });
}

export async function deleteFailures(db: DbOrTx, kind: string, subject: string): Promise<void> {
  await db.delete(authFailures).where(and(eq(authFailures.kind, kind), eq(authFailures.subject, subject)));
}

export async function deleteLock(db: DbOrTx, kind: string, subject: string): Promise<void> {
  await db.delete(authLocks).where(and(eq(authLocks.kind, kind), eq(authLocks.subject, subject)));
}

// ---------------------------------------------------------------- sessions

export async function findSession(db: DbOrTx, id: number) {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id));
  return row;
}
