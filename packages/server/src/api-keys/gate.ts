import {
  API_PREFIX,
  ApiKeyScope,
  AppError,
  apiKeyMayCall,
  Codes,
  isWriteMethod,
  SubordinateLevel,
  subordinateBlocked,
  visitorMayWrite,
} from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.ts';
import { accounts } from '../db/schema.ts';
import { countCall } from './rate.ts';

const PROJECT_SCOPED = /^\/api\/v1\/projects\/:id(\/|$)/;

/**
 * The access gate of every /api/v1 request with a principal (docs/decisions/0058, 0059), before the
 * route's own checks:
 *
 * - an API key: counted against its rate (5441, shared in PostgreSQL); a route no openapi screen of
 *   SPEC.md §2 uses answers 5090 (protocol `apiKeyMayCall`); a read-only key may only read (5440);
 *   a key limited to projects reaches only those (5442);
 * - a subordinate account (web or key): a visitor changes nothing but its own profile (5443); the
 *   operations the administrator role blocks answer 5444 (protocol `SUBORDINATE_BLOCKED`).
 *
 * The project's own right (owner, share, demo) is still checked by the route, in the query.
 */
export function registerAccessGate(app: FastifyInstance, db: Db, now: () => Date): void {
  app.addHook('onRequest', async (request, reply) => {
    const principal = request.principal;
    const url = request.routeOptions.url;
    if (!principal || !url?.startsWith(API_PREFIX)) return;
    const method = request.method;
    const params = (request.params ?? {}) as Record<string, string | undefined>;
    const key = principal.apiKey;
    if (key) {
      const { calls, resetAt } = await countCall(db, key.id, now());
      reply.header('x-ratelimit-limit', key.ratePerMinute);
      reply.header('x-ratelimit-remaining', Math.max(0, key.ratePerMinute - calls));
      if (calls > key.ratePerMinute) {
        reply.header('retry-after', Math.max(1, Math.ceil((resetAt.getTime() - now().getTime()) / 1000)));
        throw new AppError(Codes.API_KEY_RATE_LIMITED);
      }
      if (!apiKeyMayCall(method, url)) throw new AppError(Codes.WEB_ONLY);
      if (key.scope === ApiKeyScope.READ && isWriteMethod(method))
        throw new AppError(Codes.API_KEY_READ_ONLY);
      if (key.projectIds && PROJECT_SCOPED.test(url) && !key.projectIds.includes(Number(params.id))) {
        throw new AppError(Codes.API_KEY_PROJECT);
      }
    }
    if (isWriteMethod(method)) await checkSubordinate(db, request, url, params);
  });
}

async function checkSubordinate(
  db: Db,
  request: FastifyRequest,
  url: string,
  params: Record<string, string | undefined>,
): Promise<void> {
  const principal = request.principal;
  if (!principal) return;
  const [row] = await db
    .select({ parentId: accounts.parentId, level: accounts.level })
    .from(accounts)
    .where(eq(accounts.id, principal.accountId));
  if (!row || row.parentId === null) return;
  const method = request.method;
  if (row.level === SubordinateLevel.GUEST && !visitorMayWrite(method, url)) {
    throw new AppError(Codes.VISITOR_READ_ONLY);
  }
  if (subordinateBlocked(method, url, params.action)) throw new AppError(Codes.SUBORDINATE_BLOCKED);
}
