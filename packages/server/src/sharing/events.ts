import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';

/**
 * When an account loses a project (share deleted, unbound, expired, project transferred away),
 * whatever it holds open for that project must close at once — today nothing, later the
 * WebSocket subscriptions of /api/v1/events.
 *
 * Two ways to hear it:
 * - PostgreSQL `NOTIFY beacon_access '<json MembershipRevoked>'`, sent inside the write's
 *   transaction, so it is delivered on commit to every server instance that LISTENs;
 * - `onMembershipRevoked(listener)`, called in this process after the commit (a convenience
 *   for code that does not hold a LISTEN connection; other instances hear only the NOTIFY).
 */
export const ACCESS_CHANNEL = 'beacon_access';

export type RevokeReason = 'delete' | 'unbind' | 'expired' | 'transfer';

export interface MembershipRevoked {
  projectId: number;
  accountId: number;
  reason: RevokeReason;
}

type Listener = (event: MembershipRevoked) => void;
const listeners = new Set<Listener>();

/** Subscribes to revocations made by this process; answers the unsubscribe function. */
export function onMembershipRevoked(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Inside the transaction: queue the NOTIFY (delivered on commit). */
export async function notifyRevoked(tx: DbOrTx, event: MembershipRevoked): Promise<void> {
  await tx.execute(sql`select pg_notify(${ACCESS_CHANNEL}, ${JSON.stringify(event)})`);
}

/** After the commit: tell this process's listeners. */
export function emitRevoked(events: MembershipRevoked[]): void {
  for (const event of events) {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure must not undo or hide the revocation.
      }
    }
  }
}
