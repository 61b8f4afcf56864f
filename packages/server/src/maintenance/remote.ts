import { AppError, Codes } from '@beacon/protocol';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { devices, remoteSessions } from '../db/schema.ts';
import { loadProjectAccess, requireWritable } from '../projects/access.ts';

/**
 * A remote-management session lasts no longer than the rights that opened it: its holder must still
 * be able to write the project (projects/access.ts) and the device must still be in that project.
 * Checked live on every proxied request and whenever the session stands in someone's way, so a
 * share ended, downgraded or expired, or a device unbound, moved or deleted, ends the session
 * without the code that changed them having to know about remote management.
 */

type SessionRow = typeof remoteSessions.$inferSelect;

/** Why the session's holder may no longer use it (the refusal to answer), or null while they may. */
export async function remoteSessionLapse(
  db: DbOrTx,
  session: Pick<SessionRow, 'accountId' | 'projectId' | 'sn'>,
  now: Date,
): Promise<AppError | null> {
  try {
    // 30 no longer sees the project, 74 the share expired, 5032 read-only now.
    requireWritable(
      await loadProjectAccess(db, { accountId: session.accountId }, session.projectId, { now }),
    );
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  const [device] = await db
    .select({ sn: devices.sn })
    .from(devices)
    .where(and(eq(devices.sn, session.sn), eq(devices.projectId, session.projectId)));
  // The code the device routes answer for a device that is not in the project (410, SPEC.md §8).
  if (!device) return new AppError(Codes.DEVICE_DELETED, 'The device is not in this project');
  return null;
}

/** Closes one session (its address stops working at once). */
export async function closeRemoteSession(db: DbOrTx, token: string, now: Date): Promise<void> {
  await db
    .update(remoteSessions)
    .set({ closedAt: now })
    .where(and(eq(remoteSessions.token, token), isNull(remoteSessions.closedAt)));
}

/** Closes every open session of a device (it leaves its project, or its holders are displaced). */
export async function closeDeviceRemoteSessions(db: DbOrTx, sn: string, now: Date): Promise<void> {
  await db
    .update(remoteSessions)
    .set({ closedAt: now })
    .where(and(eq(remoteSessions.sn, sn), isNull(remoteSessions.closedAt)));
}

/** The caller's own open, unexpired session at this address, or null. */
export async function findOpenRemoteSession(
  db: DbOrTx,
  token: string,
  accountId: number,
  now: Date,
): Promise<SessionRow | null> {
  const [session] = await db
    .select()
    .from(remoteSessions)
    .where(
      and(
        eq(remoteSessions.token, token),
        eq(remoteSessions.accountId, accountId),
        isNull(remoteSessions.closedAt),
        gt(remoteSessions.expiresAt, now),
      ),
    );
  return session ?? null;
}
