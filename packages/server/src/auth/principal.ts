import { AccessType, AppError, Codes, PLATFORM_ROUTES, routeUrl } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ApiKeyGrant, resolveApiKey } from '../api-keys/resolve.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { accounts, sessions } from '../db/schema.ts';
import { OPERATIONS_PATHS } from '../metrics/metrics.ts';
import { ENDED_ELSEWHERE } from './single-session.ts';
import { hashSecret } from './tokens.ts';

/** Who is calling: resolved once per request from the `token` cookie or a Bearer API key. */
export interface Principal {
  accountId: number;
  account: string;
  accessType: AccessType;
  sessionId: number | null;
  apiKeyId: number | null;
  /** What the API key allows (Bearer calls only). */
  apiKey?: ApiKeyGrant;
}

type AuthState = 'none' | 'ok' | 'expired' | 'password_changed' | 'elsewhere';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
    authState: AuthState;
  }
}

export const SESSION_COOKIE = 'token';
export const HEALTH_PATH = routeUrl(PLATFORM_ROUTES.health);

/** The calling account, or the failure that says why there is none (codes 9, 10, 70, 5003). */
export function requireAccount(request: FastifyRequest): Principal {
  if (request.principal) return request.principal;
  if (request.authState === 'expired') throw new AppError(Codes.TOKEN_OLD);
  if (request.authState === 'password_changed') throw new AppError(Codes.PASSWORD_MODIFIED);
  if (request.authState === 'elsewhere') throw new AppError(Codes.LOGIN_ELSEWHERE);
  throw new AppError(Codes.TOKEN_MISSING);
}

/** Who calls a service: the signed-in account, and the request the audit rows name. */
export interface Caller {
  accountId: number;
  account: string;
  requestId?: string;
}

/** The signed-in caller of a route (requireAccount's codes otherwise). */
export function callerOf(request: FastifyRequest): Caller {
  const principal = requireAccount(request);
  return { accountId: principal.accountId, account: principal.account, requestId: request.id };
}

/**
 * onRequest hook of every route that needs an account (app.ts registers the account, project,
 * sharing, device and maintenance routes behind it). It runs before the body, query and params are
 * validated, so a caller without an account hears 9/10/70 rather than 16.
 */
export async function signedInHook(request: FastifyRequest): Promise<void> {
  requireAccount(request);
}

// Writing last_seen_at on every request would turn every read into a write.
const TOUCH_AFTER_MS = 60_000;

/**
 * Resolves the principal of every request. Expiry and the last-seen/last-used stamps read `now()`
 * (deps.now), the clock sessions are created with, so that tests moving the clock see sessions
 * expire and a skewed clock cannot make a fresh session look expired (invariant 8).
 */
export function registerPrincipal(app: FastifyInstance, db: Db, config: Config, now: () => Date): void {
  app.decorateRequest('principal', null);
  app.decorateRequest('authState', 'none');
  app.addHook('onRequest', async (request) => {
    // Health answers load balancers without an account, also while the sessions' database is down.
    // The operations routes (/metrics, /healthz, /readyz) have their own guard: a Bearer there is
    // the metrics token, not an API key.
    const url = request.routeOptions.url;
    if (url === HEALTH_PATH || (url !== undefined && OPERATIONS_PATHS.has(url))) return;
    const bearer = request.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
    if (bearer) {
      // Scope, project list, expiry and rate: api-keys/ (docs/decisions/0058).
      const key = await resolveApiKey(db, bearer, now());
      if (key === 'expired') {
        request.authState = 'expired';
        return;
      }
      request.principal = {
        accountId: key.accountId,
        account: key.account,
        accessType: AccessType.OPENAPI,
        sessionId: null,
        apiKeyId: key.grant.id,
        apiKey: key.grant,
      };
      request.authState = 'ok';
      return;
    }
    const token = request.cookies?.[SESSION_COOKIE];
    if (!token) return;
    const [row] = await db
      .select({
        id: sessions.id,
        accountId: sessions.accountId,
        account: accounts.account,
        expiresAt: sessions.expiresAt,
        lastSeenAt: sessions.lastSeenAt,
        persistent: sessions.persistent,
        passwordVersion: sessions.passwordVersion,
        currentPasswordVersion: accounts.passwordVersion,
        revokedAt: sessions.revokedAt,
        revokedReason: sessions.revokedReason,
      })
      .from(sessions)
      .innerJoin(accounts, eq(accounts.id, sessions.accountId))
      .where(eq(sessions.tokenHash, hashSecret(token)));
    if (!row) {
      request.authState = 'expired';
      return;
    }
    if (row.revokedAt) {
      // A newer sign-in ended it in single-session mode (5003), unless the password changed since (70).
      const displaced =
        row.revokedReason === ENDED_ELSEWHERE && row.passwordVersion === row.currentPasswordVersion;
      request.authState = displaced ? 'elsewhere' : 'expired';
      return;
    }
    const at = now();
    if (row.expiresAt.getTime() <= at.getTime()) {
      request.authState = 'expired';
      return;
    }
    if (row.passwordVersion !== row.currentPasswordVersion) {
      request.authState = 'password_changed';
      return;
    }
    request.principal = {
      accountId: row.accountId,
      account: row.account,
      accessType: AccessType.WEB,
      sessionId: row.id,
      apiKeyId: null,
    };
    request.authState = 'ok';
    if (at.getTime() - row.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
      // Browser-session cookies slide: they live sessionIdleTtl past the last request.
      const expiresAt = row.persistent
        ? row.expiresAt
        : new Date(at.getTime() + config.sessionIdleTtlSeconds * 1000);
      await db.update(sessions).set({ lastSeenAt: at, expiresAt }).where(eq(sessions.id, row.id));
    }
  });
}
