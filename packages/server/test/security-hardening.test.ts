import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AVATAR_MAX_BYTES } from '../src/accounts/service.ts';
import { insertProject } from './devices.helpers.ts';
import { createAccount, newEmail } from './helpers/accounts.ts';
import { type HttpResult, startTestServer, type TestServer } from './helpers/harness.ts';

// A real 1×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('the development outbox answers loopback callers only', () => {
  let proxied: TestServer;
  beforeAll(async () => {
    // Behind a reverse proxy X-Forwarded-For is trusted for request.ip, never for the outbox.
    proxied = await startTestServer({ TRUST_PROXY: '1' });
  });
  afterAll(() => proxied?.close());

  async function mailTo(target: TestServer, email: string): Promise<void> {
    const sent = await target.client().post('/auth/codes', { email, purpose: 'signup' });
    expect(sent.body.code).toBe(0);
    await target.mailer.drain();
  }

  it('answers 404 (5033) to a caller that is not on loopback, and shows nothing', async () => {
    const email = newEmail('outbox-remote');
    await mailTo(server, email);
    const res = await server.app.inject({
      method: 'GET',
      url: `/api/v1/dev/outbox?email=${encodeURIComponent(email)}`,
      remoteAddress: '192.0.2.7',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(5033);
    expect(res.body).not.toContain(email);
    // Without the query too: the refusal comes before validation.
    const bare = await server.app.inject({
      method: 'GET',
      url: '/api/v1/dev/outbox',
      remoteAddress: '192.0.2.7',
    });
    expect(bare.statusCode).toBe(404);
    expect(bare.json().code).toBe(5033);
  });

  it('ignores X-Forwarded-For even with TRUST_PROXY', async () => {
    const email = newEmail('outbox-xff');
    await mailTo(proxied, email);
    const res = await proxied.app.inject({
      method: 'GET',
      url: `/api/v1/dev/outbox?email=${encodeURIComponent(email)}`,
      remoteAddress: '192.0.2.7',
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(5033);
    // A proxy on the same machine connects from loopback for everyone: a forwarded request is refused.
    const viaLocalProxy = await proxied.app.inject({
      method: 'GET',
      url: `/api/v1/dev/outbox?email=${encodeURIComponent(email)}`,
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '192.0.2.7' },
    });
    expect(viaLocalProxy.statusCode).toBe(404);
    expect(viaLocalProxy.json().code).toBe(5033);
  });

  it('serves loopback callers (127.0.0.1, ::1, ::ffff:127.0.0.1) and real loopback connections', async () => {
    const email = newEmail('outbox-local');
    await mailTo(server, email);
    // The harness listens on 127.0.0.1: a real connection over loopback reads the code.
    let mails: { to: string; body: string }[] = [];
    for (let i = 0; i < 100 && mails.length === 0; i++) {
      const res = await server
        .client()
        .get<{ to: string; body: string }[]>(`/dev/outbox?email=${encodeURIComponent(email)}`);
      expect(res.status).toBe(200);
      mails = res.body.data;
      if (mails.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(mails[0].body).toMatch(/\b\d{6}\b/);
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await server.app.inject({
        method: 'GET',
        url: `/api/v1/dev/outbox?email=${encodeURIComponent(email)}`,
        remoteAddress,
      });
      expect(res.statusCode, remoteAddress).toBe(200);
      expect(res.json().data[0].to, remoteAddress).toBe(email);
    }
  });
});

describe('signed-out callers hear 9 before their body is validated', () => {
  // One representative route (with a body or params that would fail validation) per plugin that
  // needs an account: the answer is 401 with code 9, never 400 with 16.
  const cases: [string, string, string, unknown?][] = [
    ['projects', 'POST', '/projects', { name: '' }],
    ['projects', 'PATCH', '/projects/1', { name: '' }],
    ['projects', 'GET', '/projects/not-a-number'],
    ['projects', 'GET', '/projects?pageSize=-1'],
    ['sharing', 'POST', '/projects/1/shares', { account: '', right: 'bad' }],
    ['sharing', 'POST', '/projects/1/invites', { right: 'bad' }],
    ['sharing', 'POST', '/projects/1/transfer', {}],
    ['sharing', 'GET', '/invites/x'],
    ['devices', 'POST', '/projects/1/devices', { sn: '' }],
    ['devices', 'GET', '/projects/1/devices?pageSize=-1'],
    ['devices', 'PATCH', '/projects/1/devices/SN1', { name: '' }],
    ['maintenance', 'POST', '/projects/1/devices/actions/reboot', { sns: 'bad' }],
    ['maintenance', 'POST', '/projects/1/devices/SN1/actions/not-an-action', {}],
    ['maintenance', 'GET', '/projects/0/devices/SN1/maintenance'],
    ['account', 'PATCH', '/account', { nick: '' }],
    ['account', 'POST', '/account/password', { oldPassword: '' }],
  ];

  it.each(cases)('%s: %s %s', async (_plugin, method, path, body) => {
    const res = await server.client().request(method, path, body);
    expect({ status: res.status, code: res.body.code }, JSON.stringify(res.body)).toEqual({
      status: 401,
      code: 9,
    });
  });

  it('still validates the body of a signed-in caller (16)', async () => {
    const { client } = await createAccount(server);
    const res = await client.post('/projects', { name: '' });
    expect(res.status).toBe(400);
    expect(res.body.code).not.toBe(9);
  });

  it('leaves the public routes public', async () => {
    const client = server.client();
    expect((await client.get('/health')).status).toBe(200);
    const login = await client.post('/auth/login', { account: '', password: '' });
    expect(login.status).toBe(400);
    expect((await client.post('/auth/logout')).status).toBe(200);
    // A device's signed firmware download: refused for its signature, not for a missing session.
    const download = await client.get('/firmware/1/download?sn=SN1&exp=1&sig=x');
    expect(download.body.code).toBe(5030);
  });
});

describe('a reset code answers as fast whether the account exists or not', () => {
  // An SMTP server that accepts connections and never greets: waiting for delivery would hang.
  const sockets = new Set<net.Socket>();
  const blackHole = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  let smtp: TestServer;

  beforeAll(async () => {
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const { port } = blackHole.address() as net.AddressInfo;
    // Silent: the deliveries fail (logged as errors) when the black hole closes at the end.
    smtp = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}`, LOG_LEVEL: 'silent' });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await smtp?.close();
    await new Promise((resolve) => blackHole.close(resolve));
  });

  /** The answer's status and code, or 'pending' when it takes longer than `ms`. */
  async function within(ms: number, request: Promise<HttpResult>): Promise<[number, number] | 'pending'> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'pending'>((resolve) => {
      timer = setTimeout(() => resolve('pending'), ms);
    });
    const result = await Promise.race([
      request.then((r) => [r.status, r.body.code] as [number, number]),
      late,
    ]);
    clearTimeout(timer);
    return result;
  }

  it('does not wait for the mail to be delivered', async () => {
    const known = await createAccount(smtp);
    const unknown = newEmail('nobody');
    const send = (email: string) => smtp.client().post('/auth/codes', { email, purpose: 'reset' });
    expect(await within(3000, send(unknown))).toEqual([200, 0]);
    expect(await within(3000, send(known.email))).toEqual([200, 0]);
    // The mail is still kept in the outbox (and being delivered in the background).
    let mails: unknown[] = [];
    for (let i = 0; i < 100 && mails.length === 0; i++) {
      mails = (await smtp.client().get<unknown[]>(`/dev/outbox?email=${encodeURIComponent(known.email)}`))
        .body.data;
      if (mails.length === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(mails).toHaveLength(1);
    expect(
      (await smtp.client().get<unknown[]>(`/dev/outbox?email=${encodeURIComponent(unknown)}`)).body.data,
    ).toHaveLength(0);
  });
});

describe('Origin: null', () => {
  it('refuses a state-changing request that carries the session cookie (5035)', async () => {
    const { client } = await createAccount(server);
    client.origin = 'null';
    const logout = await client.post('/auth/logout');
    expect(logout.status).toBe(403);
    expect(logout.body.code).toBe(5035);
    const create = await client.post('/projects', { name: 'From a sandbox', netMode: 'WLAN' });
    expect(create.body.code).toBe(5035);
    // The session is still there: the refused logout did nothing.
    client.origin = undefined;
    expect((await client.get('/auth/session')).body.code).toBe(0);
  });

  it('lets a request without the cookie through, as before', async () => {
    const client = server.client();
    client.origin = 'null';
    const logout = await client.post('/auth/logout');
    expect(logout.status).toBe(200);
    expect(logout.body.code).toBe(0);
    // Reads are never refused for their Origin.
    const { client: signedIn } = await createAccount(server);
    signedIn.origin = 'null';
    expect((await signedIn.get('/auth/session')).body.code).toBe(0);
  });
});

describe('changing the profile email needs the current password', () => {
  const account = (res: HttpResult) => (res.body.data as { email: string }).email;

  it('refuses an email change without the current password (16) and keeps the email', async () => {
    const a = await createAccount(server);
    const res = await a.client.patch('/account', { email: newEmail('no-password') });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(16);
    expect(res.body.fields).toHaveProperty('currentPassword');
    expect(account(await a.client.get('/account'))).toBe(a.email);
    // Other fields, and the email set to its current value, need no password.
    expect((await a.client.patch('/account', { nick: 'NoPassword', email: a.email })).body.code).toBe(0);
  });

  it('refuses a wrong current password with the code change-password uses (6)', async () => {
    const a = await createAccount(server);
    const res = await a.client.patch('/account', {
      email: newEmail('wrong-password'),
      currentPassword: 'not-the-password',
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(6);
    expect(res.body.fields).toHaveProperty('currentPassword');
    expect(account(await a.client.get('/account'))).toBe(a.email);
  });

  it('counts wrong current passwords towards the login lockout (80)', async () => {
    const a = await createAccount(server);
    const email = newEmail('lockout');
    for (let i = 1; i <= 4; i++) {
      const res = await a.client.patch('/account', { email, currentPassword: `wrong-${i}` });
      expect(res.body.code, `attempt ${i}`).toBe(6);
    }
    expect((await a.client.patch('/account', { email, currentPassword: 'wrong-5' })).body.code).toBe(80);
    // Locked: the right password is refused too, and so is the login.
    expect((await a.client.patch('/account', { email, currentPassword: a.password })).body.code).toBe(80);
    const login = await server.client().post('/auth/login', { account: a.email, password: a.password });
    expect(login.body.code).toBe(80);
  });

  it('changes the email with the right current password', async () => {
    const a = await createAccount(server);
    const email = newEmail('right-password');
    const res = await a.client.patch('/account', { email, currentPassword: a.password });
    expect(res.status).toBe(200);
    expect(res.body.code).toBe(0);
    expect(account(res)).toBe(email);
    expect(account(await a.client.get('/account'))).toBe(email);
  });
});

describe('request size limits', () => {
  it('refuses a 2 MB JSON body with 5040 (413) before it is parsed', async () => {
    const { client } = await createAccount(server);
    const big = { name: 'x'.repeat(2 * 1024 * 1024), netMode: 'WLAN' };
    const res = await client.post('/projects', big);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 413, code: 5040 });
    // Before sign-in too: the login route takes no more than the others.
    const login = await server.client().post('/auth/login', { account: 'a@example.com', password: big.name });
    expect({ status: login.status, code: login.body.code }).toEqual({ status: 413, code: 5040 });
  });

  it('reads a body just under 1 MB (it reaches validation)', async () => {
    const { client } = await createAccount(server);
    const res = await client.post('/projects', { name: 'x'.repeat(1000 * 1024), netMode: 'WLAN' });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 16 });
  });

  it('still takes uploads at their own limits, far above 1 MB', async () => {
    const a = await createAccount(server);
    // An avatar of exactly 10 MB (a real PNG, padded) is kept.
    const avatar = Buffer.alloc(AVATAR_MAX_BYTES);
    PNG.copy(avatar);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(avatar)]), 'me.png');
    const res = await a.client.request('POST', '/account/avatar', form);
    expect(res.body.code).toBe(0);
    // A 2 MB device-import file reaches the spreadsheet reader (5018: not a spreadsheet), not 5040.
    const projectId = await insertProject(server, a.id);
    const sheet = new FormData();
    sheet.append('file', new Blob([new Uint8Array(2 * 1024 * 1024)]), 'devices.xlsx');
    const imported = await a.client.request('POST', `/projects/${projectId}/devices/import`, sheet);
    expect(imported.body.code).toBe(5018);
  });

  it('refuses a login password of 129 characters as a validation error, before any hashing', async () => {
    const a = await createAccount(server);
    const res = await server.client().post('/auth/login', { account: a.email, password: 'p'.repeat(129) });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 16 });
    // 128 characters is still checked against the account (and is wrong here).
    const edge = await server.client().post('/auth/login', { account: a.email, password: 'p'.repeat(128) });
    expect(edge.body.code).toBe(5001);
  });

  it('refuses an old or current password of 129 characters as a validation error', async () => {
    const a = await createAccount(server);
    const change = await a.client.post('/account/password', {
      oldPassword: 'p'.repeat(129),
      password: 'new-secret-1',
      confirmPassword: 'new-secret-1',
    });
    expect({ status: change.status, code: change.body.code }).toEqual({ status: 400, code: 16 });
    const profile = await a.client.patch('/account', {
      email: newEmail('long-password'),
      currentPassword: 'p'.repeat(129),
    });
    expect({ status: profile.status, code: profile.body.code }).toEqual({ status: 400, code: 16 });
  });
});
