import { AppError, Codes } from '@beacon/protocol';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Defence against cross-site requests on cookie sessions: a state-changing request whose Origin
 * (or Referer) is another site is refused. SameSite=Lax on the cookie is the second line.
 */
export function registerOriginCheck(app: FastifyInstance, config: Config): void {
  const allowed = new Set([new URL(config.publicUrl).origin, ...config.allowedOrigins]);
  app.addHook('onRequest', async (request) => {
    if (SAFE.has(request.method)) return;
    const source = request.headers.origin ?? request.headers.referer;
    if (!source || source === 'null') {
      // No Origin: not a browser page (curl, tests, OpenAPI clients); Bearer keys need no cookie.
      return;
    }
    let origin: string;
    try {
      origin = new URL(source).origin;
    } catch {
      throw new AppError(Codes.BAD_ORIGIN);
    }
    const host = request.headers.host;
    const sameHost = host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
    if (!sameHost && !allowed.has(origin)) throw new AppError(Codes.BAD_ORIGIN);
  });
}
