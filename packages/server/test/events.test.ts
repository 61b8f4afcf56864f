import type { SimulatedDevice } from '@beacon/agent';
import type { LiveEvent } from '@beacon/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { projectMembers } from '../src/db/schema.ts';
import { publishEvent } from '../src/events/bus.ts';
import { SYSTEM_ACTOR } from '../src/gateway/commands.ts';
import { insertProject, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

let server: TestServer;
const running: SimulatedDevice[] = [];
const sockets: WebSocket[] = [];

beforeAll(async () => {
  server = await startTestServer({ MQTT_SHARE_GROUP: `t${Math.random().toString(36).slice(2, 10)}` });
});
afterAll(async () => {
  for (const s of sockets) s.terminate();
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

interface Listener {
  socket: WebSocket;
  events: LiveEvent[];
}

const wsUrl = () => `${server.url.replace(/^http/, 'ws')}/api/v1/events`;

/** Opens the events socket as a browser would (cookie) or a script (Bearer); resolves after `hello`. */
function listen(headers: Record<string, string>): Promise<Listener> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(wsUrl(), { headers });
    sockets.push(socket);
    const events: LiveEvent[] = [];
    socket.on('message', (data) => {
      const event = JSON.parse(String(data)) as LiveEvent;
      events.push(event);
      if (event.type === 'hello') resolve({ socket, events });
    });
    socket.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    socket.on('error', reject);
  });
}

const asBrowser = (account: TestAccount) => ({
  cookie: `token=${account.client.cookieToken}`,
  origin: 'http://localhost:8080',
});

/**
 * Publishes a marker event for `projectId` and waits until `listener` has it. Events reach a socket
 * one after another in the bus's order (events/routes.ts), so once the marker is in, every event
 * published before it that was going to reach this socket has arrived: what is missing then was
 * not sent, however slowly the machine runs.
 */
async function barrier(listener: Listener, projectId: number): Promise<void> {
  const sn = `MARKER${Math.random().toString(36).slice(2, 10).toUpperCase()}`;
  await publishEvent(server.database.db, {
    type: 'device.changed',
    projectId,
    sn,
    change: 'updated',
    at: new Date().toISOString(),
  });
  await waitFor(
    () => listener.events.some((e) => e.type === 'device.changed' && e.sn === sn),
    'the marker event',
  );
}

const isMarker = (e: LiveEvent) => 'sn' in e && e.sn.startsWith('MARKER');

function statusesOf(listener: Listener, sn: string): number[] {
  return listener.events.flatMap((e) => (e.type === 'device.status' && e.sn === sn ? [e.status] : []));
}

describe('WebSocket /api/v1/events', () => {
  it('pushes a device status change to the owner and a member, and nothing to a stranger', async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const stranger = await createAccount(server);
    const projectId = await insertProject(server, owner.id);
    const strangersOwn = await insertProject(server, stranger.id);
    await server.database.db
      .insert(projectMembers)
      .values({ projectId, accountId: member.id, permission: 'r', acceptedAt: new Date() });
    const sn = testSn('E');
    const device = await simulateOnline(server, sn);
    running.push(device);
    expect((await owner.client.post(`/projects/${projectId}/devices`, { sn })).body.code).toBe(0);

    const key = await member.client.post<{ key: string }>('/account/api-keys', { name: 'events' });
    const ownerWs = await listen(asBrowser(owner));
    const memberWs = await listen({ authorization: `Bearer ${key.body.data.key}` });
    const strangerWs = await listen(asBrowser(stranger));
    expect(ownerWs.events[0]).toEqual({ type: 'hello', accountId: owner.id });

    const outcome = await server.gateway.commands.send(sn, 'reboot', {}, SYSTEM_ACTOR);
    expect(outcome.code).toBe(0);
    await waitFor(
      () => statusesOf(memberWs, sn).includes(8) && statusesOf(memberWs, sn).at(-1) === 1,
      'member sees 8 then 1',
    );
    await waitFor(() => statusesOf(ownerWs, sn).at(-1) === 1, 'owner sees 1');
    const commands = memberWs.events.filter((e) => e.type === 'command' && e.sn === sn);
    expect(commands.map((e) => (e as { state: string }).state)).toEqual(['sent', 'success']);
    expect(ownerWs.events.some((e) => e.type === 'device.changed')).toBe(false);
    // The stranger's socket got only its hello (and the marker of its own project, sent last).
    await barrier(strangerWs, strangersOwn);
    expect(strangerWs.events.filter((e) => !isMarker(e)).map((e) => e.type)).toEqual(['hello']);
  });

  it('stops sending to a member whose share is revoked', async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const projectId = await insertProject(server, owner.id);
    const membersOwn = await insertProject(server, member.id);
    await server.database.db
      .insert(projectMembers)
      .values({ projectId, accountId: member.id, permission: 'rw', acceptedAt: new Date() });
    const sn = testSn('V');
    running.push(await simulateOnline(server, sn));
    expect((await owner.client.post(`/projects/${projectId}/devices`, { sn })).body.code).toBe(0);
    const ownerWs = await listen(asBrowser(owner));
    const memberWs = await listen(asBrowser(member));

    await member.client.patch(`/projects/${projectId}/devices/${sn}`, { remark: 'first' });
    await waitFor(() => memberWs.events.some((e) => e.type === 'device.changed'), 'member sees the change');

    await server.database.db
      .delete(projectMembers)
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.accountId, member.id)));
    await owner.client.patch(`/projects/${projectId}/devices/${sn}`, { remark: 'second' });
    await waitFor(
      () => ownerWs.events.filter((e) => e.type === 'device.changed').length === 2,
      'owner sees both changes',
    );
    await barrier(memberWs, membersOwn);
    expect(memberWs.events.filter((e) => e.type === 'device.changed' && !isMarker(e))).toHaveLength(1);
  });

  it('refuses a socket without a session (401) or from another site (403)', async () => {
    await expect(listen({})).rejects.toThrow('HTTP 401');
    const account = await createAccount(server);
    await expect(listen({ ...asBrowser(account), origin: 'https://evil.example' })).rejects.toThrow(
      'HTTP 403',
    );
    await expect(listen({ cookie: 'token=not-a-session' })).rejects.toThrow('HTTP 401');
  });
});
