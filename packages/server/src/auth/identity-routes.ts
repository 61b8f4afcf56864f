import {
  API_PREFIX,
  ok as envelope,
  IDENTITY_ROUTES,
  SIGN_IN_CLIENT_HEADER,
  type SocialCallbackResult,
  signInClientOf,
} from '@beacon/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { webOnly } from '../accounts/web-only.ts';
import type { Config } from '../config.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import { createOidc, FLOW_COOKIE, FLOW_TTL_MS } from './oidc.ts';
import { createPhoneSignIn } from './phone-sign-in.ts';
import { requireAccount } from './principal.ts';
import { createSecurity } from './security.ts';
import { createAuthService } from './service.ts';
import { setSessionCookie } from './sessions.ts';
import { answerSignIn, CHALLENGE_COOKIE, clearChallengeCookie, setSignInCookies } from './sign-in-answer.ts';
import { createPhoneVerification } from './sms.ts';
import { createTwoFactor, type RequestContext } from './two-factor.ts';

const R = IDENTITY_ROUTES;
const FLOW_COOKIE_PATH = `${API_PREFIX}/auth/social`;

function context(request: FastifyRequest): RequestContext {
  return {
    requestId: request.id,
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    client: signInClientOf(request.headers[SIGN_IN_CLIENT_HEADER]),
  };
}

function setFlowCookie(reply: FastifyReply, config: Config, secret: string): void {
  reply.setCookie(FLOW_COOKIE, secret, {
    path: FLOW_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: config.publicUrl.startsWith('https:'),
    maxAge: FLOW_TTL_MS / 1000,
  });
}

/** Sign-in steps that answer without an account: social start and callback, the second factor. */
export async function identityAuthRoutes(app: App, deps: Deps): Promise<void> {
  const oidc = createOidc(deps);
  const twoFactor = createTwoFactor(deps);
  const security = createSecurity(deps);
  const phoneSignIn = createPhoneSignIn(deps, createAuthService(deps));
  const { config } = deps;
  const tags = ['auth'];
  const rateLimited = { rateLimit: { max: config.authRateLimitPerMinute, timeWindow: '1 minute' } };

  app.get(
    R.socialProviders.path,
    {
      schema: {
        tags,
        summary: 'The social sign-in providers this server offers',
        response: { 200: envelope(R.socialProviders.response) },
      },
    },
    async () => ok(security.providers()),
  );

  app.post(
    R.socialStart.path,
    {
      config: rateLimited,
      schema: {
        tags,
        summary: 'Start a sign-in (or sign-up) with an external identity: the URL to send the browser to',
        params: R.socialStart.params,
        body: R.socialStart.body,
        response: { 200: envelope(R.socialStart.response) },
      },
    },
    async (request, reply) => {
      const { url, browserSecret } = await oidc.start(
        request.params.provider,
        null,
        request.body.remember === true,
        request.body.force === true,
      );
      setFlowCookie(reply, config, browserSecret);
      return ok({ url });
    },
  );

  app.post(
    R.socialCallback.path,
    {
      config: rateLimited,
      schema: {
        tags,
        summary: 'Finish a social sign-in or binding with the query the provider sent the browser back with',
        body: R.socialCallback.body,
        response: { 200: envelope(R.socialCallback.response) },
      },
    },
    async (request, reply) => {
      const secret = request.cookies[FLOW_COOKIE];
      reply.clearCookie(FLOW_COOKIE, { path: FLOW_COOKIE_PATH });
      const done = await oidc.callback(request.body.search, secret, request.principal, context(request));
      const answer: SocialCallbackResult =
        done.outcome === 'bound'
          ? done
          : { outcome: 'signedIn', step: setSignInCookies(reply, config, done.signIn) };
      return ok(answer);
    },
  );

  app.post(
    R.phoneSignInCode.path,
    {
      config: rateLimited,
      schema: {
        tags,
        summary:
          'Send a 4-digit SMS code to sign in with a verified phone number (region code 86 by default)',
        body: R.phoneSignInCode.body,
        response: { 200: envelope(R.phoneSignInCode.response) },
      },
    },
    async (request) => {
      await phoneSignIn.sendCode(request.body);
      return ok(null);
    },
  );

  app.post(
    R.phoneLogin.path,
    {
      config: rateLimited,
      schema: {
        tags,
        summary: 'Sign in with a verified phone number and the password or an SMS code',
        body: R.phoneLogin.body,
        response: { 200: envelope(R.phoneLogin.response) },
      },
    },
    async (request, reply) =>
      answerSignIn(reply, config, await phoneSignIn.login(request.body, context(request))),
  );

  app.post(
    R.secondFactor.path,
    {
      config: rateLimited,
      schema: {
        tags,
        summary: 'Finish a sign-in with the authenticator code or a recovery code',
        body: R.secondFactor.body,
        response: { 200: envelope(R.secondFactor.response) },
      },
    },
    async (request, reply) => {
      const signedIn = await twoFactor.finishSignIn(
        request.cookies[CHALLENGE_COOKIE],
        request.body.code,
        context(request),
      );
      clearChallengeCookie(reply, config);
      setSessionCookie(reply, config, signedIn.token, signedIn.persistent);
      return ok(signedIn.view);
    },
  );
}

/** The signed-in account's sign-in methods; web console only (an API key answers 5090). */
export async function identityAccountRoutes(app: App, deps: Deps): Promise<void> {
  const oidc = createOidc(deps);
  const twoFactor = createTwoFactor(deps);
  const security = createSecurity(deps);
  const phone = createPhoneVerification(deps);
  const { config } = deps;
  const tags = ['account'];
  const rateLimited = { rateLimit: { max: config.authRateLimitPerMinute, timeWindow: '1 minute' } };

  app.get(
    R.security.path,
    {
      onRequest: webOnly,
      schema: {
        tags,
        summary: 'Ways to sign in and their safeguards',
        response: { 200: envelope(R.security.response) },
      },
    },
    async (request) => ok(await security.view(requireAccount(request))),
  );

  app.post(
    R.bind.path,
    {
      onRequest: webOnly,
      schema: {
        tags,
        summary: 'Start binding an external identity: the URL to send the browser to',
        params: R.bind.params,
        response: { 200: envelope(R.bind.response) },
      },
    },
    async (request, reply) => {
      const principal = requireAccount(request);
      const { url, browserSecret } = await oidc.start(request.params.provider, principal.accountId, false);
      setFlowCookie(reply, config, browserSecret);
      return ok({ url });
    },
  );

  app.delete(
    R.unbind.path,
    {
      onRequest: webOnly,
      schema: {
        tags,
        summary: 'Unbind an external identity (refused for the last way to sign in)',
        params: R.unbind.params,
        response: { 200: envelope(R.unbind.response) },
      },
    },
    async (request) =>
      ok(await security.unbind(requireAccount(request), request.params.provider, request.id)),
  );

  app.put(
    R.singleSession.path,
    {
      onRequest: webOnly,
      schema: {
        tags,
        summary: 'Single-session mode: a new sign-in ends the older session (5003)',
        body: R.singleSession.body,
        response: { 200: envelope(R.singleSession.response) },
      },
    },
    async (request) =>
      ok(await security.setSingleSession(requireAccount(request), request.body.enabled, request.id)),
  );

  app.post(
    R.twoFactorSetup.path,
    {
      onRequest: webOnly,
      schema: {
        tags,
        summary: 'A new authenticator secret, on once confirmed with a code',
        response: { 200: envelope(R.twoFactorSetup.response) },
      },
    },
    async (request) => ok(await twoFactor.setup(requireAccount(request))),
  );

  app.post(
    R.twoFactorEnable.path,
    {
      onRequest: webOnly,
      config: rateLimited,
      schema: {
        tags,
        summary: 'Turn two-factor sign-in on with a code of the new secret; answers the recovery codes',
        body: R.twoFactorEnable.body,
        response: { 200: envelope(R.twoFactorEnable.response) },
      },
    },
    async (request) =>
      ok(await twoFactor.enable(requireAccount(request), request.body.code, context(request))),
  );

  app.post(
    R.twoFactorDisable.path,
    {
      onRequest: webOnly,
      config: rateLimited,
      schema: {
        tags,
        summary: 'Turn two-factor sign-in off with a current code or a recovery code',
        body: R.twoFactorDisable.body,
        response: { 200: envelope(R.twoFactorDisable.response) },
      },
    },
    async (request) => {
      const principal = requireAccount(request);
      await twoFactor.disable(principal, request.body.code, context(request));
      return ok(await security.view(principal));
    },
  );

  app.post(
    R.recoveryCodes.path,
    {
      onRequest: webOnly,
      config: rateLimited,
      schema: {
        tags,
        summary: 'New recovery codes (the old ones end), with a current code',
        body: R.recoveryCodes.body,
        response: { 200: envelope(R.recoveryCodes.response) },
      },
    },
    async (request) =>
      ok(await twoFactor.newRecoveryCodes(requireAccount(request), request.body.code, context(request))),
  );

  app.post(
    R.sendSmsCode.path,
    {
      onRequest: webOnly,
      config: rateLimited,
      schema: {
        tags,
        summary: 'Send a 4-digit SMS code to a phone number (region code 86 by default)',
        body: R.sendSmsCode.body,
        response: { 200: envelope(R.sendSmsCode.response) },
      },
    },
    async (request) => {
      await phone.sendCode(requireAccount(request), request.body);
      return ok(null);
    },
  );

  app.put(
    R.verifyPhone.path,
    {
      onRequest: webOnly,
      config: rateLimited,
      schema: {
        tags,
        summary: 'Keep the phone number, verified by its SMS code',
        body: R.verifyPhone.body,
        response: { 200: envelope(R.verifyPhone.response) },
      },
    },
    async (request) => {
      const principal = requireAccount(request);
      await phone.verify(principal, request.body, request.id);
      return ok(await security.view(principal));
    },
  );

  app.delete(
    R.removePhone.path,
    {
      onRequest: webOnly,
      schema: {
        tags,
        summary: 'Remove the phone number',
        response: { 200: envelope(R.removePhone.response) },
      },
    },
    async (request) => ok(await security.removePhone(requireAccount(request), request.id)),
  );
}
