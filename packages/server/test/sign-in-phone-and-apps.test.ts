import { Codes, httpStatusFor } from '@beacon/protocol';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { type HttpClient, type HttpResult, startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Decision 0068: signing in with a verified phone number (password or 4-digit SMS code, the same
 * lockouts and second factor as the email), and code 69 "other app online" in single-session mode.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

function expectCode(res: HttpResult, code: number): void {
  expect({ status: res.status, code: res.body.code }, JSON.stringify(res.body)).toEqual({
    status: httpStatusFor(code),
    code,
  });
}

let n = 0;
/** A mobile number no other test uses (11 digits, as in region 86). */
const newPhone = () =>
  `13${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() + ++n).slice(-6)}`;

async function outbox(to: string): Promise<string[]> {
  const res = await server
    .client()
    .get<Array<{ body: string }>>(`/dev/outbox?email=${encodeURIComponent(to)}`);
  return res.body.data.map((m) => m.body);
}

/**
 * The code of the SMS to `to` that follows the `before` ones it had (sign-in codes are sent in the
 * background: polled).
 */
async function smsCode(to: string, before: number): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const all = await outbox(to);
    const code = all.length > before ? all[0].match(/\b(\d{4})\b/)?.[1] : undefined;
    if (code) return code;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no SMS to ${to}`);
}
const smsCount = async (to: string) => (await outbox(to)).length;

/** An account with a verified phone number (region 86). */
async function withPhone(): Promise<TestAccount & { phone: string }> {
  const acc = await createAccount(server);
  const phone = newPhone();
  expect((await acc.client.post('/account/phone/code', { phone })).body.code).toBe(0);
  const code = await smsCode(`+86${phone}`, 0);
  const verified = await acc.client.request('PUT', '/account/phone', { phone, code });
  expect(verified.body.code, JSON.stringify(verified.body)).toBe(0);
  return { ...acc, phone };
}

async function sessionAccount(client: HttpClient): Promise<number | undefined> {
  const res = await client.get<{ account: { id: number } }>('/auth/session');
  return res.body.code === 0 ? res.body.data.account.id : undefined;
}

describe('signing in with a verified phone number', () => {
  it('takes the password (region code 86 by default); wrong ones count towards the lockout (80)', async () => {
    const acc = await withPhone();
    const browser = server.client();
    const ok = await browser.post('/auth/phone/login', { phone: acc.phone, password: acc.password });
    expect(ok.body.code, JSON.stringify(ok.body)).toBe(0);
    expect(await sessionAccount(browser)).toBe(acc.id);
    expect(
      (
        await server
          .client()
          .post('/auth/phone/login', { regionCode: '86', phone: acc.phone, password: acc.password })
      ).body.code,
    ).toBe(0);
    // Another region's number, an unknown number: the same answer as a wrong password.
    expectCode(
      await server
        .client()
        .post('/auth/phone/login', { regionCode: '44', phone: acc.phone, password: acc.password }),
      Codes.BAD_CREDENTIALS,
    );
    expectCode(
      await server.client().post('/auth/phone/login', { phone: newPhone(), password: acc.password }),
      Codes.BAD_CREDENTIALS,
    );
    // Exactly one of password and code; the code is 4 digits.
    expectCode(await browser.post('/auth/phone/login', { phone: acc.phone }), Codes.FORM_DATA);
    expectCode(
      await browser.post('/auth/phone/login', { phone: acc.phone, password: 'x', code: '1234' }),
      Codes.FORM_DATA,
    );
    expectCode(
      await browser.post('/auth/phone/login', { phone: acc.phone, code: '12345' }),
      Codes.VERIFICATION,
    );
    expectCode(await browser.post('/auth/phone/login', { phone: '12', password: 'x' }), Codes.FORM_DATA);

    for (let i = 0; i < 4; i++) {
      expectCode(
        await browser.post('/auth/phone/login', { phone: acc.phone, password: 'wrong-pass' }),
        Codes.BAD_CREDENTIALS,
      );
    }
    expectCode(
      await browser.post('/auth/phone/login', { phone: acc.phone, password: 'wrong-pass' }),
      Codes.PASSWORD_INPUT_LIMIT,
    );
    // The account is locked, by phone and by email alike.
    expectCode(
      await browser.post('/auth/phone/login', { phone: acc.phone, password: acc.password }),
      Codes.PASSWORD_INPUT_LIMIT,
    );
    expectCode(
      await browser.post('/auth/login', { account: acc.email, password: acc.password }),
      Codes.PASSWORD_INPUT_LIMIT,
    );
    server.clock.advance(30 * 60_000 + 1000);
    expect(
      (await browser.post('/auth/phone/login', { phone: acc.phone, password: acc.password })).body.code,
    ).toBe(0);
  });

  it('takes a 4-digit SMS code once; wrong codes lock the number (75); the SMS limits apply', async () => {
    const acc = await withPhone();
    const to = `+86${acc.phone}`;
    const browser = server.client();
    const before = await smsCount(to);
    expect((await browser.post('/auth/phone/code', { phone: acc.phone })).body.code).toBe(0);
    const code = await smsCode(to, before);
    expect((await outbox(to)).length).toBe(before + 1);
    expectCode(await browser.post('/auth/phone/code', { phone: acc.phone }), Codes.SEND_PER_MINUTE);
    expectCode(
      await browser.post('/auth/phone/login', { phone: acc.phone, code: code === '0000' ? '0001' : '0000' }),
      Codes.VERIFICATION_CODE,
    );
    expect((await browser.post('/auth/phone/login', { phone: acc.phone, code })).body.code).toBe(0);
    expect(await sessionAccount(browser)).toBe(acc.id);
    // Used once.
    expectCode(
      await server.client().post('/auth/phone/login', { phone: acc.phone, code }),
      Codes.VERIFICATION_CODE,
    );

    // Five wrong codes within five minutes lock the number, even for the right code.
    server.clock.advance(61_000);
    const sent = await smsCount(to);
    expect((await browser.post('/auth/phone/code', { phone: acc.phone })).body.code).toBe(0);
    const fresh = await smsCode(to, sent);
    const wrong = fresh === '9999' ? '9998' : '9999';
    for (let i = 0; i < 3; i++) {
      expectCode(
        await browser.post('/auth/phone/login', { phone: acc.phone, code: wrong }),
        Codes.VERIFICATION_CODE,
      );
    }
    expectCode(
      await browser.post('/auth/phone/login', { phone: acc.phone, code: wrong }),
      Codes.VERIFY_LIMIT,
    );
    expectCode(
      await browser.post('/auth/phone/login', { phone: acc.phone, code: fresh }),
      Codes.VERIFY_LIMIT,
    );
  });

  it('answers an unknown number as a known one, without sending anything', async () => {
    const phone = newPhone();
    const browser = server.client();
    expect((await browser.post('/auth/phone/code', { phone })).body.code).toBe(0);
    expectCode(await browser.post('/auth/phone/code', { phone }), Codes.SEND_PER_MINUTE);
    await new Promise((r) => setTimeout(r, 300));
    expect(await outbox(`+86${phone}`)).toEqual([]);
    expectCode(await browser.post('/auth/phone/login', { phone, code: '1234' }), Codes.VERIFICATION_CODE);
  });

  it('asks for the second factor when it is on', async () => {
    const acc = await withPhone();
    const secret = (await acc.client.post<{ secret: string }>('/account/two-factor/setup')).body.data.secret;
    const totp = (at: Date) =>
      new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
        timestamp: at.getTime(),
      });
    expect(
      (await acc.client.post('/account/two-factor/enable', { code: totp(server.clock.now()) })).body.code,
    ).toBe(0);
    server.clock.advance(30_000);
    const browser = server.client();
    const step = await browser.post('/auth/phone/login', { phone: acc.phone, password: acc.password });
    expect(step.body).toMatchObject({ code: 0, data: { secondFactor: true } });
    expectCode(await browser.get('/auth/session'), Codes.TOKEN_MISSING);
    expect((await browser.post('/auth/second-factor', { code: totp(server.clock.now()) })).body.code).toBe(0);
    expect(await sessionAccount(browser)).toBe(acc.id);
  });

  it('keeps a number to one account (5434)', async () => {
    const acc = await withPhone();
    const other = await createAccount(server);
    server.clock.advance(61_000);
    const sent = await smsCount(`+86${acc.phone}`);
    expect((await other.client.post('/account/phone/code', { phone: acc.phone })).body.code).toBe(0);
    const code = await smsCode(`+86${acc.phone}`, sent);
    expectCode(
      await other.client.request('PUT', '/account/phone', { phone: acc.phone, code }),
      Codes.PHONE_TAKEN,
    );
    // Once the first account lets it go, the other may verify it.
    expect((await acc.client.delete('/account/phone')).body.code).toBe(0);
    expect((await other.client.request('PUT', '/account/phone', { phone: acc.phone, code })).body.code).toBe(
      0,
    );
    // The number now signs in to the other account.
    const browser = server.client();
    const res = await browser.post('/auth/phone/login', { phone: acc.phone, password: other.password });
    expect(res.body.code).toBe(0);
    expect(await sessionAccount(browser)).toBe(other.id);
  });
});

describe('code 69: the account is online in another app (single-session mode)', () => {
  const APP = { 'x-beacon-client': 'app' };
  const login = (client: HttpClient, acc: TestAccount, extra: Record<string, unknown> = {}, headers = {}) =>
    client.request('POST', '/auth/login', { account: acc.email, password: acc.password, ...extra }, headers);

  it('refuses a web sign-in while the app is online, unless confirmed; the app then hears 5003', async () => {
    const acc = await createAccount(server);
    expect((await acc.client.request('PUT', '/account/single-session', { enabled: true })).body.code).toBe(0);
    const app = server.client();
    // The app signs in: the console session (the same account's web) is online, so 69 …
    expectCode(await login(app, acc, {}, APP), Codes.OTHER_APP_ONLINE);
    expect((await acc.client.get('/auth/session')).body.code).toBe(0);
    // … until the user confirms: then the console session ends (5003).
    expect((await login(app, acc, { force: true }, APP)).body.code).toBe(0);
    expectCode(await acc.client.get('/auth/session'), Codes.LOGIN_ELSEWHERE);

    // Now a web sign-in meets the app online.
    const web = server.client();
    expectCode(await login(web, acc), Codes.OTHER_APP_ONLINE);
    expect((await app.get('/auth/session')).body.code).toBe(0);
    // The phone sign-in and the second sign-in of the same kind follow the same rule.
    const web2 = server.client();
    expect((await login(web2, acc, { force: true })).body.code).toBe(0);
    expectCode(await app.get('/auth/session'), Codes.LOGIN_ELSEWHERE);
    // Another web sign-in simply replaces the web session (no 69 between two consoles).
    const web3 = server.client();
    expect((await login(web3, acc)).body.code).toBe(0);
    expectCode(await web2.get('/auth/session'), Codes.LOGIN_ELSEWHERE);
  });

  it('says nothing before the password is right, nor for an app not seen for 15 minutes, nor outside single-session mode', async () => {
    const acc = await createAccount(server);
    await acc.client.request('PUT', '/account/single-session', { enabled: true });
    const app = server.client();
    expect((await login(app, acc, { force: true }, APP)).body.code).toBe(0);
    expectCode(await login(server.client(), { ...acc, password: 'wrong-pass' }), Codes.BAD_CREDENTIALS);
    server.clock.advance(16 * 60_000);
    const web = server.client();
    expect((await login(web, acc)).body.code).toBe(0);
    expectCode(await app.get('/auth/session'), Codes.LOGIN_ELSEWHERE);

    const free = await createAccount(server);
    const freeApp = server.client();
    expect((await login(freeApp, free, {}, APP)).body.code).toBe(0);
    expect((await free.client.get('/auth/session')).body.code).toBe(0);
    expect((await freeApp.get('/auth/session')).body.code).toBe(0);
  });

  it('applies to the phone sign-in too, and a refused sign-in keeps its SMS code', async () => {
    const acc = await withPhone();
    await acc.client.request('PUT', '/account/single-session', { enabled: true });
    const app = server.client();
    server.clock.advance(61_000);
    const sent = await smsCount(`+86${acc.phone}`);
    expect((await app.post('/auth/phone/code', { phone: acc.phone })).body.code).toBe(0);
    const code = await smsCode(`+86${acc.phone}`, sent);
    const body = { phone: acc.phone, code };
    expectCode(await app.request('POST', '/auth/phone/login', body, APP), Codes.OTHER_APP_ONLINE);
    expect((await app.request('POST', '/auth/phone/login', { ...body, force: true }, APP)).body.code).toBe(0);
    expectCode(await acc.client.get('/auth/session'), Codes.LOGIN_ELSEWHERE);
  });
});
