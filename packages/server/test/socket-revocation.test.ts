import type { LiveEvent } from '@beacon/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { publishEvent } from '../src/events/bus.ts';
import { type RunningServer, startServer } from '../src/server.ts';
import { insertProject, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { type HttpClient, startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * A session ended on one instance closes its WebSockets on every instance: two servers share one
 * database; the sign-out happens on A, the sockets are open on B.
 */

let a: TestServer;
let b: RunningServer;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  a = await startTestServer();
  b = await startServer({ ...a.config, port: 0 }, { now: a.clock.now });
});
afterAll(async () => {
  for (const s of sockets) s.terminate();
  await b?.close();
  await a?.close();
});

interface Socket {
  events: LiveEvent[];
  /** Resolves with the close code. */
  closed: Promise<number>;
  isOpen(): boolean;
}

/** Opens /api/v1/events on instance B with these headers; resolves after `hello`. */
function listenOnB(headers: Record<string, string>): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${b.url.replace(/^http/, 'ws')}/api/v1/events`, { headers });
    sockets.push(socket);
    const events: LiveEvent[] = [];
    const closed = new Promise<number>((done) => socket.on('close', (code) => done(code)));
    const isOpen = () => socket.readyState === WebSocket.OPEN;
    socket.on('message', (data) => {
      const event = JSON.parse(String(data)) as LiveEvent;
      events.push(event);
      if (event.type === 'hello') resolve({ events, closed, isOpen });
    });
    socket.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.on('error', reject);
  });
}

const cookieOf = (client: HttpClient) => ({ cookie: `token=${client.cookieToken}` });

/** A second browser of the account, signed in over HTTP on instance A. */
async function secondBrowser(account: TestAccount): Promise<HttpClient> {
  const client = a.client();
  const login = await client.post('/auth/login', { account: account.email, password: account.password });
  expect(login.body.code).toBe(0);
  return client;
}

// Below the 15 s of the old poll; far above the moment a NOTIFY takes and the 5 s of the expiry check.
const PROMPTLY_MS = 12_000;

async function closedPromptly(socket: Socket): Promise<number> {
  return Promise.race([
    socket.closed,
    new Promise<number>((_, reject) =>
      setTimeout(() => reject(new Error('the socket stayed open')), PROMPTLY_MS),
    ),
  ]);
}

/**
 * Publishes a marker for `projectId` and waits until `socket` has it: proof that the socket is
 * still open and served after the others closed.
 */
async function stillServed(socket: Socket, projectId: number): Promise<void> {
  const sn = `MARKER${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
  await publishEvent(a.database.db, {
    type: 'device.changed',
    projectId,
    sn,
    change: 'updated',
    at: new Date().toISOString(),
  });
  await waitFor(() => socket.events.some((e) => 'sn' in e && e.sn === sn), 'the marker event');
}

describe('revoked sessions and their WebSockets, across instances', () => {
  it('a password change on A closes the other sessions’ sockets on B (70); the caller’s new session connects', async () => {
    const account = await createAccount(a);
    const projectId = await insertProject(a, account.id);
    const other = await secondBrowser(account);
    const otherSocket = await listenOnB(cookieOf(other));
    const callerSocket = await listenOnB(cookieOf(account.client));
    const bystander = await createAccount(a);
    const bystanderProject = await insertProject(a, bystander.id);
    const bystanderSocket = await listenOnB(cookieOf(bystander.client));

    const changed = await account.client.post('/account/password', {
      oldPassword: account.password,
      password: 'brand-new-1',
      confirmPassword: 'brand-new-1',
    });
    expect(changed.body.code).toBe(0);

    expect(await closedPromptly(otherSocket)).toBe(4401);
    // The caller's old session was replaced too; the browser reconnects with its new cookie.
    expect(await closedPromptly(callerSocket)).toBe(4401);
    const renewed = await listenOnB(cookieOf(account.client));
    await stillServed(renewed, projectId);
    await stillServed(bystanderSocket, bystanderProject);
  });

  it('a logout on A closes that session’s socket on B, not the account’s other sessions', async () => {
    const account = await createAccount(a);
    const projectId = await insertProject(a, account.id);
    const other = await secondBrowser(account);
    const leaving = await listenOnB(cookieOf(account.client));
    const staying = await listenOnB(cookieOf(other));

    expect((await account.client.post('/auth/logout')).body.code).toBe(0);

    expect(await closedPromptly(leaving)).toBe(4401);
    await stillServed(staying, projectId);
    expect(staying.isOpen()).toBe(true);
  });

  it('deleting an API key on A closes the sockets opened with it on B', async () => {
    const account = await createAccount(a);
    const created = await account.client.post<{ id: number; key: string }>('/account/api-keys', {
      name: 'socket',
    });
    expect(created.body.code).toBe(0);
    const socket = await listenOnB({ authorization: `Bearer ${created.body.data.key}` });

    expect((await account.client.delete(`/account/api-keys/${created.body.data.id}`)).body.code).toBe(0);

    expect(await closedPromptly(socket)).toBe(4401);
  });

  it('an expired session’s socket closes within seconds', async () => {
    const account = await createAccount(a);
    const socket = await listenOnB(cookieOf(account.client));

    // Past the browser-session lifetime (12 h idle) on the servers' clock.
    a.clock.advance((a.config.sessionIdleTtlSeconds + 60) * 1000);
    try {
      expect(await closedPromptly(socket)).toBe(4401);
    } finally {
      a.clock.advance(-(a.config.sessionIdleTtlSeconds + 60) * 1000);
    }
  });
});
