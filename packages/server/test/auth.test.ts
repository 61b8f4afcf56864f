import { ALL_MENU_FLAGS } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationCodes } from '../src/db/schema.ts';
import { createAccount, newEmail } from './helpers/accounts.ts';
import type { HttpClient, HttpResult, TestServer } from './helpers/harness.ts';
import { startTestServer } from './helpers/harness.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

interface OutboxMail {
  to: string;
  subject: string;
  body: string;
}

/** The mail sent to `email`, newest first, once every mail sent in the background is kept. */
async function outbox(email: string): Promise<OutboxMail[]> {
  await server.mailer.drain();
  const res = await server.client().get<OutboxMail[]>(`/dev/outbox?email=${encodeURIComponent(email)}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The code of the newest mail sent to `email`. */
async function latestCode(email: string): Promise<string> {
  const [mail] = await outbox(email);
  expect(mail, `a mail to ${email}`).toBeDefined();
  const match = mail.body.match(/\b(\d{6})\b/);
  expect(match).not.toBeNull();
  return match![1];
}

async function sendCode(email: string, purpose: 'signup' | 'reset' = 'signup'): Promise<HttpResult> {
  return server.client().post('/auth/codes', { email, purpose });
}

async function requestCode(email: string, purpose: 'signup' | 'reset' = 'signup'): Promise<string> {
  const res = await sendCode(email, purpose);
  expect(res.body.code).toBe(0);
  return latestCode(email);
}

function signUp(client: HttpClient, email: string, code: string, password = 'secret-1', confirm = password) {
  return client.post<{ account: { email: string } }>('/auth/signup', {
    email,
    password,
    confirmPassword: confirm,
    code,
  });
}

function wrongCodeFor(code: string): string {
  return code === '000000' ? '111111' : '000000';
}

function cookieLine(res: HttpResult): string {
  const line = res.headers.getSetCookie().find((l) => l.startsWith('token='));
  expect(line, 'a token cookie').toBeDefined();
  return line!;
}

describe('sign-up', () => {
  it('sends a code by mail, creates the account and signs it in', async () => {
    const email = newEmail('signup');
    const send = await sendCode(email);
    expect(send.status).toBe(200);
    expect(send.body).toEqual({ code: 0, data: null });
    const [mail] = await outbox(email);
    expect(mail.subject).toMatch(/verification code/i);
    expect(mail.body).toMatch(/valid for 10 minutes/);
    const code = await latestCode(email);

    // Only a hash of the code is stored.
    const rows = await server.database.db
      .select()
      .from(verificationCodes)
      .where(eq(verificationCodes.email, email));
    expect(rows).toHaveLength(1);
    expect(rows[0].codeHash).not.toContain(code);
    expect(rows[0].codeHash).toMatch(/^[0-9a-f]{64}$/);

    const client = server.client();
    const res = await client.post<{
      account: { email: string; account: string; role: number; cloudId: string; nick: string };
      accessType: string;
      flags: Record<string, boolean>;
      idleTimeoutSeconds: number;
    }>('/auth/signup', {
      email: email.toUpperCase(),
      password: 'secret-1',
      confirmPassword: 'secret-1',
      code,
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const view = res.body.data;
    expect(view.account.email).toBe(email);
    expect(view.account.account).toBe(email);
    expect(view.account.role).toBe(0);
    expect(view.account.cloudId).toMatch(/^[A-Z0-9]{10}$/);
    expect(view.accessType).toBe('web');
    expect(view.flags).toEqual(ALL_MENU_FLAGS);
    expect(view.idleTimeoutSeconds).toBe(server.config.idleTimeoutSeconds);
    expect(client.cookieToken).toBeTruthy();

    const session = await client.get<{ account: { email: string } }>('/auth/session');
    expect(session.status).toBe(200);
    expect(session.body.data.account.email).toBe(email);

    // The account can log in with its password, and the code cannot be used twice.
    const login = await server.client().post('/auth/login', { account: email, password: 'secret-1' });
    expect(login.body.code).toBe(0);
    const again = await signUp(server.client(), email, code);
    expect(again.body.code).toBe(13);
  });

  it("holds the nickname to the profile's rule (1 to 32 characters, no spaces or emoticons)", async () => {
    const email = newEmail('nick');
    const code = await requestCode(email);
    const body = (nick: string) => ({ email, password: 'secret-1', confirmPassword: 'secret-1', code, nick });
    for (const nick of ['two words', 'x'.repeat(33), 'party😀', '']) {
      const res = await server.client().post('/auth/signup', body(nick));
      expect({ nick, code: res.body.code }).toEqual({ nick, code: 16 });
    }
    const res = await server.client().post<{ account: { nick: string } }>('/auth/signup', body('Zoë_admin'));
    expect(res.body.data.account.nick).toBe('Zoë_admin');
    // The profile takes the same nicknames and refuses the same.
    const client = server.client();
    await client.post('/auth/login', { account: email, password: 'secret-1' });
    expect((await client.patch('/account', { nick: 'two words' })).body.code).toBe(16);
    expect((await client.patch('/account', { nick: 'x'.repeat(32) })).body.code).toBe(0);
  });

  it('gives every account its own cloud id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const email = newEmail('cloudid');
      const res = await signUp(server.client(), email, await requestCode(email));
      ids.add((res.body.data as unknown as { account: { cloudId: string } }).account.cloudId);
    }
    expect(ids.size).toBe(3);
  });

  it('refuses inconsistent passwords with 5039', async () => {
    const email = newEmail('inconsistent');
    const code = await requestCode(email);
    const res = await signUp(server.client(), email, code, 'secret-1', 'secret-2');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(5039);
    expect(res.body.message).toBe('Inconsistent passwords');
  });

  it.each([
    [5, 6],
    [6, 0],
    [32, 0],
    [33, 6],
  ])('password of %i characters answers %i', async (length, expected) => {
    const email = newEmail(`pw${length}`);
    const code = await requestCode(email);
    const password = 'p'.repeat(length);
    const res = await signUp(server.client(), email, code, password);
    expect(res.body.code).toBe(expected);
    if (expected === 0) {
      const login = await server.client().post('/auth/login', { account: email, password });
      expect(login.body.code).toBe(0);
    }
  });

  it.each(['12345', '1234567', 'abcdef', ''])('refuses the badly formed code "%s" with 11', async (code) => {
    const res = await signUp(server.client(), newEmail('badcode'), code);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(11);
  });

  it('refuses a wrong code with 12 (SPEC.md §8 verification)', async () => {
    const email = newEmail('wrong');
    const code = await requestCode(email);
    const res = await signUp(server.client(), email, wrongCodeFor(code));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(12);
    expect(res.body.message).toBe('Wrong verification code');
  });

  it('refuses a code that was never sent with 12', async () => {
    const res = await signUp(server.client(), newEmail('nocode'), '123456');
    expect(res.body.code).toBe(12);
  });

  it('accepts only the latest code', async () => {
    const email = newEmail('latest');
    const first = await requestCode(email);
    server.clock.advance(MINUTE + 1000);
    const second = await requestCode(email);
    if (first !== second) {
      const res = await signUp(server.client(), email, first);
      expect(res.body.code).toBe(12);
    }
    const res = await signUp(server.client(), email, second);
    expect(res.body.code).toBe(0);
  });

  it('refuses an expired code with 12 (codes live 10 minutes)', async () => {
    const email = newEmail('expired');
    const code = await requestCode(email);
    server.clock.advance(10 * MINUTE + 1000);
    const res = await signUp(server.client(), email, code);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(12);
    expect(res.body.message).toBe('The verification code has expired');
  });

  it('accepts a code just before it expires', async () => {
    const email = newEmail('almost');
    const code = await requestCode(email);
    server.clock.advance(10 * MINUTE - 5000);
    const res = await signUp(server.client(), email, code);
    expect(res.body.code).toBe(0);
  });

  it('answers 13 for an existing account, on sending and on sign-up', async () => {
    const existing = await createAccount(server);
    const send = await sendCode(existing.email);
    expect(send.status).toBe(409);
    expect(send.body.code).toBe(13);
    expect(await outbox(existing.email)).toHaveLength(0);
    const res = await signUp(server.client(), existing.email, '123456');
    expect(res.body.code).toBe(13);
  });

  it('answers 13 when the address is already taken between sending and signing up', async () => {
    const email = newEmail('race');
    const code = await requestCode(email);
    await createAccount(server, { email });
    const res = await signUp(server.client(), email, code);
    expect(res.body.code).toBe(13);
  });
});

describe('code sending limits', () => {
  it('allows one code per minute (53)', async () => {
    const email = newEmail('perminute');
    expect((await sendCode(email)).body.code).toBe(0);
    const second = await sendCode(email);
    expect(second.status).toBe(429);
    expect(second.body.code).toBe(53);
    server.clock.advance(MINUTE + 1000);
    expect((await sendCode(email)).body.code).toBe(0);
  });

  it('holds the per-minute limit under concurrent sends', async () => {
    const email = newEmail('concurrent');
    const results = await Promise.all(Array.from({ length: 4 }, () => sendCode(email)));
    expect(results.map((r) => r.body.code).sort()).toEqual([0, 53, 53, 53]);
    expect(await outbox(email)).toHaveLength(1);
  });

  it('counts per email and purpose', async () => {
    const email = newEmail('purposes');
    expect((await sendCode(email, 'signup')).body.code).toBe(0);
    expect((await sendCode(email, 'reset')).body.code).toBe(0);
    expect((await sendCode(newEmail('other'), 'signup')).body.code).toBe(0);
  });

  it('allows 5 codes per hour (51) and 10 per day (52)', async () => {
    const email = newEmail('perday');
    for (let i = 0; i < 5; i++) {
      expect((await sendCode(email)).body.code, `send ${i + 1}`).toBe(0);
      server.clock.advance(MINUTE + 1000);
    }
    const sixth = await sendCode(email);
    expect(sixth.status).toBe(429);
    expect(sixth.body.code).toBe(51);

    server.clock.advance(HOUR);
    for (let i = 5; i < 10; i++) {
      expect((await sendCode(email)).body.code, `send ${i + 1}`).toBe(0);
      server.clock.advance(MINUTE + 1000);
    }
    server.clock.advance(HOUR);
    const eleventh = await sendCode(email);
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.code).toBe(52);
    expect(await outbox(email)).toHaveLength(10);

    server.clock.advance(24 * HOUR);
    expect((await sendCode(email)).body.code).toBe(0);
  });
});

describe('verification lockout', () => {
  it('locks after 5 wrong codes within 5 minutes (75), even for the right code, for 30 minutes', async () => {
    const email = newEmail('lock');
    const code = await requestCode(email);
    const wrong = wrongCodeFor(code);
    for (let i = 0; i < 4; i++) {
      expect((await signUp(server.client(), email, wrong)).body.code, `attempt ${i + 1}`).toBe(12);
    }
    const fifth = await signUp(server.client(), email, wrong);
    expect(fifth.status).toBe(429);
    expect(fifth.body.code).toBe(75);
    const right = await signUp(server.client(), email, code);
    expect(right.body.code).toBe(75);

    server.clock.advance(29 * MINUTE);
    expect((await signUp(server.client(), email, code)).body.code).toBe(75);

    server.clock.advance(MINUTE + 1000);
    // The first code has expired by now; a fresh one works once the lock has ended.
    const fresh = await requestCode(email);
    const res = await signUp(server.client(), email, fresh);
    expect(res.body.code).toBe(0);
  });

  it('counts only failures within 5 minutes', async () => {
    const email = newEmail('window');
    const code = await requestCode(email);
    const wrong = wrongCodeFor(code);
    for (let i = 0; i < 4; i++) await signUp(server.client(), email, wrong);
    server.clock.advance(5 * MINUTE + 1000);
    expect((await signUp(server.client(), email, wrong)).body.code).toBe(12);
    const fresh = await requestCode(email);
    expect((await signUp(server.client(), email, fresh)).body.code).toBe(0);
  });
});

describe('login', () => {
  it('signs in with a browser-session cookie by default', async () => {
    const { email, password } = await createAccount(server);
    const client = server.client();
    const res = await client.post<{ account: { email: string }; accessType: string }>('/auth/login', {
      account: email,
      password,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.account.email).toBe(email);
    expect(res.body.data.accessType).toBe('web');
    const cookie = cookieLine(res);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).not.toMatch(/Max-Age/i);
    expect(cookie).not.toMatch(/Expires/i);
    expect((await client.get('/auth/session')).status).toBe(200);
  });

  it('gives a persistent cookie with remember: true', async () => {
    const { email, password } = await createAccount(server);
    const res = await server.client().post('/auth/login', { account: email, password, remember: true });
    expect(res.status).toBe(200);
    const cookie = cookieLine(res);
    expect(cookie).toContain(`Max-Age=${server.config.sessionTtlSeconds}`);
    expect(cookie).toMatch(/; HttpOnly/i);
    expect(cookie).toMatch(/; SameSite=Lax/i);
    expect(cookie).toMatch(/; Path=\//);
  });

  it('ignores the case of the account', async () => {
    const { email, password } = await createAccount(server);
    const res = await server.client().post('/auth/login', { account: email.toUpperCase(), password });
    expect(res.body.code).toBe(0);
  });

  it('answers 5001 alike for a wrong password and an unknown account', async () => {
    const { email } = await createAccount(server);
    const wrong = await server.client().post('/auth/login', { account: email, password: 'not-the-one' });
    const unknown = await server
      .client()
      .post('/auth/login', { account: newEmail('nobody'), password: 'not-the-one' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe(5001);
      expect(res.body.message).toBe('Incorrect account or password');
      expect(res.headers.getSetCookie()).toHaveLength(0);
    }
  });

  it('never lets the system demo owner log in', async () => {
    const res = await server.client().post('/auth/login', { account: 'demo@beacon.local', password: '!' });
    expect(res.body.code).toBe(5001);
  });

  it('answers 4 for an empty account (as sign-up does) and 16 for an empty password', async () => {
    for (const account of ['', '   ']) {
      const res = await server.client().post('/auth/login', { account, password: 'x' });
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 4 });
    }
    const res = await server.client().post('/auth/login', { account: 'a@example.com', password: '' });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 16 });
  });

  it('locks after 5 wrong passwords within 5 minutes (80) for 30 minutes', async () => {
    const { email, password } = await createAccount(server);
    for (let i = 0; i < 4; i++) {
      const res = await server.client().post('/auth/login', { account: email, password: 'wrong-pass' });
      expect(res.body.code, `attempt ${i + 1}`).toBe(5001);
    }
    const fifth = await server.client().post('/auth/login', { account: email, password: 'wrong-pass' });
    expect(fifth.status).toBe(429);
    expect(fifth.body.code).toBe(80);
    expect((await server.client().post('/auth/login', { account: email, password })).body.code).toBe(80);
    server.clock.advance(29 * MINUTE);
    expect((await server.client().post('/auth/login', { account: email, password })).body.code).toBe(80);
    server.clock.advance(MINUTE + 1000);
    expect((await server.client().post('/auth/login', { account: email, password })).body.code).toBe(0);
  });

  it('locks unknown accounts the same way', async () => {
    const account = newEmail('ghost');
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      codes.push((await server.client().post('/auth/login', { account, password: 'wrong-pass' })).body.code);
    }
    expect(codes).toEqual([5001, 5001, 5001, 5001, 80, 80]);
  });

  it('clears the failures on a successful login', async () => {
    const { email, password } = await createAccount(server);
    const attempt = (pw: string) => server.client().post('/auth/login', { account: email, password: pw });
    for (let i = 0; i < 4; i++) expect((await attempt('wrong-pass')).body.code).toBe(5001);
    expect((await attempt(password)).body.code).toBe(0);
    for (let i = 0; i < 4; i++) expect((await attempt('wrong-pass')).body.code).toBe(5001);
    expect((await attempt(password)).body.code).toBe(0);
  });
});

describe('session and logout', () => {
  it('answers 9 without a token', async () => {
    const res = await server.client().get('/auth/session');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(9);
  });

  it('answers 10 for an unknown token', async () => {
    const client = server.client();
    client.setCookie('token', 'not-a-real-token');
    const res = await client.get('/auth/session');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(10);
  });

  it('revokes the session on logout: the old token answers 10', async () => {
    const { client } = await createAccount(server);
    const token = client.cookieToken!;
    expect((await client.get('/auth/session')).status).toBe(200);
    const res = await client.post('/auth/logout');
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    const cleared = cookieLine(res);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/i);
    expect(client.cookieToken).toBeUndefined();
    expect((await client.get('/auth/session')).body.code).toBe(9);

    const stale = server.client();
    stale.setCookie('token', token);
    const again = await stale.get('/auth/session');
    expect(again.status).toBe(401);
    expect(again.body.code).toBe(10);
  });

  it('expires a session on the server clock, the clock it was created with (10)', async () => {
    const { client } = await createAccount(server);
    // A browser-session cookie lives 12 hours past its last request (SESSION_IDLE_TTL_SECONDS).
    server.clock.advance(11 * HOUR);
    expect((await client.get('/auth/session')).status).toBe(200);
    server.clock.advance(11 * HOUR);
    expect((await client.get('/auth/session')).status).toBe(200);
    server.clock.advance(12 * HOUR + MINUTE);
    const res = await client.get('/auth/session');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(10);
  });

  it('leaves other sessions of the account signed in', async () => {
    const { email, password, client } = await createAccount(server);
    const other = server.client();
    await other.post('/auth/login', { account: email, password });
    await client.post('/auth/logout');
    expect((await other.get('/auth/session')).status).toBe(200);
  });

  it('reflects switched-off menu flags', async () => {
    const { id, client } = await createAccount(server);
    const { accounts } = await import('../src/db/schema.ts');
    await server.database.db
      .update(accounts)
      .set({ disabledFlags: ['rf', 'backup'] })
      .where(eq(accounts.id, id));
    const res = await client.get<{ flags: Record<string, boolean> }>('/auth/session');
    expect(res.body.data.flags).toEqual({ ...ALL_MENU_FLAGS, rf: false, backup: false });
  });
});

describe('password reset', () => {
  it('sets the new password, signs out every older session (70) and sends a code by mail', async () => {
    const { email, password, client } = await createAccount(server);
    const code = await requestCode(email, 'reset');
    const [mail] = await outbox(email);
    expect(mail.body).toMatch(/reset your Beacon password/);

    const res = await server.client().post('/auth/reset', {
      email,
      code,
      password: 'new-secret-1',
      confirmPassword: 'new-secret-1',
    });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);

    const old = await client.get('/auth/session');
    expect(old.status).toBe(401);
    expect(old.body.code).toBe(70);
    expect((await server.client().post('/auth/login', { account: email, password })).body.code).toBe(5001);
    const login = await server.client().post('/auth/login', { account: email, password: 'new-secret-1' });
    expect(login.body.code).toBe(0);
  });

  it('does not reveal whether an email has an account', async () => {
    const email = newEmail('unknown');
    const res = await sendCode(email, 'reset');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ code: 0, data: null });
    expect(await outbox(email)).toHaveLength(0);
    // Same limits as for a known address.
    expect((await sendCode(email, 'reset')).body.code).toBe(53);
    const reset = await server.client().post('/auth/reset', {
      email,
      code: '123456',
      password: 'new-secret-1',
      confirmPassword: 'new-secret-1',
    });
    expect(reset.body.code).toBe(12);
  });

  it('sends nothing to the system demo owner', async () => {
    const res = await sendCode('demo@beacon.local', 'reset');
    expect(res.body.code).toBe(0);
    expect(await outbox('demo@beacon.local')).toHaveLength(0);
  });

  it('checks the confirmation, the code, its expiry and the lockout', async () => {
    const { email } = await createAccount(server);
    const code = await requestCode(email, 'reset');
    const body = (c: string, pw = 'new-secret-1', confirm = pw) => ({
      email,
      code: c,
      password: pw,
      confirmPassword: confirm,
    });
    expect((await server.client().post('/auth/reset', body(code, 'new-secret-1', 'other'))).body.code).toBe(
      5039,
    );
    expect((await server.client().post('/auth/reset', body(code, '12345'))).body.code).toBe(6);
    expect((await server.client().post('/auth/reset', body('12a456'))).body.code).toBe(11);
    const wrong = wrongCodeFor(code);
    for (let i = 0; i < 4; i++) {
      expect((await server.client().post('/auth/reset', body(wrong))).body.code).toBe(12);
    }
    expect((await server.client().post('/auth/reset', body(wrong))).body.code).toBe(75);
    expect((await server.client().post('/auth/reset', body(code))).body.code).toBe(75);
    server.clock.advance(30 * MINUTE + 1000);
    expect((await server.client().post('/auth/reset', body(code))).body.code).toBe(12);
    const fresh = await requestCode(email, 'reset');
    expect((await server.client().post('/auth/reset', body(fresh))).body.code).toBe(0);
  });

  it('does not accept a sign-up code for a reset', async () => {
    const { email } = await createAccount(server);
    const other = newEmail('cross');
    const signupCode = await requestCode(other, 'signup');
    const res = await server.client().post('/auth/reset', {
      email,
      code: signupCode,
      password: 'new-secret-1',
      confirmPassword: 'new-secret-1',
    });
    expect(res.body.code).toBe(12);
  });

  it('lifts the login lockout', async () => {
    const { email } = await createAccount(server);
    for (let i = 0; i < 5; i++)
      await server.client().post('/auth/login', { account: email, password: 'wrong-pass' });
    expect(
      (await server.client().post('/auth/login', { account: email, password: 'wrong-pass' })).body.code,
    ).toBe(80);
    const code = await requestCode(email, 'reset');
    const reset = await server
      .client()
      .post('/auth/reset', { email, code, password: 'new-secret-1', confirmPassword: 'new-secret-1' });
    expect(reset.body.code).toBe(0);
    const login = await server.client().post('/auth/login', { account: email, password: 'new-secret-1' });
    expect(login.body.code).toBe(0);
  });
});

describe('OpenAPI', () => {
  it('documents the auth routes with their tag', async () => {
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    for (const [path, method] of [
      ['/api/v1/auth/codes', 'post'],
      ['/api/v1/auth/signup', 'post'],
      ['/api/v1/auth/login', 'post'],
      ['/api/v1/auth/logout', 'post'],
      ['/api/v1/auth/session', 'get'],
      ['/api/v1/auth/reset', 'post'],
    ]) {
      expect(doc.paths[path]?.[method]?.tags, `${method} ${path}`).toEqual(['auth']);
    }
  });
});

describe('rate limit per IP', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ AUTH_RATE_LIMIT: '3' });
  });
  afterAll(() => limited?.close());

  it('answers 429 with 5034 past the limit', async () => {
    const client = limited.client();
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await client.post('/auth/login', {
        account: 'someone@example.com',
        password: 'wrong-pass',
      });
      codes.push(res.body.code);
      if (i === 3) {
        expect(res.status).toBe(429);
        expect(res.body.message).toBe('Too many requests, try again later');
      }
    }
    expect(codes).toEqual([5001, 5001, 5001, 5034]);
    // Not-limited routes still answer.
    expect((await client.get('/auth/session')).body.code).toBe(9);
  });
});
