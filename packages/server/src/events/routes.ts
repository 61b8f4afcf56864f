import { AppError, Codes, type LiveEvent, PLATFORM_ROUTES } from '@beacon/protocol';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { type Principal, requireAccount } from '../auth/principal.ts';
import type { Config } from '../config.ts';
import type { Deps } from '../deps.ts';
import type { App } from '../http/types.ts';
import { type BusEvent, SIGNOUT_CHANNEL } from './bus.ts';

/**
 * WebSocket /api/v1/events (DESIGN.md "Live updates"): pushes device status changes, inventory
 * changes and command progress and outcomes for the projects the account may see.
 *
 * - Authenticated like every request: the `token` session cookie or `Authorization: Bearer <key>`
 *   (9/10/70 answer the upgrade request with the usual error envelope).
 * - A browser's Origin must be the console's own (PUBLIC_URL, ALLOWED_ORIGINS or the same host),
 *   else 5035: cookies ride along on cross-site WebSocket upgrades, SameSite or not.
 * - Events arrive from PostgreSQL LISTEN (events/bus.ts), so a socket on any instance hears what any
 *   instance did. Access is checked again for every event, in one query for all the sockets of this
 *   instance: a member whose share is revoked or expires stops receiving at once.
 * - A socket whose session ends (logout, password change: 70, expiry) or whose API key is deleted
 *   closes with code 4401: at once on every instance for what is announced (NOTIFY beacon_signout),
 *   within SESSION_CHECK_MS for expiry.
 * - While the database is away the bus cannot LISTEN: open sockets close with 1012 and new ones
 *   answer 503 (5) until it is back, so clients reconnect and refetch rather than miss events.
 * Messages are JSON LiveEvent objects (packages/protocol api/devices.ts); the first is `hello`.
 */

/** Close code of a socket whose session or key ended (the web client then sees it signed out). */
const SIGNED_OUT = 4401;
/** Close code 1012 "service restart": live events stopped (database outage); reconnect. */
const INTERRUPTED = 1012;
// Expiry is the one way a session ends that nobody announces.
const SESSION_CHECK_MS = 5_000;

interface Subscriber {
  socket: WebSocket;
  principal: Principal;
}

function originAllowed(request: FastifyRequest, config: Config): boolean {
  const source = request.headers.origin;
  if (!source) return true; // not a browser page (scripts, tests)
  let origin: string;
  try {
    origin = new URL(source).origin;
  } catch {
    return false;
  }
  const allowed = new Set([new URL(config.publicUrl).origin, ...config.allowedOrigins]);
  const host = request.headers.host;
  return (
    allowed.has(origin) ||
    (host !== undefined && (origin === `http://${host}` || origin === `https://${host}`))
  );
}

/** The accounts among `accountIds` that may see the project now (owner, unexpired member, demo). */
async function accountsSeeing(deps: Deps, projectId: number, accountIds: number[]): Promise<Set<number>> {
  const now = deps.now();
  const ids = `{${accountIds.join(',')}}`;
  const result = await deps.database.pool.query<{ id: number }>(
    `select a.id from unnest($1::int[]) as a(id)
      where exists (select 1 from projects p where p.id = $2 and (p.owner_id = a.id or p.is_demo))
         or exists (select 1 from project_members m where m.project_id = $2 and m.account_id = a.id
                    and (m.expires_at is null or m.expires_at > $3))`,
    [ids, projectId, now],
  );
  return new Set(result.rows.map((r) => Number(r.id)));
}

export async function eventRoutes(app: App, deps: Deps): Promise<void> {
  const subscribers = new Set<Subscriber>();

  let queue = Promise.resolve();
  const deliver = async (event: BusEvent) => {
    if (!event.projectId || subscribers.size === 0) return;
    const targets = [...subscribers];
    const seeing = await accountsSeeing(deps, event.projectId, [
      ...new Set(targets.map((s) => s.principal.accountId)),
    ]);
    const text = JSON.stringify(event satisfies LiveEvent);
    for (const s of targets) {
      // An API key limited to some projects hears only those (docs/decisions/0058).
      const keyProjects = s.principal.apiKey?.projectIds;
      if (keyProjects && !keyProjects.includes(event.projectId)) continue;
      if (seeing.has(s.principal.accountId) && s.socket.readyState === s.socket.OPEN) s.socket.send(text);
    }
  };
  const unsubscribe = deps.bus.subscribe((event) => {
    // In order, one event after another; a failed access query drops that event only.
    queue = queue.then(() => deliver(event)).catch((err) => app.log.warn({ err }, 'event delivery failed'));
  });

  /**
   * Closes the sockets among `targets` whose session or API key no longer holds: revoked (logout),
   * expired, ended by a password change (70) or a deleted key. Run when any instance announces a
   * sign-out of the account (NOTIFY, so within a moment on every instance) and every few seconds
   * for expiry, which nobody announces.
   */
  const recheck = async (targets: Subscriber[]) => {
    if (targets.length === 0) return;
    const sessionIds = targets.flatMap((s) => (s.principal.sessionId ? [s.principal.sessionId] : []));
    const keyIds = targets.flatMap((s) => (s.principal.apiKeyId ? [s.principal.apiKeyId] : []));
    const valid = await deps.database.pool.query<{ kind: string; id: number }>(
      `select 's' as kind, s.id from sessions s join accounts a on a.id = s.account_id
        where s.id = any($1::int[]) and s.revoked_at is null and s.expires_at > $3
          and s.password_version = a.password_version
       union all
       select 'k', k.id from api_keys k where k.id = any($2::int[])
          and (k.expires_at is null or k.expires_at > $3)`,
      [sessionIds, keyIds, deps.now()],
    );
    const held = new Set(valid.rows.map((r) => `${r.kind}${Number(r.id)}`));
    for (const s of targets) {
      const p = s.principal;
      const key = p.sessionId ? `s${p.sessionId}` : `k${p.apiKeyId}`;
      if (!held.has(key)) {
        subscribers.delete(s);
        s.socket.close(SIGNED_OUT, 'signed out');
      }
    }
  };
  const recheckLater = (targets: Subscriber[]) => {
    void recheck(targets).catch((err) => app.log.warn({ err }, 'socket session check failed'));
  };
  const stopSignOuts = deps.bus.onSignal(SIGNOUT_CHANNEL, (payload) => {
    let accountId: number;
    try {
      accountId = Number((JSON.parse(payload) as { accountId: unknown }).accountId);
    } catch {
      return;
    }
    recheckLater([...subscribers].filter((s) => s.principal.accountId === accountId));
  });
  const sessionCheck = setInterval(() => recheckLater([...subscribers]), SESSION_CHECK_MS);
  sessionCheck.unref();

  // Events published while the bus is not listening are lost to these sockets: close them, so the
  // browsers reconnect (refused until the bus is back) and refetch what they show.
  const stopState = deps.bus.onState((listening) => {
    if (listening) return;
    for (const s of subscribers) s.socket.close(INTERRUPTED, 'live events interrupted');
    subscribers.clear();
  });

  app.addHook('onClose', async () => {
    unsubscribe();
    stopSignOuts();
    stopState();
    clearInterval(sessionCheck);
    for (const s of subscribers) s.socket.close(1001, 'server stopping');
    subscribers.clear();
  });

  app.get(
    PLATFORM_ROUTES.events.path,
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request) => {
        requireAccount(request);
        if (!originAllowed(request, deps.config)) throw new AppError(Codes.BAD_ORIGIN);
        // Without LISTEN this socket would stay silent: the client retries until the bus is back.
        if (!deps.bus.listening) throw new AppError(Codes.DATABASE);
      },
    },
    (socket, request) => {
      const principal = requireAccount(request);
      const subscriber: Subscriber = { socket, principal };
      subscribers.add(subscriber);
      socket.on('close', () => subscribers.delete(subscriber));
      socket.on('error', () => subscribers.delete(subscriber));
      // The browser sends nothing but pings; anything else is ignored.
      socket.on('message', () => {});
      socket.send(JSON.stringify({ type: 'hello', accountId: principal.accountId } satisfies LiveEvent));
    },
  );
}
