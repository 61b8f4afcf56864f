import { and, eq, isNull, ne } from 'drizzle-orm';
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
