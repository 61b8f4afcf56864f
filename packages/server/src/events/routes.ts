import { AppError, Codes, type LiveEvent } from '@beacon/protocol';
import fastifyWebsocket from '@fastify/websocket';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { type Principal, requireAccount } from '../auth/principal.ts';
import type { Config } from '../config.ts';
import type { Deps } from '../deps.ts';
import type { App } from '../http/types.ts';
import type { BusEvent } from './bus.ts';

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
 * - Every 15 s the sockets' sessions and API keys are checked; a signed-out session's socket closes
 *   with code 4401.
 * Messages are JSON LiveEvent objects (packages/protocol api/devices.ts); the first is `hello`.
 */

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
  await app.register(fastifyWebsocket, { options: { maxPayload: 4096 } });
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
      if (seeing.has(s.principal.accountId) && s.socket.readyState === s.socket.OPEN) s.socket.send(text);
    }
  };
  const unsubscribe = deps.bus.subscribe((event) => {
    // In order, one event after another; a failed access query drops that event only.
    queue = queue.then(() => deliver(event)).catch((err) => app.log.warn({ err }, 'event delivery failed'));
  });

  const sessionCheck = setInterval(() => {
    void (async () => {
      for (const s of subscribers) {
        const p = s.principal;
        const query = p.sessionId
          ? sql`select 1 from sessions where id = ${p.sessionId} and revoked_at is null and expires_at > now()`
          : sql`select 1 from api_keys where id = ${p.apiKeyId}`;
        const result = await deps.database.db.execute(query);
        if (result.rows.length === 0) s.socket.close(4401, 'signed out');
      }
    })().catch(() => {});
  }, 15_000);
  sessionCheck.unref();

  app.addHook('onClose', async () => {
    unsubscribe();
    clearInterval(sessionCheck);
    for (const s of subscribers) s.socket.close(1001, 'server stopping');
    subscribers.clear();
  });

  app.get(
    '/events',
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request) => {
        requireAccount(request);
        if (!originAllowed(request, deps.config)) throw new AppError(Codes.BAD_ORIGIN);
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
