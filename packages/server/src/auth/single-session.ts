import { AppError, Codes, type SignInClient } from '@beacon/protocol';
import { and, eq, gt, isNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { accountSecurity, sessions } from '../db/schema.ts';
import { publishSignOut } from '../events/bus.ts';

/** Why a session ended when a newer sign-in displaced it: it then answers 5003, not 10. */
export const ENDED_ELSEWHERE = 'elsewhere';

export async function singleSessionOn(db: DbOrTx, accountId: number): Promise<boolean> {
  const [row] = await db
    .select({ on: accountSecurity.singleSession })
    .from(accountSecurity)
    .where(eq(accountSecurity.accountId, accountId));
  return row?.on === true;
}

/**
 * Ends every other live session of the account ("logged in elsewhere", 5003); their WebSockets
 * close on every instance once the transaction commits. Returns how many ended.
 */
export async function endOtherSessions(
  db: DbOrTx,
  accountId: number,
  keepSessionId: number | null,
  now: Date,
): Promise<number> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: now, revokedReason: ENDED_ELSEWHERE })
    .where(
      and(
        eq(sessions.accountId, accountId),
        isNull(sessions.revokedAt),
        keepSessionId === null ? undefined : ne(sessions.id, keepSessionId),
      ),
    )
    .returning({ id: sessions.id });
  if (ended.length > 0) await publishSignOut(db, accountId);
  return ended.length;
}

/** Called for every new session: in single-session mode the older ones end (decision 0057). */
export async function afterNewSession(
  db: DbOrTx,
  accountId: number,
  sessionId: number,
  now: Date,
): Promise<void> {
  if (await singleSessionOn(db, accountId)) await endOtherSessions(db, accountId, sessionId, now);
}

/**
 * How recently a session must have been used to count as online for code 69. Sessions stamp
 * last_seen_at at most once a minute (principal.ts), so this is well above that.
 */
export const ONLINE_WINDOW_MS = 15 * 60_000;

/**
 * Code 69, "other app online" (SPEC.md §8; decision 0068): in single-session mode, a sign-in from one
 * kind of client (the web console, or another app) while the account is online in the other kind is
 * refused, unless the user confirmed "sign in here anyway" (`force`): then the new session ends the
 * other one as usual, and it answers 5003. A sign-in from the same kind of client just replaces it.
 */
export async function assertOtherAppOffline(
  db: DbOrTx,
  accountId: number,
  client: SignInClient,
  now: Date,
): Promise<void> {
  if (!(await singleSessionOn(db, accountId))) return;
  const [other] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.accountId, accountId),
        isNull(sessions.revokedAt),
        ne(sessions.client, client),
        gt(sessions.expiresAt, now),
        gt(sessions.lastSeenAt, new Date(now.getTime() - ONLINE_WINDOW_MS)),
      ),
    )
    .limit(1);
  if (other) throw new AppError(Codes.OTHER_APP_ONLINE);
}
