import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SOCIAL_PROVIDERS, socialLandingPath } from '@beacon/protocol';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider (oidc-provider, a certified OP implementation) on a loopback port,
 * for the social sign-in tests: authorization code with PKCE required, ID tokens signed with its
 * development keys, the test users below. Its sign-in screen is oidc-provider's development
 * interaction (login name; consent is granted at once for the test client).
 */
export const TEST_USERS: Record<string, { email?: string; email_verified?: boolean; name: string }> = {
  alice: { email: 'alice@idp.example.com', email_verified: true, name: 'Alice Idp' },
  bob: { email: 'bob@idp.example.com', email_verified: true, name: 'Bob Idp' },
  carol: { email: 'carol@idp.example.com', email_verified: true, name: 'Carol Idp' },
  dave: { email: 'dave@idp.example.com', email_verified: true, name: 'Dave Idp' },
  erin: { email: 'erin@idp.example.com', email_verified: true, name: 'Erin Idp' },
  frank: { email: 'frank@idp.example.com', email_verified: true, name: 'Frank Idp' },
  nomail: { name: 'No Mail' },
};

export const TEST_CLIENT = { id: 'beacon-test', secret: 'beacon-test-secret-0123456789abcdef' };

export interface TestOidcProvider {
  issuer: string;
  /** OIDC_* variables that configure every provider slot of a server at `publicUrl` with this provider. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

/** Starts the provider; `publicUrls` are the Beacon servers whose landing routes it accepts. */
export async function startTestOidcProvider(publicUrls: string[]): Promise<TestOidcProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const redirectUris = publicUrls.flatMap((base) =>
    SOCIAL_PROVIDERS.map((p) => new URL(socialLandingPath(p), base).toString()),
  );
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true, methods: ['S256'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['beacon-test-oidc-cookie-key'] },
    async findAccount(_ctx, id) {
      const user = TEST_USERS[id];
      if (!user) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...user }) };
    },
    // First-party test client: consent is granted without a screen.
    async loadExistingGrant(ctx) {
      const grantId =
        ctx.oidc.result?.consent?.grantId || ctx.oidc.session?.grantIdFor(ctx.oidc.client?.clientId ?? '');
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client?.clientId,
        accountId: ctx.oidc.session?.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  server.on('request', provider.callback());
  return {
    issuer,
    env() {
      const env: Record<string, string> = {};
      for (const p of SOCIAL_PROVIDERS) {
        const k = p.toUpperCase();
        env[`OIDC_${k}_ISSUER`] = issuer;
        env[`OIDC_${k}_CLIENT_ID`] = TEST_CLIENT.id;
        env[`OIDC_${k}_CLIENT_SECRET`] = TEST_CLIENT.secret;
      }
      return env;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Goes through the provider as a browser would, from the authorization URL: signs in as `login`
 * (or presses Cancel when `cancel`), and returns the query string the provider sends the browser
 * back to Beacon with (`?code=…&state=…&iss=…`, or `?error=access_denied&…`).
 */
export async function authorizeAt(authorizationUrl: string, login: string, cancel = false): Promise<string> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl;
  let form: URLSearchParams | undefined;
  for (let hop = 0; hop < 12; hop++) {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form?.toString(),
    });
    form = undefined;
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const i = pair.indexOf('=');
      cookies.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
    }
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url);
      if (next.origin !== new URL(authorizationUrl).origin) return next.search;
      url = next.toString();
      continue;
    }
    const html = await res.text();
    const uid = html.match(/action="[^"]*\/interaction\/([^/"]+)"/)?.[1];
    if (!uid) throw new Error(`unexpected provider page (${res.status}): ${html.slice(0, 300)}`);
    if (cancel) {
      url = new URL(`/interaction/${uid}/abort`, url).toString();
      continue;
    }
    url = new URL(`/interaction/${uid}`, url).toString();
    form = new URLSearchParams({ prompt: 'login', login, password: 'any' });
  }
  throw new Error('the provider did not send the browser back');
}
