import { AppError, Codes, ok as envelope, PLATFORM_ROUTES } from '@beacon/protocol';
import { desc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { mailOutbox } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';

/** The peer's own address is loopback: 127.0.0.0/8, ::1, or 127.x written as IPv4-mapped IPv6. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address);
}

/**
 * The outbox holds every verification code, so only the machine itself may read it. The socket's
 * address decides, never X-Forwarded-For (request.ip follows it with TRUST_PROXY); a request that
 * came through a proxy (it carries X-Forwarded-For or Forwarded) is refused too, since a proxy on
 * the same machine connects from loopback for every caller. Anyone else gets the plain not-found
 * answer, as if the route did not exist.
 */
async function loopbackOnly(request: FastifyRequest): Promise<void> {
  const forwarded =
    request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  if (forwarded || !isLoopback(request.socket.remoteAddress)) throw new AppError(Codes.NOT_FOUND);
}

/**
 * Local installs without SMTP_URL (and tests) read their mail here: GET /api/v1/dev/outbox?email=…
 * Only registered when DEV_OUTBOX is on (the default without SMTP_URL outside production), and
 * only answered on loopback (http://localhost:8080 on the machine running the server).
 */
export async function devRoutes(app: App, { database }: Deps): Promise<void> {
  app.get(
    PLATFORM_ROUTES.devOutbox.path,
    {
      onRequest: loopbackOnly,
      schema: {
        hide: true,
        querystring: PLATFORM_ROUTES.devOutbox.query,
        response: { 200: envelope(PLATFORM_ROUTES.devOutbox.response) },
      },
    },
    async (request) => {
      const rows = await database.db
        .select({
          to: mailOutbox.to,
          subject: mailOutbox.subject,
          body: mailOutbox.body,
          createdAt: mailOutbox.createdAt,
        })
        .from(mailOutbox)
        .where(eq(mailOutbox.to, request.query.email))
        .orderBy(desc(mailOutbox.id))
        .limit(20);
      return ok(rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })));
    },
  );
}
