import type { ProjectView } from '@beacon/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { type HttpClient, startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Issue 7: API keys end with a password change unless the user keeps them, and a key cannot
 * manage keys, the password or shares (web-only, SPEC.md §2; docs/decisions/0023).
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

async function newKey(account: TestAccount, name = 'ci'): Promise<HttpClient> {
  const res = await account.client.post<{ key: string }>('/account/api-keys', { name });
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  const bearer = server.client();
  bearer.bearer = res.body.data.key;
  return bearer;
}

async function changePassword(account: TestAccount, to: string, extra: Record<string, unknown> = {}) {
  const res = await account.client.post('/account/password', {
    oldPassword: account.password,
    password: to,
    confirmPassword: to,
    ...extra,
  });
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  account.password = to;
}

describe('a password change ends the API keys', () => {
  it('ends every key by default: a Bearer call answers 10 afterwards', async () => {
    const account = await createAccount(server);
    const [a, b] = [await newKey(account, 'one'), await newKey(account, 'two')];
    expect((await a.get('/account')).body.code).toBe(0);
    await changePassword(account, 'changed-pass-1');
    for (const key of [a, b]) {
      const res = await key.get('/account');
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 401, code: 10 });
    }
    expect((await account.client.get<unknown[]>('/account/api-keys')).body.data).toEqual([]);
  });

  it('keeps them when the user asks to (keepApiKeys)', async () => {
    const account = await createAccount(server);
    const key = await newKey(account);
    await changePassword(account, 'changed-pass-2', { keepApiKeys: true });
    expect((await key.get('/account')).body.code).toBe(0);
    expect((await account.client.get<unknown[]>('/account/api-keys')).body.data).toHaveLength(1);
  });

  it('a password reset ends them too', async () => {
    const account = await createAccount(server);
    const key = await newKey(account);
    expect(
      (await server.client().post('/auth/codes', { email: account.email, purpose: 'reset' })).body.code,
    ).toBe(0);
    await server.mailer.drain();
    const mail = await server
      .client()
      .get<{ body: string }[]>(`/dev/outbox?email=${encodeURIComponent(account.email)}`);
    const code = mail.body.data[0].body.match(/\b(\d{6})\b/)?.[1];
    const reset = await server.client().post('/auth/reset', {
      email: account.email,
      code,
      password: 'reset-pass-1',
      confirmPassword: 'reset-pass-1',
    });
    expect(reset.body.code, JSON.stringify(reset.body)).toBe(0);
    expect((await key.get('/account')).body.code).toBe(10);
  });
});

describe('an API key cannot manage keys, the password or shares (5090)', () => {
  it('refuses the key, password and sharing routes to a Bearer key, and still serves the rest', async () => {
    const owner = await createAccount(server);
    const other = await createAccount(server);
    const key = await newKey(owner);
    const project = await owner.client.post<ProjectView>('/projects', { name: 'keyed', scenario: 'hotel' });
    const id = project.body.data.id;

    const refused = [
      await key.get('/account/api-keys'),
      await key.post('/account/api-keys', { name: 'more' }),
      await key.delete('/account/api-keys/1'),
      await key.post('/account/password', {
        oldPassword: owner.password,
        password: 'by-key-pass-1',
        confirmPassword: 'by-key-pass-1',
      }),
      await key.get(`/projects/${id}/shares`),
      await key.post(`/projects/${id}/shares`, { account: other.email, permission: 'rw' }),
      await key.post(`/projects/${id}/invites`, {}),
      await key.post(`/projects/${id}/transfer`, { account: other.email }),
      await key.get('/offers'),
      await key.post(`/offers/share/${id}/accept`),
    ];
    for (const res of refused) {
      expect({ status: res.status, code: res.body.code }, JSON.stringify(res.body)).toEqual({
        status: 403,
        code: 5090,
      });
    }
    // Nothing was done: one key, no share or transfer offered, the password unchanged.
    expect((await owner.client.get<unknown[]>('/account/api-keys')).body.data).toHaveLength(1);
    expect((await other.client.get<{ items: unknown[] }>('/offers')).body.data.items).toEqual([]);
    const login = await server
      .client()
      .post('/auth/login', { account: owner.email, password: owner.password });
    expect(login.body.code).toBe(0);
    // The OpenAPI surface itself still works with the key; changing the project is the overview
    // screens' (web only, decision 0058).
    expect((await key.get(`/projects/${id}`)).body.code).toBe(0);
    expect((await key.patch(`/projects/${id}`, { location: 'By key' })).body.code).toBe(5090);
  });
});
