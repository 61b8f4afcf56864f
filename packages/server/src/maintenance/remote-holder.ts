import { PLATFORM_ROUTES, routeUrl } from '@beacon/protocol';
import { and, desc, eq, gt, isNull, ne } from 'drizzle-orm';
import { remoteSessions } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import type { DeviceRow } from '../devices/row.ts';
import type { CommandActor } from '../gateway/commands.ts';
import { shouldDisplaceRemoteSession } from '../sharing/rules.ts';
import { closeRemoteSession, remoteSessionLapse } from './remote.ts';

// Who holds a device's remote management, and what of a device's reply the API shows.

/** /api/v1/remote/{token}/: where the proxy serves the device's page (the route's path without its `*`). */
export const remotePath = (token: string) =>
  routeUrl(PLATFORM_ROUTES.remoteProxy, { token }).replace(/\*$/, '');

export const REMOTE_BUSY = 'Remote management of this device is in use by another account';

/**
 * Who stands in the way of `actor` on the device's remote management (SPEC.md §6), the open
 * sessions of other accounts considered:
 * - a holder who no longer has the right to it (no read-write access to the session's project any
 *   more, or the device left that project) does not count: their session is closed now;
 * - 'busy' when a remaining holder may not be displaced by the caller (shouldDisplaceRemoteSession:
 *   only the owner displaces, and only a service person — a read-write member);
 * - 'displace' when every remaining holder gives way to the caller, 'free' when there is none
 *   (nobody holds it, or only the caller does).
 */
export async function remoteHolder(
  deps: Deps,
  device: DeviceRow,
  actor: CommandActor,
  ownerId: number,
): Promise<'free' | 'displace' | 'busy'> {
  const { db } = deps.database;
  const now = deps.now();
  const sessions = await db
    .select()
    .from(remoteSessions)
    .where(
      and(
        eq(remoteSessions.sn, device.sn),
        isNull(remoteSessions.closedAt),
        gt(remoteSessions.expiresAt, now),
        ne(remoteSessions.accountId, actor.accountId!),
      ),
    )
    .orderBy(desc(remoteSessions.createdAt));
  const visitor = { accountId: actor.accountId!, isOwner: actor.accountId === ownerId };
  let holder: 'free' | 'displace' | 'busy' = 'free';
  for (const session of sessions) {
    // Where the holder's rights lapsed, the session is over whoever asks (routes.ts checks the same
    // on each proxied request); it blocks nobody.
    if (session.projectId !== device.projectId || (await remoteSessionLapse(db, session, now))) {
      await closeRemoteSession(db, session.token, now);
      continue;
    }
    const displaced = shouldDisplaceRemoteSession(
      { accountId: session.accountId, isOwner: session.accountId === ownerId },
      visitor,
    );
    if (!displaced) holder = 'busy';
    else if (holder === 'free') holder = 'displace';
  }
  return holder;
}

export function stripSecrets(data: Record<string, unknown>): Record<string, unknown> {
  const { token: _t, url: _u, ...rest } = data;
  return rest;
}
