import {
  AppError,
  Codes,
  type IdentityView,
  type SocialCallbackResult,
  type SocialProvider,
  type SocialRedirect,
  socialLandingPath,
} from '@beacon/protocol';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import * as client from 'openid-client';
import { recordAudit } from '../audit/audit.ts';
import type { DbOrTx } from '../db/client.ts';
import { accountIdentities, oidcFlows } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import type { Principal } from './principal.ts';
import * as repo from './repository.ts';
import { randomCloudId } from './service.ts';
import type { SocialProviderConfig } from './sign-in-config.ts';
import { hashSecret, newSecret } from './tokens.ts';
import { createTwoFactor, type RequestContext, type SignInOutcome } from './two-factor.ts';

/**
 * Social sign-in and binding through OpenID Connect (decision 0056): the authorization code flow with
 * PKCE (S256), state and nonce, by openid-client. The flow's secrets live in `oidc_flows` (any server
 * instance takes the callback) and the browser that started it holds a cookie whose hash the row
 * keeps, so a callback URL opened in another browser is refused (5422) — no login CSRF.
 */
export const FLOW_TTL_MS = 10 * 60_000;
export const FLOW_COOKIE = 'oidc_flow';

export type CallbackOutcome =
  | { outcome: 'signedIn'; signIn: SignInOutcome }
  | { outcome: 'bound'; identity: IdentityView };

const isLoopbackUrl = (url: string): boolean => {
  const host = new URL(url).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
};

type IdentityRow = typeof accountIdentities.$inferSelect;
export const toIdentityView = (row: IdentityRow): IdentityView => ({
  provider: row.provider as SocialProvider,
  label: row.label,
  boundAt: row.boundAt.toISOString(),
});

export function createOidc(deps: Deps) {
  const { db } = deps.database;
  const { config } = deps;
  const twoFactor = createTwoFactor(deps);
  const configs = new Map<SocialProvider, Promise<client.Configuration>>();

  function providerConfig(provider: SocialProvider): SocialProviderConfig {
    const found = config.signIn.socialProviders.find((p) => p.provider === provider);
    if (!found) throw new AppError(Codes.PROVIDER_NOT_CONFIGURED);
    return found;
  }

  /** The provider's metadata, discovered once per server (a failure is retried on the next call). */
  function clientConfig(p: SocialProviderConfig): Promise<client.Configuration> {
    let pending = configs.get(p.provider);
    if (!pending) {
      // Plain http only for a provider on this machine (tests, a local identity server).
      const execute = isLoopbackUrl(p.issuer) ? [client.allowInsecureRequests] : [];
      const auth = client.ClientSecretBasic(p.clientSecret);
      pending = p.endpoints
        ? Promise.resolve().then(() => {
            const c = new client.Configuration(
              {
                issuer: p.issuer,
                authorization_endpoint: p.endpoints?.authorization,
                token_endpoint: p.endpoints?.token,
                jwks_uri: p.endpoints?.jwks,
                userinfo_endpoint: p.endpoints?.userinfo,
              },
              p.clientId,
              undefined,
              auth,
            );
            for (const f of execute) f(c);
            return c;
          })
        : client.discovery(new URL(p.issuer), p.clientId, undefined, auth, { execute });
      pending.catch(() => configs.delete(p.provider));
      configs.set(p.provider, pending);
    }
    return pending.catch((err) => {
      deps.log.warn({ err, provider: p.provider }, 'OpenID provider discovery failed');
      throw new AppError(Codes.SOCIAL_PROVIDER_ERROR);
    });
  }

  async function start(
    provider: SocialProvider,
    accountId: number | null,
    remember: boolean,
    force = false,
  ): Promise<SocialRedirect & { browserSecret: string }> {
    const p = providerConfig(provider);
    const c = await clientConfig(p);
    const now = deps.now();
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const browserSecret = newSecret();
    const redirectUri = new URL(socialLandingPath(provider), config.publicUrl).toString();
    // Flows nobody finished are dropped as new ones start.
    await db.delete(oidcFlows).where(lt(oidcFlows.expiresAt, now));
    await db.insert(oidcFlows).values({
      state,
      browserHash: hashSecret(browserSecret),
      provider,
      accountId,
      codeVerifier,
      nonce,
      redirectUri,
      remember,
      force,
      createdAt: now,
      expiresAt: new Date(now.getTime() + FLOW_TTL_MS),
    });
    const url = client.buildAuthorizationUrl(c, {
      redirect_uri: redirectUri,
      scope: p.scope,
      response_type: 'code',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.toString(), browserSecret };
  }

  /** Takes the flow of `state` once; refused (5422) when unknown, used, expired or another browser's. */
  async function takeFlow(state: string | null, browserSecret: string | undefined) {
    const now = deps.now();
    const refused = () => new AppError(Codes.SOCIAL_STATE);
    if (!state || !browserSecret) throw refused();
    const [flow] = await db
      .update(oidcFlows)
      .set({ usedAt: now })
      .where(
        and(
          eq(oidcFlows.state, state),
          eq(oidcFlows.browserHash, hashSecret(browserSecret)),
          isNull(oidcFlows.usedAt),
          gt(oidcFlows.expiresAt, now),
        ),
      )
      .returning();
    if (!flow) throw refused();
    return flow;
  }

  /** The code exchange: the ID token is checked (signature, issuer, audience, nonce) and PKCE proven. */
  async function exchange(flow: typeof oidcFlows.$inferSelect, search: string) {
    const p = providerConfig(flow.provider as SocialProvider);
    const c = await clientConfig(p);
    const current = new URL(flow.redirectUri);
    current.search = search;
    try {
      const tokens = await client.authorizationCodeGrant(c, current, {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new AppError(Codes.SOCIAL_PROVIDER_ERROR);
      let info: Record<string, unknown> = claims;
      if (!claims.email && c.serverMetadata().userinfo_endpoint) {
        info = { ...(await client.fetchUserInfo(c, tokens.access_token, claims.sub)), ...claims };
      }
      return { issuer: c.serverMetadata().issuer, subject: claims.sub, info };
    } catch (err) {
      if (err instanceof AppError) throw err;
      if (err instanceof client.AuthorizationResponseError) throw new AppError(Codes.SOCIAL_CANCELLED);
      const code = (err as { code?: string }).code ?? '';
      deps.log.warn({ err, provider: flow.provider }, 'OpenID sign-in refused');
      // A nonce or state that does not match is the same refusal as an unknown flow.
      if (/CLAIM|STATE|NONCE|JWT/i.test(code)) throw new AppError(Codes.SOCIAL_STATE);
      throw new AppError(Codes.SOCIAL_PROVIDER_ERROR);
    }
  }

  const labelOf = (info: Record<string, unknown>, subject: string): string =>
    String(info.name || info.preferred_username || info.email || subject).slice(0, 128);

  async function findIdentity(tx: DbOrTx, provider: string, issuer: string, subject: string) {
    const [row] = await tx
      .select()
      .from(accountIdentities)
      .where(
        and(
          eq(accountIdentities.provider, provider),
          eq(accountIdentities.issuer, issuer),
          eq(accountIdentities.subject, subject),
        ),
      );
    return row;
  }

  async function bindIdentity(
    tx: DbOrTx,
    account: { id: number; account: string },
    provider: SocialProvider,
    found: { issuer: string; subject: string; info: Record<string, unknown> },
    ctx: RequestContext,
    now: Date,
  ): Promise<IdentityRow> {
    const [row] = await tx
      .insert(accountIdentities)
      .values({
        accountId: account.id,
        provider,
        issuer: found.issuer,
        subject: found.subject,
        label: labelOf(found.info, found.subject),
        boundAt: now,
      })
      .returning();
    await recordAudit(
      tx,
      { accountId: account.id, account: account.account, requestId: ctx.requestId },
      {
        action: 'bind-identity',
        entity: 'account',
        entityId: account.id,
        after: { provider, label: row.label },
        at: now,
      },
    );
    return row;
  }

  return {
    start,

    /** POST /auth/social/callback: the query the provider sent the browser back with. */
    async callback(
      search: string,
      browserSecret: string | undefined,
      principal: Principal | null,
      ctx: RequestContext,
    ): Promise<CallbackOutcome> {
      const params = new URLSearchParams(search);
      const flow = await takeFlow(params.get('state'), browserSecret);
      const provider = flow.provider as SocialProvider;
      // A bind finishes only in the session that started it.
      if (flow.accountId !== null && principal?.accountId !== flow.accountId) {
        throw new AppError(Codes.SOCIAL_STATE);
      }
      if (params.get('error')) throw new AppError(Codes.SOCIAL_CANCELLED);
      const found = await exchange(flow, search);
      const now = deps.now();
      const identityLock = `identity:${provider}:${found.issuer}:${found.subject}`;

      if (flow.accountId !== null) {
        const accountId = flow.accountId;
        const identity = await db.transaction(async (tx) => {
          await repo.lockKey(tx, `identities:${accountId}`);
          await repo.lockKey(tx, identityLock);
          const existing = await findIdentity(tx, provider, found.issuer, found.subject);
          if (existing && existing.accountId !== accountId) throw new AppError(Codes.IDENTITY_TAKEN);
          if (existing) return existing;
          const [same] = await tx
            .select({ id: accountIdentities.id })
            .from(accountIdentities)
            .where(and(eq(accountIdentities.accountId, accountId), eq(accountIdentities.provider, provider)));
          if (same) throw new AppError(Codes.PROVIDER_ALREADY_BOUND);
          const account = await repo.findAccountById(tx, accountId);
          if (!account) throw new AppError(Codes.TOKEN_OLD);
          return bindIdentity(tx, account, provider, found, ctx, now);
        });
        return { outcome: 'bound', identity: toIdentityView(identity) };
      }

      const signIn = await db.transaction(async (tx) => {
        await repo.lockKey(tx, identityLock);
        const existing = await findIdentity(tx, provider, found.issuer, found.subject);
        if (existing) {
          const account = await repo.findAccountById(tx, existing.accountId);
          if (!account || account.isSystem) throw new AppError(Codes.SOCIAL_STATE);
          return twoFactor.completeSignIn(tx, account, flow.remember, ctx, now, flow.force);
        }
        // Sign-up with the identity: its verified email becomes the account; never linked silently.
        const email = typeof found.info.email === 'string' ? found.info.email.trim().toLowerCase() : '';
        if (!email || found.info.email_verified !== true) throw new AppError(Codes.SOCIAL_NO_EMAIL);
        await repo.lockKey(tx, `email:${email}`);
        if (await repo.findAccountByLogin(tx, email)) throw new AppError(Codes.SOCIAL_EMAIL_IN_USE);
        let cloudId = randomCloudId();
        while (await repo.cloudIdExists(tx, cloudId)) cloudId = randomCloudId();
        const nick = String(found.info.name || email.split('@')[0]).slice(0, 32);
        // No password: the identity is the way in until one is set (Forgot password sets one).
        const account = await repo.insertAccount(tx, { email, nick, passwordHash: '', cloudId, now });
        await recordAudit(
          tx,
          { accountId: account.id, account: account.account, requestId: ctx.requestId },
          {
            action: 'signup',
            entity: 'account',
            entityId: account.id,
            after: { email, nick, cloudId, provider },
            at: now,
          },
        );
        await bindIdentity(tx, account, provider, found, ctx, now);
        return twoFactor.completeSignIn(tx, account, flow.remember, ctx, now, flow.force);
      });
      return { outcome: 'signedIn', signIn };
    },
  };
}

export type Oidc = ReturnType<typeof createOidc>;
export type { SocialCallbackResult };
