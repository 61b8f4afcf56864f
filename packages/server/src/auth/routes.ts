import { AUTH_ROUTES, ok as envelope, SIGN_IN_CLIENT_HEADER, signInClientOf } from '@beacon/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import { createInvitations } from '../team/invitations.ts';
import { requireAccount } from './principal.ts';
import { createAuthService, type RequestContext, type SignedIn } from './service.ts';
import { clearSessionCookie, setSessionCookie } from './sessions.ts';
import { answerSignIn } from './sign-in-answer.ts';

const tags = ['auth'];
const R = AUTH_ROUTES;

function context(request: FastifyRequest): RequestContext {
  return {
    requestId: request.id,
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    client: signInClientOf(request.headers[SIGN_IN_CLIENT_HEADER]),
  };
}

export async function authRoutes(app: App, deps: Deps): Promise<void> {
  const service = createAuthService(deps);
  const invitations = createInvitations(deps);
  const { config } = deps;
  // Per-IP limit on the routes that take passwords or send mail (SPEC.md §8 code 5034 when over).
  const rateLimited = { rateLimit: { max: config.authRateLimitPerMinute, timeWindow: '1 minute' } };

  const signIn = (reply: FastifyReply, signedIn: SignedIn) => {
    setSessionCookie(reply, config, signedIn.token, signedIn.persistent);
    return ok(signedIn.view);
  };

  app.post(
    R.sendCode.path,
    {
      config: rateLimited,
      schema: {
        tags,
        summary: 'Send a 6-digit email verification code (sign-up or password reset)',
        body: R.sendCode.body,
        response: { 200: envelope(R.sendCode.response) },
      },
    },
    async (request) => {
      await service.sendCode(request.body);
      return ok(null);
    },
  );

  app.post(
    R.signUp.path,
    {
      config: rateLimited,
      schema: {
        tags,
        summary: 'Create an account with an email code and sign in',
        body: R.signUp.body,
        response: { 200: envelope(R.signUp.response) },
      },
    },
    async (request, reply) => signIn(reply, await service.signUp(request.body, context(request))),
  );

  app.post(
    R.login.path,
    {
      config: rateLimited,
      schema: {
        tags,
        summary: 'Sign in with account and password',
        body: R.login.body,
        response: { 200: envelope(R.login.response) },
      },
    },
    async (request, reply) =>
      answerSignIn(reply, config, await service.login(request.body, context(request))),
  );

  app.post(
    R.logout.path,
    {
      schema: {
        tags,
        summary: 'Sign out: revoke the session and clear its cookie',
        response: { 200: envelope(R.logout.response) },
      },
    },
    async (request, reply) => {
      await service.logout(request.principal);
      clearSessionCookie(reply, config);
      return ok(null);
    },
  );

  app.get(
    R.session.path,
    {
      schema: {
        tags,
        summary: 'The calling account, its access type and menu flags',
        response: { 200: envelope(R.session.response) },
      },
    },
    async (request) => ok(await service.session(requireAccount(request))),
  );

  app.post(
    R.acceptInvitation.path,
    {
      config: rateLimited,
      schema: {
        tags,
        summary: "Set a subordinate account's first password with its invitation link (once, 7 days)",
        body: R.acceptInvitation.body,
        response: { 200: envelope(R.acceptInvitation.response) },
      },
    },
    async (request) => {
      await invitations.accept(request.body, request.id);
      return ok(null);
    },
  );

  app.post(
    R.resetPassword.path,
    {
      config: rateLimited,
      schema: {
        tags,
        summary: 'Reset the password with an email code',
        body: R.resetPassword.body,
        response: { 200: envelope(R.resetPassword.response) },
      },
    },
    async (request) => {
      await service.resetPassword(request.body, context(request));
      return ok(null);
    },
  );
}
