import { API_PREFIX, type SignInStep } from '@beacon/protocol';
import type { FastifyReply } from 'fastify';
import type { Config } from '../config.ts';
import { ok } from '../http/reply.ts';
import { setSessionCookie } from './sessions.ts';
import { CHALLENGE_TTL_MS, type SignInOutcome } from './two-factor.ts';

/** The cookie of a sign-in waiting for its second factor (only POST /auth/second-factor reads it). */
export const CHALLENGE_COOKIE = 'signin_challenge';
export const CHALLENGE_COOKIE_PATH = `${API_PREFIX}/auth`;

/** Answers a finished first factor: the session cookie, or the challenge cookie for the second factor. */
export function answerSignIn(reply: FastifyReply, config: Config, outcome: SignInOutcome) {
  return ok<SignInStep>(setSignInCookies(reply, config, outcome));
}

export function setSignInCookies(reply: FastifyReply, config: Config, outcome: SignInOutcome): SignInStep {
  if (outcome.kind === 'session') {
    setSessionCookie(reply, config, outcome.token, outcome.persistent);
    return outcome.view;
  }
  reply.setCookie(CHALLENGE_COOKIE, outcome.challengeToken, {
    path: CHALLENGE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicUrl.startsWith('https:'),
    maxAge: CHALLENGE_TTL_MS / 1000,
  });
  return outcome.step;
}

export function clearChallengeCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(CHALLENGE_COOKIE, {
    path: CHALLENGE_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicUrl.startsWith('https:'),
  });
}
