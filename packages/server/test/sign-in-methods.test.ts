import { Codes, httpStatusFor, type SecurityView, type SocialCallbackResult } from '@beacon/protocol';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from './helpers/accounts.ts';
import { type HttpClient, type HttpResult, startTestServer, type TestServer } from './helpers/harness.ts';
import { authorizeAt, startTestOidcProvider, type TestOidcProvider } from './helpers/oidc-provider.ts';

let server: TestServer;
let idp: TestOidcProvider;
const PUBLIC_URL = 'http://localhost:8080';

beforeAll(async () => {
  idp = await startTestOidcProvider([PUBLIC_URL]);
  server = await startTestServer({ PUBLIC_URL, ...idp.env() });
});
afterAll(async () => {
  await server?.close();
  await idp?.close();
});

function expectCode(res: HttpResult, code: number): void {
  expect({ status: res.status, code: res.body.code }, JSON.stringify(res.body)).toEqual({
    status: httpStatusFor(code),
    code,
  });
}

/** Starts a flow in `client`, goes through the provider as `login`, and answers the callback. */
async function socialRound(
  client: HttpClient,
  start: string,
  login: string,
  opts: { cancel?: boolean; callbackClient?: HttpClient } = {},
): Promise<{ res: HttpResult<SocialCallbackResult>; search: string }> {
  const started = await client.post<{ url: string }>(start, start.startsWith('/auth') ? {} : undefined);
  expect(started.body.code, JSON.stringify(started.body)).toBe(0);
  const search = await authorizeAt(started.body.data.url, login, opts.cancel);
  const res = await (opts.callbackClient ?? client).post<SocialCallbackResult>('/auth/social/callback', {
    search,
  });
  return { res, search };
}

async function security(client: HttpClient): Promise<SecurityView> {
  const res = await client.get<SecurityView>('/account/security');
  expect(res.body.code).toBe(0);
  return res.body.data;
}

describe('social sign-in and binding through OpenID Connect', () => {
  it('signs up with a verified identity, then signs in with it to the same account', async () => {
    const browser = server.client();
    const { res } = await socialRound(browser, '/auth/social/google/start', 'alice');
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    expect(res.body.data.outcome).toBe('signedIn');
    const session = await browser.get<{ account: { email: string; id: number } }>('/auth/session');
    expect(session.body.data.account.email).toBe('alice@idp.example.com');
    const view = await security(browser);
    expect(view.hasPassword).toBe(false);
    expect(view.identities.map((i) => i.provider)).toEqual(['google']);

    const again = server.client();
    const second = await socialRound(again, '/auth/social/google/start', 'alice');
    expect(second.res.body.code).toBe(0);
    const s2 = await again.get<{ account: { id: number } }>('/auth/session');
    expect(s2.body.data.account.id).toBe(session.body.data.account.id);

    // The last way in cannot go; once another identity is bound, it can.
    expectCode(await browser.delete('/account/identities/google'), Codes.LAST_SIGN_IN_METHOD);
    const bound = await socialRound(browser, '/account/identities/wechat', 'frank');
    expect(bound.res.body.data).toMatchObject({
      outcome: 'bound',
      identity: { provider: 'wechat', label: 'Frank Idp' },
    });
    const after = await browser.delete<SecurityView>('/account/identities/google');
    expect(after.body.code).toBe(0);
    expect(after.body.data.identities.map((i) => i.provider)).toEqual(['wechat']);
    expectCode(await browser.delete('/account/identities/wechat'), Codes.LAST_SIGN_IN_METHOD);
  });

  it('binds up to one identity per provider and refuses one bound to another account', async () => {
    const owner = await createAccount(server);
    const bound = await socialRound(owner.client, '/account/identities/wechat', 'bob');
    expect(bound.res.body.data.outcome).toBe('bound');
    const other = await createAccount(server);
    expectCode(
      (await socialRound(other.client, '/account/identities/wechat', 'bob')).res,
      Codes.IDENTITY_TAKEN,
    );
    expectCode(
      (await socialRound(owner.client, '/account/identities/wechat', 'carol')).res,
      Codes.PROVIDER_ALREADY_BOUND,
    );
    expect((await socialRound(owner.client, '/account/identities/facebook', 'bob')).res.body.code).toBe(0);
    const view = await security(owner.client);
    expect(view.identities.map((i) => i.provider).sort()).toEqual(['facebook', 'wechat']);
    // With a password, every identity may go.
    expect((await owner.client.delete('/account/identities/wechat')).body.code).toBe(0);
    expect((await owner.client.delete('/account/identities/facebook')).body.code).toBe(0);
    expectCode(await owner.client.delete('/account/identities/facebook'), Codes.NOT_FOUND);
    // The bound identity signs in to the account that holds it.
    await socialRound(owner.client, '/account/identities/google', 'bob');
    const browser = server.client();
    expect((await socialRound(browser, '/auth/social/google/start', 'bob')).res.body.code).toBe(0);
    expect((await browser.get<{ account: { id: number } }>('/auth/session')).body.data.account.id).toBe(
      owner.id,
    );
  });

  it('refuses a callback in another browser, twice, late, cancelled, or for a taken email', async () => {
    const a = server.client();
    const stranger = server.client();
    const foreign = await socialRound(a, '/auth/social/google/start', 'carol', { callbackClient: stranger });
    expectCode(foreign.res, Codes.SOCIAL_STATE);
    // The stranger's attempt does not use the flow up; its own browser finishes it, once.
    expect((await a.post('/auth/social/callback', { search: foreign.search })).body.code).toBe(0);
    expectCode(await a.post('/auth/social/callback', { search: foreign.search }), Codes.SOCIAL_STATE);
    await a.post('/auth/logout');

    const started = await a.post<{ url: string }>('/auth/social/google/start', {});
    const search = await authorizeAt(started.body.data.url, 'carol');
    server.clock.advance(11 * 60_000);
    expectCode(await a.post('/auth/social/callback', { search }), Codes.SOCIAL_STATE);
    server.clock.advance(-11 * 60_000);

    expectCode(
      (await socialRound(a, '/auth/social/google/start', 'carol', { cancel: true })).res,
      Codes.SOCIAL_CANCELLED,
    );
    expectCode(await a.post('/auth/social/callback', { search: '?code=abc' }), Codes.SOCIAL_STATE);

    await createAccount(server, { email: 'erin@idp.example.com' });
    expectCode((await socialRound(a, '/auth/social/google/start', 'erin')).res, Codes.SOCIAL_EMAIL_IN_USE);
    expectCode((await socialRound(a, '/auth/social/google/start', 'nomail')).res, Codes.SOCIAL_NO_EMAIL);
    expect((await a.get('/auth/session')).body.code).toBe(Codes.TOKEN_MISSING);
  });

  it('finishes a bind only in the session that started it', async () => {
    const owner = await createAccount(server);
    const started = await owner.client.post<{ url: string }>('/account/identities/facebook');
    const search = await authorizeAt(started.body.data.url, 'dave');
    const other = await createAccount(server);
    // Even with the flow cookie, another account's session cannot take the binding.
    other.client.setCookie(
      'oidc_flow',
      (owner.client as unknown as { cookies: Map<string, string> }).cookies.get('oidc_flow') ?? '',
    );
    expectCode(await other.client.post('/auth/social/callback', { search }), Codes.SOCIAL_STATE);
  });
});

describe('single-session mode (5003)', () => {
  it('ends the older session when the account signs in again', async () => {
    const acc = await createAccount(server);
    const other = server.client();
    expect((await other.post('/auth/login', { account: acc.email, password: acc.password })).body.code).toBe(
      0,
    );
    // Turning it on ends the other session at once; this one stays.
    const on = await acc.client.request<SecurityView>('PUT', '/account/single-session', { enabled: true });
    expect(on.body.data.singleSession).toBe(true);
    expectCode(await other.get('/auth/session'), Codes.LOGIN_ELSEWHERE);
    expect((await acc.client.get('/auth/session')).body.code).toBe(0);

    const phone = server.client();
    expect((await phone.post('/auth/login', { account: acc.email, password: acc.password })).body.code).toBe(
      0,
    );
    expectCode(await acc.client.get('/account'), Codes.LOGIN_ELSEWHERE);
    expect((await phone.get('/auth/session')).body.code).toBe(0);

    // Off: sessions live side by side again.
    await phone.request('PUT', '/account/single-session', { enabled: false });
    const laptop = server.client();
    await laptop.post('/auth/login', { account: acc.email, password: acc.password });
    expect((await phone.get('/auth/session')).body.code).toBe(0);
    expect((await laptop.get('/auth/session')).body.code).toBe(0);
    // Signing out is not "elsewhere": the old token answers 10.
    await laptop.post('/auth/logout');
    laptop.setCookie('token', 'x'.repeat(43));
    expectCode(await laptop.get('/auth/session'), Codes.TOKEN_OLD);
  });
});

describe('two-factor sign-in (TOTP, RFC 6238)', () => {
  const codeAt = (secret: string, at: Date) =>
    new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
      timestamp: at.getTime(),
    });

  it('turns on with a code, then every sign-in needs the second factor, with a moving clock', async () => {
    const acc = await createAccount(server);
    const setup = await acc.client.post<{ secret: string; uri: string }>('/account/two-factor/setup');
    expect(setup.body.data.uri).toMatch(/^otpauth:\/\/totp\/Beacon:/);
    const secret = setup.body.data.secret;
    expectCode(
      await acc.client.post('/account/two-factor/enable', {
        code: '000000' === codeAt(secret, server.clock.now()) ? '111111' : '000000',
      }),
      Codes.VERIFICATION_CODE,
    );
    const enabled = await acc.client.post<{ recoveryCodes: string[] }>('/account/two-factor/enable', {
      code: codeAt(secret, server.clock.now()),
    });
    expect(enabled.body.data.recoveryCodes).toHaveLength(10);
    expect((await security(acc.client)).twoFactor).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    expectCode(await acc.client.post('/account/two-factor/setup'), Codes.TWO_FACTOR_ON);

    // The password alone no longer signs in.
    server.clock.advance(30_000);
    const browser = server.client();
    const first = await browser.post<{ secondFactor?: true }>('/auth/login', {
      account: acc.email,
      password: acc.password,
    });
    expect(first.body.data).toMatchObject({ secondFactor: true });
    expectCode(await browser.get('/auth/session'), Codes.TOKEN_MISSING);
    const code = codeAt(secret, server.clock.now());
    const done = await browser.post('/auth/second-factor', { code });
    expect(done.body.code, JSON.stringify(done.body)).toBe(0);
    expect((await browser.get('/auth/session')).body.code).toBe(0);

    // The same code is good once; a code from 2 minutes ago is not good now.
    const replay = server.client();
    await replay.post('/auth/login', { account: acc.email, password: acc.password });
    expectCode(await replay.post('/auth/second-factor', { code }), Codes.VERIFICATION_CODE);
    const old = codeAt(secret, new Date(server.clock.now().getTime() - 120_000));
    server.clock.advance(30_000);
    const now = codeAt(secret, server.clock.now());
    if (old !== now)
      expectCode(await replay.post('/auth/second-factor', { code: old }), Codes.VERIFICATION_CODE);
    expect((await replay.post('/auth/second-factor', { code: now })).body.code).toBe(0);

    // A recovery code works once.
    const rc = enabled.body.data.recoveryCodes[0];
    const r1 = server.client();
    await r1.post('/auth/login', { account: acc.email, password: acc.password });
    expect((await r1.post('/auth/second-factor', { code: rc })).body.code).toBe(0);
    const r2 = server.client();
    await r2.post('/auth/login', { account: acc.email, password: acc.password });
    expectCode(await r2.post('/auth/second-factor', { code: rc }), Codes.VERIFICATION_CODE);
    expect((await security(acc.client)).twoFactor.recoveryCodesLeft).toBe(9);

    // The challenge lives 5 minutes.
    const late = server.client();
    await late.post('/auth/login', { account: acc.email, password: acc.password });
    server.clock.advance(6 * 60_000);
    expectCode(
      await late.post('/auth/second-factor', { code: codeAt(secret, server.clock.now()) }),
      Codes.SECOND_FACTOR_EXPIRED,
    );
    expectCode(
      await server.client().post('/auth/second-factor', { code: '123456' }),
      Codes.SECOND_FACTOR_EXPIRED,
    );
  });

  it('locks the second factor after 5 wrong codes in 5 minutes, for 30 minutes', async () => {
    const acc = await createAccount(server);
    const secret = (await acc.client.post<{ secret: string }>('/account/two-factor/setup')).body.data.secret;
    await acc.client.post('/account/two-factor/enable', { code: codeAt(secret, server.clock.now()) });
    server.clock.advance(30_000);
    const browser = server.client();
    await browser.post('/auth/login', { account: acc.email, password: acc.password });
    const good = codeAt(secret, server.clock.now());
    const wrong = good === '999999' ? '999998' : '999999';
    for (let i = 0; i < 4; i++)
      expectCode(await browser.post('/auth/second-factor', { code: wrong }), Codes.VERIFICATION_CODE);
    expectCode(await browser.post('/auth/second-factor', { code: wrong }), Codes.VERIFY_LIMIT);
    expectCode(await browser.post('/auth/second-factor', { code: good }), Codes.VERIFY_LIMIT);
    server.clock.advance(31 * 60_000);
    const again = server.client();
    await again.post('/auth/login', { account: acc.email, password: acc.password });
    expect(
      (await again.post('/auth/second-factor', { code: codeAt(secret, server.clock.now()) })).body.code,
    ).toBe(0);

    // Off with a current code; then the password alone signs in.
    server.clock.advance(30_000);
    const off = await acc.client.post<SecurityView>('/account/two-factor/disable', {
      code: codeAt(secret, server.clock.now()),
    });
    expect(off.body.data.twoFactor.enabled).toBe(false);
    expectCode(
      await acc.client.post('/account/two-factor/disable', { code: '123456' }),
      Codes.TWO_FACTOR_OFF,
    );
    expectCode(
      await acc.client.post('/account/two-factor/enable', { code: '123456' }),
      Codes.TWO_FACTOR_NO_SETUP,
    );
    const plain = await server
      .client()
      .post<{ account?: unknown }>('/auth/login', { account: acc.email, password: acc.password });
    expect(plain.body.data.account).toBeDefined();
  });

  it('asks social sign-ins for the second factor too', async () => {
    const browser = server.client();
    expect((await socialRound(browser, '/auth/social/google/start', 'dave')).res.body.code).toBe(0);
    const secret = (await browser.post<{ secret: string }>('/account/two-factor/setup')).body.data.secret;
    await browser.post('/account/two-factor/enable', { code: codeAt(secret, server.clock.now()) });
    server.clock.advance(30_000);
    const next = server.client();
    const { res } = await socialRound(next, '/auth/social/google/start', 'dave');
    expect(res.body.data).toMatchObject({ outcome: 'signedIn', step: { secondFactor: true } });
    expectCode(await next.get('/auth/session'), Codes.TOKEN_MISSING);
    expect(
      (await next.post('/auth/second-factor', { code: codeAt(secret, server.clock.now()) })).body.code,
    ).toBe(0);
  });
});

describe('SMS verification of a phone number', () => {
  async function smsCode(to: string): Promise<string> {
    const res = await server
      .client()
      .get<Array<{ body: string }>>(`/dev/outbox?email=${encodeURIComponent(to)}`);
    const code = res.body.data[0]?.body.match(/\b(\d{4})\b/)?.[1];
    if (!code) throw new Error(`no SMS to ${to}`);
    return code;
  }

  it('verifies a number with a 4-digit code (region 86 by default); wrong codes lock', async () => {
    const acc = await createAccount(server);
    const phone = `139${String(Date.now()).slice(-8)}`;
    expect((await acc.client.post('/account/phone/code', { phone })).body.code).toBe(0);
    const code = await smsCode(`+86${phone}`);
    expect(code).toMatch(/^\d{4}$/);
    expectCode(
      await acc.client.request('PUT', '/account/phone', { phone, code: code === '0000' ? '0001' : '0000' }),
      Codes.VERIFICATION_CODE,
    );
    // Another account cannot use this account's code.
    const other = await createAccount(server);
    expectCode(await other.client.request('PUT', '/account/phone', { phone, code }), Codes.VERIFICATION_CODE);
    const ok = await acc.client.request<SecurityView>('PUT', '/account/phone', { phone, code });
    expect(ok.body.data.phone).toMatchObject({ regionCode: '86', phone });
    expectCode(await acc.client.post('/account/phone/code', { phone: '12' }), Codes.FORM_DATA);

    const removed = await acc.client.delete<SecurityView>('/account/phone');
    expect(removed.body.data.phone).toBeNull();
  });

  it('sends at most 1 a minute (53), 5 an hour (51), 10 a day (52) per number', async () => {
    const acc = await createAccount(server);
    const body = { regionCode: '44', phone: `7700${String(Date.now()).slice(-6)}` };
    const send = () => acc.client.post('/account/phone/code', body);
    expect((await send()).body.code).toBe(0);
    expectCode(await send(), Codes.SEND_PER_MINUTE);
    for (let i = 0; i < 4; i++) {
      server.clock.advance(61_000);
      expect((await send()).body.code).toBe(0);
    }
    server.clock.advance(61_000);
    expectCode(await send(), Codes.SEND_PER_HOUR);
    for (let i = 0; i < 5; i++) {
      server.clock.advance(61 * 60_000);
      expect((await send()).body.code).toBe(0);
    }
    server.clock.advance(61 * 60_000);
    expectCode(await send(), Codes.SEND_PER_DAY);
  });
});

describe('the web console only', () => {
  it('answers 5090 to an API key', async () => {
    const acc = await createAccount(server);
    const key = await acc.client.post<{ key: string }>('/account/api-keys', { name: 'k1' });
    const bearer = server.client();
    bearer.bearer = key.body.data.key;
    expectCode(await bearer.get('/account/security'), Codes.WEB_ONLY);
    expectCode(await bearer.post('/account/two-factor/setup'), Codes.WEB_ONLY);
    expectCode(await bearer.post('/account/identities/google'), Codes.WEB_ONLY);
  });
});
