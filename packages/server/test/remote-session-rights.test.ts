import type { SimulatedDevice } from '@beacon/agent';
import type { ActionResultView } from '@beacon/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceCommands, devices, projectMembers, remoteSessions } from '../src/db/schema.ts';
import { insertProject, simulateOnline, testSn } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Remote management (src/maintenance/) lives no longer than the rights that opened it: every
 * proxied request checks that the holder may still write the project and that the device is still
 * in it; closing, like opening, respects who may displace whom (SPEC.md §6); a holder who lost
 * the right does not keep others out.
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
const running: SimulatedDevice[] = [];

type Client = TestAccount['client'];

async function device(pid = projectId): Promise<SimulatedDevice> {
  const sn = testSn('S');
  const d = await simulateOnline(server, sn);
  running.push(d);
  await server.database.db.update(devices).set({ projectId: pid }).where(eq(devices.sn, sn));
  return d;
}

async function member(permission: 'rw' | 'r', pid = projectId): Promise<TestAccount> {
  const account = await createAccount(server);
  await server.database.db
    .insert(projectMembers)
    .values({ projectId: pid, accountId: account.id, permission, acceptedAt: new Date() });
  return account;
}

const setPermission = (who: TestAccount, permission: 'rw' | 'r', pid = projectId) =>
  server.database.db
    .update(projectMembers)
    .set({ permission })
    .where(and(eq(projectMembers.projectId, pid), eq(projectMembers.accountId, who.id)));

const remote = (sn: string, enabled: boolean, client: Client, pid = projectId) =>
  client.post<ActionResultView>(
    `/projects/${pid}/devices/${sn}/actions/remote-management`,
    enabled ? { enabled: true, ttlSeconds: 600 } : { enabled: false },
  );

async function open(sn: string, client: Client, pid = projectId): Promise<string> {
  const res = await remote(sn, true, client, pid);
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data.data?.url as string;
}

/** A proxied request through the remote address, as the browser makes it. */
async function reach(url: string, who: TestAccount): Promise<{ status: number; code: number | null }> {
  const res = await fetch(`${server.url}${url}`, { headers: { cookie: `token=${who.client.cookieToken}` } });
  const text = await res.text();
  let code: number | null = null;
  try {
    code = (JSON.parse(text) as { code?: number }).code ?? null;
  } catch {
    // The device's own page (HTML): no envelope.
  }
  return { status: res.status, code };
}

const tokenOf = (url: string) => url.split('/').filter(Boolean).pop()!;

async function sessionClosed(url: string): Promise<boolean> {
  const [row] = await server.database.db
    .select({ closedAt: remoteSessions.closedAt })
    .from(remoteSessions)
    .where(eq(remoteSessions.token, tokenOf(url)));
  return row.closedAt !== null;
}

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

describe('the remote address checks the rights on every request', () => {
  it('a member downgraded to read-only is refused at once with 5032, and the session is closed', async () => {
    const ap = await device();
    const service = await member('rw');
    const url = await open(ap.sn, service.client);
    expect((await reach(url, service)).status).toBe(200);

    await setPermission(service, 'r');
    expect(await reach(url, service)).toEqual({ status: 403, code: 5032 });
    expect(await sessionClosed(url)).toBe(true);

    // The right coming back does not revive the closed address.
    await setPermission(service, 'rw');
    expect((await reach(url, service)).status).toBe(404);
  });

  it('a member whose share was removed is refused (30), and the session is closed', async () => {
    const ap = await device();
    const service = await member('rw');
    const url = await open(ap.sn, service.client);
    await server.database.db
      .delete(projectMembers)
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.accountId, service.id)));
    expect(await reach(url, service)).toEqual({ status: 404, code: 30 });
    expect(await sessionClosed(url)).toBe(true);
  });

  it('unbinding the device closes its remote sessions; once another account claims it the old address stays dead', async () => {
    const ap = await device();
    const url = await open(ap.sn, owner.client);
    expect((await reach(url, owner)).status).toBe(200);

    const removed = await owner.client.delete(`/projects/${projectId}/devices/${ap.sn}?mode=unbind`);
    expect(removed.body.code, JSON.stringify(removed.body)).toBe(0);
    expect(await sessionClosed(url)).toBe(true);

    const buyer = await createAccount(server);
    const theirs = await insertProject(server, buyer.id);
    const added = await buyer.client.post(`/projects/${theirs}/devices`, { sn: ap.sn });
    expect(added.body.code, JSON.stringify(added.body)).toBe(0);
    expect((await reach(url, owner)).status).toBe(404);
  });

  it('deleting the device closes its remote sessions', async () => {
    const ap = await device();
    const url = await open(ap.sn, owner.client);
    const removed = await owner.client.delete(`/projects/${projectId}/devices/${ap.sn}?mode=delete`);
    expect(removed.body.code, JSON.stringify(removed.body)).toBe(0);
    expect(await sessionClosed(url)).toBe(true);
    expect((await reach(url, owner)).status).toBe(404);
  });

  it('a device that left the project by any other way is refused with 410 and its session closed; it does not block the new project', async () => {
    const ap = await device();
    const url = await open(ap.sn, owner.client);
    // Moved without going through the device routes (as a share's unbind or a transfer would).
    const other = await createAccount(server);
    const otherProject = await insertProject(server, other.id);
    const otherMember = await member('rw', otherProject);
    await server.database.db.update(devices).set({ projectId: otherProject }).where(eq(devices.sn, ap.sn));

    expect(await reach(url, owner)).toEqual({ status: 410, code: 410 });
    expect(await sessionClosed(url)).toBe(true);

    // Reopen the old session row by hand: the new project's member is still not kept out by it.
    await server.database.db
      .update(remoteSessions)
      .set({ closedAt: null })
      .where(eq(remoteSessions.token, tokenOf(url)));
    const theirs = await open(ap.sn, otherMember.client, otherProject);
    expect((await reach(theirs, otherMember)).status).toBe(200);
    expect(await sessionClosed(url)).toBe(true);
  });
});

describe('closing respects displacement (SPEC.md §6)', () => {
  it("a member cannot close another member's or the owner's session (320); the owner can close a member's", async () => {
    const ap = await device();
    const service = await member('rw');
    const colleague = await member('rw');

    const serviceUrl = await open(ap.sn, service.client);
    const closeByColleague = await remote(ap.sn, false, colleague.client);
    expect({ status: closeByColleague.status, code: closeByColleague.body.code }).toEqual({
      status: 502,
      code: 320,
    });
    expect((await reach(serviceUrl, service)).status).toBe(200);
    // The refusal is the command's one recorded outcome; nothing reached the device.
    const closes = await server.database.db
      .select()
      .from(deviceCommands)
      .where(and(eq(deviceCommands.sn, ap.sn), eq(deviceCommands.name, 'remote-management-close')));
    expect(closes.map((c) => [c.accountId, c.state, c.code])).toEqual([[colleague.id, 'failed', 320]]);
    // And so the colleague still cannot get in.
    expect((await remote(ap.sn, true, colleague.client)).body.code).toBe(320);

    // The owner may displace a service person, so the owner may close the session.
    expect((await remote(ap.sn, false, owner.client)).body.code).toBe(0);
    expect((await reach(serviceUrl, service)).status).toBe(404);

    const ownerUrl = await open(ap.sn, owner.client);
    expect((await remote(ap.sn, false, service.client)).body.code).toBe(320);
    expect((await reach(ownerUrl, owner)).status).toBe(200);
    expect((await remote(ap.sn, false, owner.client)).body.code).toBe(0);
    expect((await reach(ownerUrl, owner)).status).toBe(404);
  });

  it('a member closes their own session', async () => {
    const ap = await device();
    const service = await member('rw');
    const url = await open(ap.sn, service.client);
    expect((await remote(ap.sn, false, service.client)).body.code).toBe(0);
    expect((await reach(url, service)).status).toBe(404);
  });
});

describe('a holder who lost the right does not block others', () => {
  it('a downgraded service person gives way to another member, whose session then works', async () => {
    const ap = await device();
    const service = await member('rw');
    const colleague = await member('rw');
    const serviceUrl = await open(ap.sn, service.client);
    expect((await remote(ap.sn, true, colleague.client)).body.code).toBe(320);

    await setPermission(service, 'r');
    const colleagueUrl = await open(ap.sn, colleague.client);
    expect(await sessionClosed(serviceUrl)).toBe(true);
    expect((await reach(colleagueUrl, colleague)).status).toBe(200);

    // A holder whose share was removed entirely does not block either.
    await setPermission(service, 'rw');
    await server.database.db
      .delete(projectMembers)
      .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.accountId, colleague.id)));
    const again = await open(ap.sn, service.client);
    expect(await sessionClosed(colleagueUrl)).toBe(true);
    expect((await reach(again, service)).status).toBe(200);
    expect((await remote(ap.sn, false, service.client)).body.code).toBe(0);
  });
});
