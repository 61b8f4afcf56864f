import { createHash, timingSafeEqual } from 'node:crypto';
import { AppError, Codes } from '@beacon/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { isLoopback } from '../dev/routes.ts';
import { dependencyStates } from '../http/health.ts';
import { HEALTHZ_PATH, METRICS_PATH, READYZ_PATH } from './metrics.ts';

/** Equal strings, compared in constant time (digests, so that the lengths do not show either). */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Who may read /metrics (docs/decisions/0064): with METRICS_TOKEN, whoever sends
 * `Authorization: Bearer <token>` (else 401); without it, only the machine itself — the socket's
 * peer is loopback and the request did not come through a proxy (X-Forwarded-For or Forwarded,
 * since a proxy on the machine connects from loopback for everyone), as for the dev outbox —
 * anyone else gets the plain not-found answer.
 */
export function metricsGuard(token: string | undefined) {
  return async (request: FastifyRequest): Promise<void> => {
    if (token) {
      const given = request.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
      if (!given || !sameSecret(given, token)) throw new AppError(Codes.TOKEN_MISSING);
      return;
    }
    const forwarded =
      request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
    if (forwarded || !isLoopback(request.socket.remoteAddress)) throw new AppError(Codes.NOT_FOUND);
  };
}

/**
 * The operations routes, outside /api/v1 and without an account (docs/operations-metrics.md):
 * - GET /metrics: Prometheus text, guarded by metricsGuard;
 * - GET /healthz: liveness, 200 whenever the process answers HTTP (no dependency is asked);
 * - GET /readyz: 200 when the database answers and the broker link and the live-event listener are
 *   up, else 503 naming what is down; 503 from the moment shutdown begins.
 * Every request's duration is observed by route pattern (onResponse).
 */
export function operationsRoutes(app: FastifyInstance, deps: Deps): void {
  const { metrics } = deps;
  app.addHook('onResponse', async (request, reply) => {
    metrics.httpRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });

  app.get(
    METRICS_PATH,
    { schema: { hide: true }, onRequest: metricsGuard(deps.config.metricsToken) },
    async (_request, reply) => {
      const { contentType, body } = await metrics.expose();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    },
  );

  app.get(HEALTHZ_PATH, { schema: { hide: true } }, async (_request, reply) => {
    return reply.header('cache-control', 'no-store').send({ status: 'ok' });
  });

  app.get(READYZ_PATH, { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (metrics.draining) return reply.status(503).send({ status: 'stopping' });
    const states = await dependencyStates(deps);
    if (metrics.draining) return reply.status(503).send({ status: 'stopping' });
    const down = Object.entries(states)
      .filter(([, s]) => s === 'down')
      .map(([name]) => name);
    if (down.length === 0) return { status: 'ready', ...states };
    return reply.status(503).send({ status: 'not ready', down, ...states });
  });
}
