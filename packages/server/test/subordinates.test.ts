import type { ProjectView, SubordinateView } from '@beacon/protocol';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, devices } from '../src/db/schema.ts';
import { insertDevice } from './devices.helpers.ts';
import { createAccount, newEmail, signInAgain, type TestAccount } from './helpers/accounts.ts';
import { type HttpClient, startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Issue 15: account management (docs/decisions/0059, docs/roles.md). A main account creates
 * subordinate accounts and gives them its own projects read-only or read-write; role codes and
 * display roles are stored and shown; a visitor changes nothing (5443); the operations the
 * administrator role blocks answer 5444; the device-joining alert is shown once.
 */

let server: TestServer;
let main: TestAccount;
let projectId: number;

beforeAll(async () => {
  server = await startTestServer();
  main = await createAccount(server);
  projectId = await newProject(main, 'main-project');
});
afterAll(() => server?.close());

async function newProject(account: TestAccount, name: string): Promise<number> {
  const res = await account.client.post<ProjectView>('/projects', { name, scenario: 'hotel' });
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data.id;
}

async function subordinate(
  level: 0 | 1,
  role: 0 | 1 | 2 | 3 = 0,
): Promise<{ view: SubordinateView; client: HttpClient; password: string }> {
  const password = 'sub-pass-1';
  const email = newEmail('sub');
  const res = await main.client.post<SubordinateView>('/account/subordinates', {
    email,
    nick: `sub${level}`,
    role,
    level,
  });
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  // Its password is set through the invitation mail's link (decision 0068).
  const { token } = await invitationOf(email);
  const accepted = await server
    .client()
    .post('/auth/invitation', { email, token, password, confirmPassword: password });
  expect(accepted.body.code, JSON.stringify(accepted.body)).toBe(0);
  const client = server.client();
  const login = await client.post('/auth/login', { account: email, password });
  expect(login.body.code, JSON.stringify(login.body)).toBe(0);
  return { view: res.body.data, client, password };
}

/** The newest invitation mail to `email` and its link's token (the mail is sent in the background). */
async function invitationOf(email: string): Promise<{ body: string; link: URL; token: string }> {
  for (let i = 0; i < 100; i++) {
    const res = await server
      .client()
      .get<Array<{ subject: string; body: string }>>(`/dev/outbox?email=${encodeURIComponent(email)}`);
    const mail = res.body.data.find((m) => m.subject.includes('set your password'));
    const href = mail?.body.match(/https?:\/\/\S+/)?.[0];
    if (mail && href) {
      const link = new URL(href);
      return { body: mail.body, link, token: link.searchParams.get('token') ?? '' };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no invitation mail to ${email}`);
}

async function grant(id: number, project: number, permission: 'r' | 'rw') {
  return main.client.post<SubordinateView>(`/account/subordinates/${id}/projects`, {
    projectId: project,
    permission,
  });
}

async function auditRows(): Promise<number> {
  const [row] = await server.database.db.select({ n: count() }).from(auditLog);
  return row.n;
}

describe('subordinate accounts', () => {
  it('creates one that signs in, shows its role code and display role, and lists it with its projects', async () => {
    const { view, client } = await subordinate(1, 2);
    expect(view).toMatchObject({ role: 2, level: 1, displayRole: 'manufacturer', projects: [] });
    const me = await client.get<{ parentId: number; level: number; displayRole: string; role: number }>(
      '/account',
    );
    expect(me.body.data).toMatchObject({ parentId: main.id, level: 1, displayRole: 'manufacturer', role: 2 });
    expect(
      (await main.client.get<{ displayRole: string; parentId: null }>('/account')).body.data,
    ).toMatchObject({ displayRole: 'common', parentId: null });
    const granted = await grant(view.id, projectId, 'rw');
    expect(granted.body.data.projects).toEqual([{ projectId, name: 'main-project', permission: 'rw' }]);
    const list = await main.client.get<SubordinateView[]>('/account/subordinates');
    expect(list.body.data.find((s) => s.id === view.id)?.projects).toHaveLength(1);
    // The subordinate sees the project it was given, read-write.
    const seen = await client.get<ProjectView>(`/projects/${projectId}`);
    expect(seen.body.data).toMatchObject({ right: 'rw', isShare: true });
  });

  it('refuses a taken email (13), a project the caller does not own (5446), and an unknown subordinate (404)', async () => {
    const taken = await main.client.post('/account/subordinates', {
      email: main.email,
      nick: 'dup',
    });
    expect(taken.body.code).toBe(13);
    const { view } = await subordinate(1);
    const stranger = await createAccount(server);
    const theirs = await newProject(stranger, 'theirs');
    expect((await grant(view.id, theirs, 'r')).body.code).toBe(30);
    // A project shared with the main account is not its own to give.
    const share = await stranger.client.post(`/projects/${theirs}/shares`, {
      account: main.email,
      permission: 'rw',
    });
    expect(share.body.code, JSON.stringify(share.body)).toBe(0);
    expect((await main.client.post(`/offers/share/${theirs}/accept`)).body.code).toBe(0);
    const notOwner = await grant(view.id, theirs, 'r');
    expect({ status: notOwner.status, code: notOwner.body.code }).toEqual({ status: 403, code: 5446 });
    expect((await grant(view.id, 500000, 'r')).body.code).toBe(5446);
    const other = await createAccount(server);
    const foreign = await other.client.post<SubordinateView>('/account/subordinates', {
      email: newEmail('sub'),
      nick: 'theirs',
    });
    expect((await main.client.delete(`/account/subordinates/${foreign.body.data.id}`)).status).toBe(404);
  });

  it('a read-only grant is read-only (5032); taking the project back answers 73', async () => {
    const { view, client } = await subordinate(1);
    await grant(view.id, projectId, 'r');
    expect((await client.get(`/projects/${projectId}/alarms`)).body.code).toBe(0);
    expect((await client.post(`/projects/${projectId}/alarms/read-all`)).body.code).toBe(5032);
    const revoked = await main.client.delete<SubordinateView>(
      `/account/subordinates/${view.id}/projects/${projectId}`,
    );
    expect(revoked.body.data.projects).toEqual([]);
    expect((await client.get(`/projects/${projectId}`)).body.code).toBe(73);
  });

  it('blocks the administrator-blocked operations (5444) even with read-write rights', async () => {
    const { view, client } = await subordinate(1);
    await grant(view.id, projectId, 'rw');
    const before = await auditRows();
    const blocked = [
      await client.post('/projects', { name: 'own', scenario: 'hotel' }),
      await client.delete(`/projects/${projectId}`),
      await client.patch(`/projects/${projectId}`, { location: 'x' }),
      await client.post(`/projects/${projectId}/shares`, { account: main.email, permission: 'r' }),
      await client.post(`/projects/${projectId}/transfer`, { account: main.email }),
      await client.post(`/projects/${projectId}/devices`, { sn: 'SUBBLOCK0001' }),
      await client.delete(`/projects/${projectId}/devices/SUBBLOCK0001`),
      await client.post(`/projects/${projectId}/devices/SUBBLOCK0001/actions/reset`, {}),
      await client.post('/account/api-keys', { name: 'mine' }),
      await client.post('/account/subordinates', { email: newEmail(), nick: 'n' }),
      await client.post(`/account/subordinates/${view.id}/invitation`),
    ];
    for (const res of blocked) {
      expect({ status: res.status, code: res.body.code }, JSON.stringify(res.body)).toEqual({
        status: 403,
        code: 5444,
      });
    }
    expect(await auditRows()).toBe(before);
    // What is not blocked works: a configuration write of the project it was given.
    expect((await client.post(`/projects/${projectId}/alarms/read-all`)).body.code).toBe(0);
    expect((await client.patch('/account', { nick: 'renamed' })).body.code).toBe(0);
  });

  it('a visitor cannot change anything (5443), only its own profile; it gets read-only rights only (5447)', async () => {
    const { view, client } = await subordinate(0);
    expect(view.displayRole).toBe('visitor');
    expect((await grant(view.id, projectId, 'rw')).body.code).toBe(5447);
    expect((await grant(view.id, projectId, 'r')).body.code).toBe(0);
    const before = await auditRows();
    for (const res of [
      await client.post(`/projects/${projectId}/alarms/read-all`),
      await client.post('/projects', { name: 'v', scenario: 'hotel' }),
      await client.post('/account/scenarios', { name: 'Mine' }),
      await client.post('/account/api-keys', { name: 'v' }),
    ]) {
      expect({ status: res.status, code: res.body.code }, JSON.stringify(res.body)).toEqual({
        status: 403,
        code: 5443,
      });
    }
    expect(await auditRows()).toBe(before);
    expect((await client.get(`/projects/${projectId}/alarms`)).body.code).toBe(0);
    expect((await client.patch('/account', { nick: 'visitornick' })).body.code).toBe(0);
  });

  it('making an administrator a visitor turns its read-write projects read-only; deleting it signs it out', async () => {
    const { view, client } = await subordinate(1);
    await grant(view.id, projectId, 'rw');
    const changed = await main.client.patch<SubordinateView>(`/account/subordinates/${view.id}`, {
      level: 0,
    });
    expect(changed.body.data).toMatchObject({ level: 0, displayRole: 'visitor' });
    expect(changed.body.data.projects[0].permission).toBe('r');
    expect((await main.client.delete(`/account/subordinates/${view.id}`)).body.code).toBe(0);
    expect((await client.get('/account')).status).toBe(401);
  });
});

describe('the set-your-password invitation of a subordinate account', () => {
  it('mails a one-time link (7 days) instead of a password; the link sets the password once', async () => {
    const email = newEmail('invite');
    const created = await main.client.post<SubordinateView>('/account/subordinates', {
      email,
      nick: 'invitee',
    });
    expect(created.body.code, JSON.stringify(created.body)).toBe(0);
    expect(created.body.data.passwordSet).toBe(false);
    const expires = new Date(created.body.data.invitationExpiresAt ?? 0).getTime();
    const left = expires - server.clock.now().getTime();
    expect(left).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(left).toBeLessThanOrEqual(7 * 86_400_000);
    // A first password in the body is refused: the main account never chooses one.
    const withPassword = await main.client.post('/account/subordinates', {
      email: newEmail('invite'),
      nick: 'x',
      password: 'sub-pass-1',
    });
    expect(withPassword.body.code).toBe(16);

    const mail = await invitationOf(email);
    expect(mail.link.pathname).toBe('/set-password');
    expect(mail.link.searchParams.get('email')).toBe(email);
    expect(mail.body).not.toMatch(/sub-pass/);
    // No sign-in before the password is set.
    expect((await server.client().post('/auth/login', { account: email, password: 'x' })).body.code).toBe(
      5001,
    );
    const body = { email, token: mail.token, password: 'chosen-pass-1', confirmPassword: 'chosen-pass-1' };
    const browser = server.client();
    expect((await browser.post('/auth/invitation', { ...body, confirmPassword: 'other' })).body.code).toBe(
      5039,
    );
    expect((await browser.post('/auth/invitation', { ...body, token: 'not-the-token' })).body.code).toBe(12);
    expect((await browser.post('/auth/invitation', body)).body.code).toBe(0);
    const used = await browser.post('/auth/invitation', {
      ...body,
      password: 'again-pass-2',
      confirmPassword: 'again-pass-2',
    });
    expect({ status: used.status, code: used.body.code }).toEqual({ status: 409, code: 5435 });
    expect((await browser.post('/auth/login', { account: email, password: 'chosen-pass-1' })).body.code).toBe(
      0,
    );
    const listed = (await main.client.get<SubordinateView[]>('/account/subordinates')).body.data;
    expect(listed.find((s) => s.email === email)).toMatchObject({
      passwordSet: true,
      invitationExpiresAt: null,
    });
    // Once the password is set, there is nothing to resend.
    const again = await main.client.post(`/account/subordinates/${created.body.data.id}/invitation`);
    expect(again.body.code).toBe(5449);
  });

  it('refuses an expired link (64); a resent invitation ends the older link', async () => {
    const email = newEmail('invite');
    const created = await main.client.post<SubordinateView>('/account/subordinates', { email, nick: 'late' });
    const first = await invitationOf(email);
    const set = (token: string) =>
      server
        .client()
        .post('/auth/invitation', { email, token, password: 'late-pass-1', confirmPassword: 'late-pass-1' });
    server.clock.advance(7 * 86_400_000 + 1000);
    await signInAgain(server, main);
    const expired = await set(first.token);
    expect({ status: expired.status, code: expired.body.code }).toEqual({ status: 410, code: 64 });
    expect(
      (await main.client.get<SubordinateView[]>('/account/subordinates')).body.data.find(
        (s) => s.email === email,
      ),
    ).toMatchObject({ passwordSet: false, invitationExpiresAt: null });

    const resent = await main.client.post<SubordinateView>(
      `/account/subordinates/${created.body.data.id}/invitation`,
    );
    expect(resent.body.code, JSON.stringify(resent.body)).toBe(0);
    expect(resent.body.data.invitationExpiresAt).not.toBeNull();
    let second = await invitationOf(email);
    for (let i = 0; second.token === first.token && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      second = await invitationOf(email);
    }
    expect(second.token).not.toBe(first.token);
    // A third invitation ends the second one at once.
    server.clock.advance(1000);
    await main.client.post(`/account/subordinates/${created.body.data.id}/invitation`);
    let third = await invitationOf(email);
    for (let i = 0; third.token === second.token && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      third = await invitationOf(email);
    }
    expect((await set(second.token)).body.code).toBe(64);
    expect((await set(third.token)).body.code).toBe(0);
    // Another account cannot resend it.
    const stranger = await createAccount(server);
    expect(
      (await stranger.client.post(`/account/subordinates/${created.body.data.id}/invitation`)).status,
    ).toBe(404);
  });

  it('locks the email after 5 wrong links within 5 minutes (75)', async () => {
    const email = newEmail('invite');
    await main.client.post('/account/subordinates', { email, nick: 'locked' });
    const { token } = await invitationOf(email);
    const body = (t: string) => ({
      email,
      token: t,
      password: 'lock-pass-1',
      confirmPassword: 'lock-pass-1',
    });
    const browser = server.client();
    for (let i = 0; i < 4; i++)
      expect((await browser.post('/auth/invitation', body(`wrong${i}`))).body.code).toBe(12);
    expect((await browser.post('/auth/invitation', body('wrong4'))).body.code).toBe(75);
    expect((await browser.post('/auth/invitation', body(token))).body.code).toBe(75);
  });
});

describe('the device-joining alert', () => {
  it('lists a device of the account’s projects that came online for the first time, once', async () => {
    const owner = await createAccount(server);
    const project = await newProject(owner, 'joining');
    const sn = `JOIN${Date.now().toString(36).toUpperCase()}`.slice(0, 16);
    await insertDevice(server.database, { sn, projectId: project, model: 'AP-1', type: 'ap', name: 'Lobby' });
    expect((await owner.client.get<{ items: unknown[] }>('/account/joined-devices')).body.data.items).toEqual(
      [],
    );
    const seenAt = new Date(server.clock.now().getTime() + 1000);
    await server.database.db.update(devices).set({ firstSeenAt: seenAt }).where(eq(devices.sn, sn));
    const alert = await owner.client.get<{
      items: { sn: string; projectName: string; firstSeenAt: string }[];
    }>('/account/joined-devices');
    expect(alert.body.data.items).toEqual([
      expect.objectContaining({ sn, projectId: project, projectName: 'joining', name: 'Lobby' }),
    ]);
    // A stranger is not told.
    const stranger = await createAccount(server);
    expect(
      (await stranger.client.get<{ items: unknown[] }>('/account/joined-devices')).body.data.items,
    ).toEqual([]);
    server.clock.advance(2000);
    const seen = await owner.client.post('/account/joined-devices/seen', {
      through: alert.body.data.items[0].firstSeenAt,
    });
    expect(seen.body.code).toBe(0);
    expect((await owner.client.get<{ items: unknown[] }>('/account/joined-devices')).body.data.items).toEqual(
      [],
    );
  });
});
