import { AppError, Codes } from '@beacon/protocol';
import type { FastifyInstance } from 'fastify';
import { SESSION_COOKIE } from '../auth/principal.ts';
import type { Config } from '../config.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Defence against cross-site requests on cookie sessions: a state-changing request whose Origin
 * (or Referer) is another site, or `null` with the session cookie, is refused. SameSite=Lax on the
 * cookie is the second line.
 */
export function registerOriginCheck(app: FastifyInstance, config: Config): void {
  const allowed = new Set([new URL(config.publicUrl).origin, ...config.allowedOrigins]);
  app.addHook('onRequest', async (request) => {
    if (SAFE.has(request.method)) return;
    const source = request.headers.origin ?? request.headers.referer;
    if (!source) {
      // No Origin: not a browser page (curl, tests, OpenAPI clients); Bearer keys need no cookie.
      return;
    }
    if (source === 'null') {
      // An opaque origin: a sandboxed iframe, a data: page, or a cross-origin redirect. Browsers
      // attach cookies to it, so with the session cookie it is refused; without one it is harmless.
      if (request.cookies?.[SESSION_COOKIE]) throw new AppError(Codes.BAD_ORIGIN);
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
