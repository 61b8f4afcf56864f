import type { SignInClient } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import type { DbOrTx } from '../db/client.ts';
import { sessions } from '../db/schema.ts';
import { publishSignOut } from '../events/bus.ts';
import { SESSION_COOKIE } from './principal.ts';
import { afterNewSession } from './single-session.ts';
import { hashSecret, newSecret } from './tokens.ts';

export interface NewSession {
  accountId: number;
  passwordVersion: number;
  /** "Remember me": a persistent cookie living config.sessionTtlSeconds. */
  persistent: boolean;
  userAgent?: string;
  ip?: string;
  /** The web console (default) or another app (decision 0068). */
  client?: SignInClient;
}

/** Creates a server-side session and returns its opaque token (only the hash is stored). */
export async function createSession(db: DbOrTx, config: Config, now: Date, s: NewSession): Promise<string> {
  const token = newSecret();
  const ttl = s.persistent ? config.sessionTtlSeconds : config.sessionIdleTtlSeconds;
  const [row] = await db
    .insert(sessions)
    .values({
      tokenHash: hashSecret(token),
      accountId: s.accountId,
      passwordVersion: s.passwordVersion,
      persistent: s.persistent,
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + ttl * 1000),
      userAgent: s.userAgent?.slice(0, 256),
      ip: s.ip,
      client: s.client ?? 'web',
    })
    .returning({ id: sessions.id });
  await afterNewSession(db, s.accountId, row.id, now);
  return token;
}

/** Ends a session; its open WebSockets close on every instance once this commits. */
export async function revokeSession(db: DbOrTx, sessionId: number, now: Date): Promise<void> {
  const [row] = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(eq(sessions.id, sessionId))
    .returning({ accountId: sessions.accountId });
  if (row) await publishSignOut(db, row.accountId);
}

/** httpOnly, SameSite=Lax cookie named `token`; without "remember me" it ends with the browser session. */
export function setSessionCookie(
  reply: FastifyReply,
  config: Config,
  token: string,
  persistent: boolean,
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicUrl.startsWith('https:'),
    ...(persistent ? { maxAge: config.sessionTtlSeconds } : {}),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicUrl.startsWith('https:'),
  });
}
