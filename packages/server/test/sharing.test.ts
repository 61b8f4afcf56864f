import type { LiveEvent, ProjectView, ShareList, ShareView } from '@beacon/protocol';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { auditLog, jobs, projectDepartures, projectMembers } from '../src/db/schema.ts';
import { type BusEvent, publishEvent } from '../src/events/bus.ts';
import { type MembershipRevoked, onMembershipRevoked } from '../src/sharing/events.ts';
import { createAccount as createTestAccount, type TestAccount } from './helpers/accounts.ts';
import { type HttpResult, startTestServer, type TestServer } from './helpers/harness.ts';

const HOUR = 3_600_000;
let server: TestServer;

beforeAll(async () => {
  // Small account limits so 61/62 are reachable; no polling: the tests run the job tick themselves.
  server = await startTestServer({ SHARE_MAX_READ: '2', SHARE_MAX_READ_WRITE: '3', JOB_POLL_MS: '0' });
});
afterAll(() => server?.close());

let names = 0;
async function project(owner: TestAccount): Promise<number> {
  const res = await owner.client.post<ProjectView>('/projects', { name: `sh${++names}`, scenario: 'hotel' });
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data.id;
}

/** createAccount reads its counter after an await, so accounts are made one at a time. */
async function accountsN(n: number): Promise<TestAccount[]> {
  const out: TestAccount[] = [];
  for (let i = 0; i < n; i++) out.push(await createAccount(server));
  return out;
}

async function cloudIdOf(account: TestAccount): Promise<string> {
  const res = await account.client.get<{ cloudId: string }>('/account');
  return res.body.data.cloudId;
}

async function listIds(account: TestAccount): Promise<number[]> {
  const res = await account.client.get<{ items: ProjectView[] }>('/projects?pageSize=200');
  return res.body.data.items.filter((p) => !p.isDemo).map((p) => p.id);
}

async function auditRows(projectId: number, action?: string): Promise<number> {
  const [row] = await server.database.db
    .select({ n: count() })
    .from(auditLog)
    .where(and(eq(auditLog.projectId, projectId), action ? eq(auditLog.action, action) : undefined));
  return row.n;
}

/** Every account of this file, by login and by cloud id: who accepts a share offered to it. */
const known = new Map<string, TestAccount>();

async function createAccount(s: TestServer, opts: { nick?: string } = {}): Promise<TestAccount> {
  const account = await createTestAccount(s, opts);
  known.set(account.email.toLowerCase(), account);
  known.set((await cloudIdOf(account)).toUpperCase(), account);
  return account;
}

const offer = (owner: TestAccount, id: number, body: Record<string, unknown>) =>
  owner.client.post<ShareView>(`/projects/${id}/shares`, body);

/**
 * A share as the owner and the receiving account make it together: the owner offers it and the
 * account accepts (docs/decisions/0022). Answers the first refusal, or the share as the owner
 * lists it once accepted.
 */
async function share(
  owner: TestAccount,
  id: number,
  body: Record<string, unknown>,
): Promise<HttpResult<ShareView>> {
  const offered = await offer(owner, id, body);
  if (offered.body.code !== 0) return offered;
  const key =
    body.account !== undefined ? String(body.account).toLowerCase() : String(body.cloudId).toUpperCase();
  const receiver = known.get(key);
  if (!receiver) throw new Error(`no test account for ${key}`);
  const accepted = await receiver.client.post<ShareView>(`/offers/share/${id}/accept`);
  if (accepted.body.code !== 0) return accepted;
  const list = await owner.client.get<ShareList>(`/projects/${id}/shares`);
  const data = list.body.data.items.find((s) => s.accountId === receiver.id) as ShareView;
  return { ...offered, body: { ...offered.body, data } };
}

/** Offers the project and has the target accept the transfer. */
async function transfer(owner: TestAccount, id: number, target: TestAccount) {
  const offered = await owner.client.post(`/projects/${id}/transfer`, { account: target.email });
  if (offered.body.code !== 0) return offered;
  return target.client.post<{ ownerAccount: string }>(`/offers/transfer/${id}/accept`);
}

describe('sharing a project', () => {
  it('shares read-only, lists the record and lets the member read but not write', async () => {
    const owner = await createAccount(server, { nick: 'Olive' });
    const member = await createAccount(server, { nick: 'Milo' });
    const id = await project(owner);
    const res = await share(owner, id, { account: member.email.toUpperCase(), permission: 'r' });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    expect(res.body.data).toMatchObject({
      accountId: member.id,
      account: member.email,
      nick: 'Milo',
      role: 0,
      permission: 'r',
      validity: 'permanent',
      hours: null,
      expiresAt: null,
      accepted: true,
      sharedBy: owner.email,
    });
    const list = await member.client.get<ShareList>(`/projects/${id}/shares`);
    expect(list.body.data.items.map((s) => s.accountId)).toEqual([member.id]);
    expect(list.body.data.limits).toEqual({ permanentManagers: 3, manageable: 11 });
    const seen = await member.client.get<ProjectView>(`/projects/${id}`);
    expect(seen.body.data).toMatchObject({ right: 'r', property: 'shared_read', isShare: true });
    const save = await member.client.patch(`/projects/${id}`, { location: 'Elsewhere' });
    expect(save.body.code).toBe(5032);
    expect(await auditRows(id, 'create')).toBe(1); // the project
    expect(await auditRows(id, 'offer')).toBe(1);
    expect(await auditRows(id, 'accept')).toBe(1);
  });

  it('shares by cloud id, read-write and timed, and upgrades a share explicitly', async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const id = await project(owner);
    const res = await share(owner, id, {
      cloudId: (await cloudIdOf(member)).toLowerCase(),
      permission: 'r',
      validity: 'timed',
      hours: 5,
    });
    expect(res.body.data).toMatchObject({ permission: 'r', validity: 'timed', hours: 5 });
    const expires = new Date(res.body.data.expiresAt ?? 0).getTime();
    expect(Math.abs(expires - (server.clock.now().getTime() + 5 * HOUR))).toBeLessThan(60_000);

    const up = await owner.client.patch<ShareView>(`/projects/${id}/shares/${member.id}`, {
      permission: 'rw',
      validity: 'permanent',
    });
    expect(up.body.data).toMatchObject({ permission: 'rw', validity: 'permanent', expiresAt: null });
    expect((await member.client.patch(`/projects/${id}`, { location: 'Saved' })).body.code).toBe(0);
    const [job] = await server.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `share.expire:${id}:${member.id}`));
    expect(job, 'a permanent share has no expiry job').toBeUndefined();
  });

  it('refuses sharing to oneself (28), an unknown account (22), an existing share (21) and an overwrite (63)', async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const id = await project(owner);
    expect((await share(owner, id, { account: owner.email, permission: 'r' })).body.code).toBe(28);
    expect((await share(owner, id, { cloudId: await cloudIdOf(owner), permission: 'rw' })).body.code).toBe(
      28,
    );
    const unknown = await share(owner, id, { account: 'nobody-here@example.com', permission: 'r' });
    expect({ status: unknown.status, code: unknown.body.code }).toEqual({ status: 404, code: 22 });
    expect((await share(owner, id, { account: member.email, permission: 'r' })).body.code).toBe(0);
    const again = await share(owner, id, { account: member.email, permission: 'r' });
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 409, code: 21 });
    const overwrite = await share(owner, id, { account: member.email, permission: 'rw' });
    expect({ status: overwrite.status, code: overwrite.body.code }).toEqual({ status: 409, code: 63 });
    const timed = await share(owner, id, {
      account: member.email,
      permission: 'r',
      validity: 'timed',
      hours: 2,
    });
    expect(timed.body.code).toBe(63);
    const shares = await owner.client.get<ShareList>(`/projects/${id}/shares`);
    expect(shares.body.data.items).toHaveLength(1);
    expect(shares.body.data.items[0]).toMatchObject({ permission: 'r', validity: 'permanent' });
  });

  it('answers 73 when changing or deleting a share the account does not have', async () => {
    const owner = await createAccount(server);
    const other = await createAccount(server);
    const id = await project(owner);
    const patch = await owner.client.patch(`/projects/${id}/shares/${other.id}`, { permission: 'rw' });
    expect({ status: patch.status, code: patch.body.code }).toEqual({ status: 403, code: 73 });
    expect((await owner.client.delete(`/projects/${id}/shares/${other.id}`)).body.code).toBe(73);
  });

  it('lets only the owner manage shares: 5030 for a manager, 5032 read-only, 5031 demo', async () => {
    const owner = await createAccount(server);
    const manager = await createAccount(server);
    const viewer = await createAccount(server);
    const third = await createAccount(server);
    const id = await project(owner);
    await share(owner, id, { account: manager.email, permission: 'rw' });
    await share(owner, id, { account: viewer.email, permission: 'r' });
    expect((await share(manager, id, { account: third.email, permission: 'r' })).body.code).toBe(5030);
    expect((await share(viewer, id, { account: third.email, permission: 'r' })).body.code).toBe(5032);
    expect((await manager.client.delete(`/projects/${id}/shares/${viewer.id}`)).body.code).toBe(5030);
    expect((await share(owner, 500000, { account: third.email, permission: 'r' })).body.code).toBe(5031);
    expect((await owner.client.post('/projects/600000/invites', { permission: 'r' })).body.code).toBe(5031);
    expect((await owner.client.post('/projects/500000/transfer', { account: third.email })).body.code).toBe(
      5031,
    );
  });

  it('deletes a share: the member loses the project at once, with an audit row and a revocation event', async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const id = await project(owner);
    await share(owner, id, { account: member.email, permission: 'rw' });
    const events: MembershipRevoked[] = [];
    const off = onMembershipRevoked((e) => events.push(e));
    const res = await owner.client.delete(`/projects/${id}/shares/${member.id}`);
    off();
    expect(res.body).toMatchObject({ code: 0, data: { accountId: member.id } });
    expect(events).toContainEqual({ projectId: id, accountId: member.id, reason: 'delete' });
    expect((await member.client.get(`/projects/${id}`)).body.code).toBe(73);
    expect(await listIds(member)).not.toContain(id);
    expect(await auditRows(id, 'delete')).toBe(1);
  });

  it('lets a member unbind (leave) the project; the owner cannot', async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const id = await project(owner);
    await share(owner, id, { account: member.email, permission: 'r' });
    expect(await listIds(member)).toContain(id);
    const left = await member.client.post(`/projects/${id}/unbind`);
    expect(left.body).toMatchObject({ code: 0, data: { projectId: id } });
    expect(await listIds(member)).not.toContain(id);
    expect((await member.client.post(`/projects/${id}/unbind`)).body.code).toBe(73);
    expect((await owner.client.post(`/projects/${id}/unbind`)).body.code).toBe(5030);
    const shares = await owner.client.get<ShareList>(`/projects/${id}/shares`);
    expect(shares.body.data.items).toEqual([]);
    expect(await auditRows(id, 'unbind')).toBe(1);
  });
});

describe('share limits', () => {
  it('refuses a third unexpired read-only share held by one account with 61 (SHARE_MAX_READ=2); expired ones do not count', async () => {
    const member = await createAccount(server);
    const owners = [await createAccount(server), await createAccount(server), await createAccount(server)];
    const ids = [await project(owners[0]), await project(owners[1]), await project(owners[2])];
    expect((await share(owners[0], ids[0], { account: member.email, permission: 'r' })).body.code).toBe(0);
    const timed = await share(owners[1], ids[1], {
      account: member.email,
      permission: 'r',
      validity: 'timed',
      hours: 1,
    });
    expect(timed.body.code).toBe(0);
    const third = await share(owners[2], ids[2], { account: member.email, permission: 'r' });
    expect({ status: third.status, code: third.body.code }).toEqual({ status: 409, code: 61 });
    server.clock.advance(HOUR + 1000);
    expect((await share(owners[2], ids[2], { account: member.email, permission: 'r' })).body.code).toBe(0);
  });

  it('refuses a fourth read-write share held by one account with 62 (SHARE_MAX_READ_WRITE=3), also on upgrade', async () => {
    const member = await createAccount(server);
    const owners = await accountsN(4);
    const ids: number[] = [];
    for (const owner of owners) ids.push(await project(owner));
    for (let i = 0; i < 3; i++) {
      const res = await share(owners[i], ids[i], {
        account: member.email,
        permission: 'rw',
        validity: 'timed',
        hours: 10,
      });
      expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    }
    expect((await share(owners[3], ids[3], { account: member.email, permission: 'rw' })).body.code).toBe(62);
    expect((await share(owners[3], ids[3], { account: member.email, permission: 'r' })).body.code).toBe(0);
    const upgrade = await owners[3].client.patch(`/projects/${ids[3]}/shares/${member.id}`, {
      permission: 'rw',
    });
    expect(upgrade.body.code).toBe(62);
  });

  it('allows 3 permanent read-write managers and 11 read-write shares per project (62 beyond)', async () => {
    const owner = await createAccount(server);
    const id = await project(owner);
    const members = await accountsN(12);
    for (let i = 0; i < 3; i++) {
      expect((await share(owner, id, { account: members[i].email, permission: 'rw' })).body.code).toBe(0);
    }
    const fourth = await share(owner, id, { account: members[3].email, permission: 'rw' });
    expect(fourth.body).toMatchObject({ code: 62, message: expect.stringContaining('3 permanent') });
    for (let i = 3; i < 11; i++) {
      const res = await share(owner, id, {
        account: members[i].email,
        permission: 'rw',
        validity: 'timed',
        hours: 48,
      });
      expect(res.body.code, `share ${i}`).toBe(0);
    }
    const twelfth = await share(owner, id, {
      account: members[11].email,
      permission: 'rw',
      validity: 'timed',
      hours: 1,
    });
    expect(twelfth.body).toMatchObject({ code: 62, message: expect.stringContaining('11') });
    // A timed manager cannot become permanent while three permanent ones exist.
    const permanent = await owner.client.patch(`/projects/${id}/shares/${members[5].id}`, {
      validity: 'permanent',
    });
    expect(permanent.body.code).toBe(62);
    // Read-only shares are not limited by the managers' count.
    expect((await share(owner, id, { account: members[11].email, permission: 'r' })).body.code).toBe(0);
  });
});

describe('expiry', () => {
  it('ends a timed share by itself: 74 from that moment, then the job removes it and announces it', async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const id = await project(owner);
    await share(owner, id, { account: member.email, permission: 'rw', validity: 'timed', hours: 2 });
    await server.jobs.tick(); // not due yet (earlier tests' jobs may be)
    expect((await member.client.get(`/projects/${id}`)).body.code).toBe(0);

    server.clock.advance(2 * HOUR + 1000);
    const expired = await member.client.get(`/projects/${id}`);
    expect({ status: expired.status, code: expired.body.code }).toEqual({ status: 403, code: 74 });
    expect(await listIds(member)).not.toContain(id);

    const events: MembershipRevoked[] = [];
    const off = onMembershipRevoked((e) => events.push(e));
    expect(await server.jobs.tick()).toBeGreaterThanOrEqual(1);
    off();
    expect(events).toContainEqual({ projectId: id, accountId: member.id, reason: 'expired' });
    const rows = await server.database.db
      .select()
      .from(projectMembers)
      .where(eq(projectMembers.projectId, id));
    expect(rows).toEqual([]);
    expect(await auditRows(id, 'expire')).toBe(1);
    const gone = await member.client.get(`/projects/${id}`);
    expect({ status: gone.status, code: gone.body.code }).toEqual({ status: 403, code: 74 });
    expect((await owner.client.get<ShareList>(`/projects/${id}/shares`)).body.data.items).toEqual([]);
  });

  it('leaves a share that was extended before its old end', async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const id = await project(owner);
    await share(owner, id, { account: member.email, permission: 'r', validity: 'timed', hours: 1 });
    server.clock.advance(HOUR / 2);
    const extended = await owner.client.patch(`/projects/${id}/shares/${member.id}`, {
      validity: 'timed',
      hours: 3,
    });
    expect(extended.body.code).toBe(0);
    server.clock.advance(HOUR);
    await server.jobs.tick();
    expect((await member.client.get(`/projects/${id}`)).body.code).toBe(0);
    server.clock.advance(3 * HOUR);
    await server.jobs.tick();
    expect((await member.client.get(`/projects/${id}`)).body.code).toBe(74);
  });

  it('survives a restart: the job is a row, picked up by whichever instance ticks', async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const id = await project(owner);
    await share(owner, id, { account: member.email, permission: 'r', validity: 'timed', hours: 1 });
    const [job] = await server.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.key, `share.expire:${id}:${member.id}`));
    expect(job).toMatchObject({ kind: 'share.expire', payload: { projectId: id, accountId: member.id } });
    // Two runners ticking at once (two instances) run it once: SKIP LOCKED.
    server.clock.advance(HOUR + 1000);
    const before = await auditRows(id, 'expire');
    await Promise.all([server.jobs.tick(), server.jobs.tick()]);
    expect((await auditRows(id, 'expire')) - before).toBe(1);
  });
});

describe('invitations', () => {
  it('an invitation grants nothing until accepted, then read-only (SPEC.md §6); a read-write one is refused', async () => {
    const owner = await createAccount(server);
    const invitee = await createAccount(server);
    const id = await project(owner);
    const rw = await owner.client.post(`/projects/${id}/invites`, {
      account: invitee.email,
      permission: 'rw',
    });
    expect({ status: rw.status, code: rw.body.code }).toEqual({ status: 400, code: 16 });
    const invite = await owner.client.post<{ code: string; link: string; expiresAt: string }>(
      `/projects/${id}/invites`,
      { account: invitee.email, validity: 'timed', hours: 24, expiresInHours: 2 },
    );
    expect(invite.body.code, JSON.stringify(invite.body)).toBe(0);
    const { code, link } = invite.body.data;
    expect(link).toBe(`/invite/${code}`);
    expect((await invitee.client.get(`/projects/${id}`)).body.code).toBe(30);
    expect(await listIds(invitee)).not.toContain(id);

    const stranger = await createAccount(server);
    expect((await stranger.client.get(`/invites/${code}`)).body.code).toBe(5030);
    const preview = await invitee.client.get(`/invites/${code.toLowerCase()}`);
    expect(preview.body.data).toMatchObject({ projectId: id, permission: 'r', validity: 'timed', hours: 24 });
    const accepted = await invitee.client.post(`/invites/${code}/accept`);
    expect(accepted.body).toMatchObject({ code: 0, data: { projectId: id } });
    const after = await invitee.client.get<ProjectView>(`/projects/${id}`);
    expect(after.body.data).toMatchObject({ right: 'r', property: 'shared_read', isShare: true });
    expect((await invitee.client.patch(`/projects/${id}`, { location: 'Y' })).body.code).toBe(5032);
    const listed = (await owner.client.get<ShareList>(`/projects/${id}/shares`)).body.data.items;
    expect(listed).toMatchObject([{ accountId: invitee.id, permission: 'r', via: 'invite', accepted: true }]);
    // The owner cannot make an invitation read-write: it is an invitation project to the invitee.
    const up = await owner.client.patch(`/projects/${id}/shares/${invitee.id}`, { permission: 'rw' });
    expect({ status: up.status, code: up.body.code }).toEqual({ status: 400, code: 16 });
    const used = await invitee.client.post(`/invites/${code}/accept`);
    expect({ status: used.status, code: used.body.code }).toEqual({ status: 410, code: 64 });
  });

  it('an expired invite code answers 64 and never gave the invitee the project', async () => {
    const owner = await createAccount(server);
    const invitee = await createAccount(server);
    const id = await project(owner);
    const invite = await owner.client.post<{ code: string }>(`/projects/${id}/invites`, {
      cloudId: await cloudIdOf(invitee),
      permission: 'r',
      expiresInHours: 1,
    });
    server.clock.advance(HOUR + 1000);
    const late = await invitee.client.post(`/invites/${invite.body.data.code}/accept`);
    expect({ status: late.status, code: late.body.code }).toEqual({ status: 410, code: 64 });
    expect((await invitee.client.get(`/invites/${invite.body.data.code}`)).body.code).toBe(64);
    expect((await invitee.client.get(`/projects/${id}`)).body.code).toBe(30);
  });

  it('an open code is accepted once by whoever holds it; 5033 for an unknown code, 28 for the owner', async () => {
    const owner = await createAccount(server);
    const first = await createAccount(server);
    const second = await createAccount(server);
    const id = await project(owner);
    const invite = await owner.client.post<{ code: string; account: string | null }>(
      `/projects/${id}/invites`,
      {
        permission: 'r',
      },
    );
    expect(invite.body.data.account).toBeNull();
    const { code } = invite.body.data;
    expect((await owner.client.post(`/invites/${code}/accept`)).body.code).toBe(28);
    expect((await first.client.post(`/invites/${code}/accept`)).body.code).toBe(0);
    expect((await second.client.post(`/invites/${code}/accept`)).body.code).toBe(64);
    expect((await first.client.get<ProjectView>(`/projects/${id}`)).body.data.right).toBe('r');
    expect((await second.client.post('/invites/ABCDEFGHJKLM/accept')).body.code).toBe(5033);
    expect((await second.client.post('/invites/not-a-code/accept')).body.code).toBe(16);
    // A second open code for an account that already has the share: 21.
    const again = await owner.client.post<{ code: string }>(`/projects/${id}/invites`, { permission: 'r' });
    expect((await first.client.post(`/invites/${again.body.data.code}/accept`)).body.code).toBe(21);
    const timed = await owner.client.post<{ code: string }>(`/projects/${id}/invites`, {
      permission: 'r',
      validity: 'timed',
      hours: 3,
    });
    expect((await first.client.post(`/invites/${timed.body.data.code}/accept`)).body.code).toBe(63);
  });

  it('refuses to invite an account that already has a share (21) or oneself (28)', async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const id = await project(owner);
    await share(owner, id, { account: member.email, permission: 'r' });
    expect(
      (await owner.client.post(`/projects/${id}/invites`, { account: member.email, permission: 'r' })).body
        .code,
    ).toBe(21);
    expect(
      (await owner.client.post(`/projects/${id}/invites`, { account: owner.email, permission: 'r' })).body
        .code,
    ).toBe(28);
  });
});

describe('transfer of permission', () => {
  it('hands the project over: it leaves the previous owner list and joins the new owner list', async () => {
    const owner = await createAccount(server);
    const target = await createAccount(server);
    const member = await createAccount(server);
    const id = await project(owner);
    await share(owner, id, { account: target.email, permission: 'r' });
    await share(owner, id, { account: member.email, permission: 'rw' });
    expect(await listIds(owner)).toContain(id);

    const events: MembershipRevoked[] = [];
    const off = onMembershipRevoked((e) => events.push(e));
    const res = await transfer(owner, id, target);
    off();
    expect(res.body).toMatchObject({ code: 0, data: { projectId: id, ownerAccount: target.email } });
    expect(events).toContainEqual({ projectId: id, accountId: owner.id, reason: 'transfer' });
    expect(await listIds(owner)).not.toContain(id);
    expect((await owner.client.get(`/projects/${id}`)).body.code).toBe(73);
    const mine = await target.client.get<ProjectView>(`/projects/${id}`);
    expect(mine.body.data).toMatchObject({
      property: 'own',
      right: 'rw',
      isShare: false,
      ownerAccount: target.email,
    });
    const shares = await target.client.get<ShareList>(`/projects/${id}/shares`);
    expect(shares.body.data.items.map((s) => s.accountId)).toEqual([member.id]);
    expect((await member.client.get<ProjectView>(`/projects/${id}`)).body.data.ownerAccount).toBe(
      target.email,
    );
    expect(await auditRows(id, 'transfer')).toBe(1);
  });

  it('answers 2101 for a missing target, 2102 for the current manager, 2103 for a member', async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const id = await project(owner);
    await share(owner, id, { account: member.email, permission: 'rw' });
    const missing = await owner.client.post(`/projects/${id}/transfer`, { account: 'ghost@example.com' });
    expect({ status: missing.status, code: missing.body.code }).toEqual({ status: 404, code: 2101 });
    const same = await owner.client.post(`/projects/${id}/transfer`, { cloudId: await cloudIdOf(owner) });
    expect({ status: same.status, code: same.body.code }).toEqual({ status: 409, code: 2102 });
    const notManager = await member.client.post(`/projects/${id}/transfer`, { account: member.email });
    expect({ status: notManager.status, code: notManager.body.code }).toEqual({ status: 403, code: 2103 });
    expect(await listIds(owner)).toContain(id);
  });

  it('refuses a transfer to an account that already has a project of that name (5038)', async () => {
    const owner = await createAccount(server);
    const target = await createAccount(server);
    const id = await project(owner);
    const name = `sh${names}`;
    await target.client.post('/projects', { name, scenario: 'hotel' });
    expect((await transfer(owner, id, target)).body.code).toBe(5038);
    expect(await listIds(owner)).toContain(id);
  });
});

describe('a lost project answers 73 or 74 by why it was lost', () => {
  /** Status and code of a read and a write of the project, and of a read in another domain. */
  async function answers(account: TestAccount, id: number) {
    const read = await account.client.get(`/projects/${id}`);
    const write = await account.client.patch(`/projects/${id}`, { location: 'Somewhere' });
    const devices = await account.client.get(`/projects/${id}/devices`);
    return [read, write, devices].map((r) => ({ status: r.status, code: r.body.code }));
  }
  const expired = Array(3).fill({ status: 403, code: 74 });
  const removed = Array(3).fill({ status: 403, code: 73 });
  const unknown = Array(3).fill({ status: 404, code: 30 });

  async function departures(id: number, accountId?: number): Promise<string[]> {
    const rows = await server.database.db
      .select({ reason: projectDepartures.reason })
      .from(projectDepartures)
      .where(
        and(
          eq(projectDepartures.projectId, id),
          accountId === undefined ? undefined : eq(projectDepartures.accountId, accountId),
        ),
      );
    return rows.map((r) => r.reason);
  }

  /** Opens the events socket as the account's browser would; resolves after `hello`. */
  function listen(account: TestAccount): Promise<{ socket: WebSocket; events: LiveEvent[] }> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/api/v1/events`, {
        headers: { cookie: `token=${account.client.cookieToken}`, origin: 'http://localhost:8080' },
      });
      const events: LiveEvent[] = [];
      socket.on('message', (data) => {
        const event = JSON.parse(String(data)) as LiveEvent;
        events.push(event);
        if (event.type === 'hello') resolve({ socket, events });
      });
      socket.on('error', reject);
    });
  }
  const changed = (id: number, sn: string): BusEvent => ({
    type: 'device.changed',
    projectId: id,
    sn,
    change: 'updated',
    at: new Date().toISOString(),
  });
  const sns = (events: LiveEvent[]) => events.flatMap((e) => (e.type === 'device.changed' ? [e.sn] : []));
  async function until(probe: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 5000;
    while (!probe()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('a timed share that expired answers 74 after the job removed it, and its socket hears no more', async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const id = await project(owner);
    await share(owner, id, { account: member.email, permission: 'rw', validity: 'timed', hours: 1 });
    const ownerWs = await listen(owner);
    const memberWs = await listen(member);
    try {
      await publishEvent(server.database.db, changed(id, 'BEFORE'));
      await until(() => sns(memberWs.events).includes('BEFORE'), 'the member hears the first event');

      server.clock.advance(HOUR + 1000);
      await server.jobs.tick();
      expect(
        await server.database.db.select().from(projectMembers).where(eq(projectMembers.projectId, id)),
      ).toEqual([]);
      expect(await departures(id, member.id)).toEqual(['expired']);
      expect(await answers(member, id)).toEqual(expired);
      expect((await member.client.get(`/projects/${id}/shares`)).body.code).toBe(74);
      expect((await member.client.post(`/projects/${id}/unbind`)).body.code).toBe(74);
      expect(await listIds(member)).not.toContain(id);

      await publishEvent(server.database.db, changed(id, 'AFTER'));
      await until(() => sns(ownerWs.events).includes('AFTER'), 'the owner hears the second event');
      await new Promise((r) => setTimeout(r, 100));
      expect(sns(memberWs.events)).toEqual(['BEFORE']);
    } finally {
      ownerWs.socket.terminate();
      memberWs.socket.terminate();
    }
  });

  it('a deleted share, an unbound member and the previous owner after a transfer answer 73', async () => {
    const owner = await createAccount(server);
    const [deleted, leaver, heir, stays] = await accountsN(4);
    const id = await project(owner);
    for (const m of [deleted, leaver, heir, stays]) {
      expect((await share(owner, id, { account: m.email, permission: 'r' })).body.code).toBe(0);
    }
    expect((await owner.client.delete(`/projects/${id}/shares/${deleted.id}`)).body.code).toBe(0);
    expect(await answers(deleted, id)).toEqual(removed);
    expect((await leaver.client.post(`/projects/${id}/unbind`)).body.code).toBe(0);
    expect(await answers(leaver, id)).toEqual(removed);
    expect((await transfer(owner, id, heir)).body.code).toBe(0);
    expect(await answers(owner, id)).toEqual(removed);
    expect((await owner.client.get(`/projects/${id}/shares`)).body.code).toBe(73);
    expect((await owner.client.post(`/projects/${id}/transfer`, { account: stays.email })).body.code).toBe(
      73,
    );
    expect((await departures(id)).sort()).toEqual(['removed', 'removed', 'removed']);
    // The new owner and the member who stayed are untouched.
    expect((await heir.client.get<ProjectView>(`/projects/${id}`)).body.data.property).toBe('own');
    expect((await stays.client.get(`/projects/${id}`)).body.code).toBe(0);
    expect(await departures(id, heir.id)).toEqual([]);
  });

  it('access given again clears the departure: shared after expiry, invited after a delete (on acceptance), transferred back', async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const heir = await createAccount(server);
    const id = await project(owner);
    await share(owner, id, { account: member.email, permission: 'r', validity: 'timed', hours: 1 });
    server.clock.advance(HOUR + 1000);
    await server.jobs.tick();
    expect(await answers(member, id)).toEqual(expired);

    expect((await share(owner, id, { account: member.email, permission: 'r' })).body.code).toBe(0);
    expect((await member.client.get(`/projects/${id}`)).body.code).toBe(0);
    expect(await departures(id, member.id)).toEqual([]);

    await owner.client.delete(`/projects/${id}/shares/${member.id}`);
    expect(await departures(id, member.id)).toEqual(['removed']);
    const invite = await owner.client.post<{ code: string }>(`/projects/${id}/invites`, {
      account: member.email,
      permission: 'r',
    });
    expect(invite.body.code).toBe(0);
    // An invitation not yet accepted gives nothing back: the account still hears 73.
    expect((await member.client.get(`/projects/${id}`)).body.code).toBe(73);
    expect((await member.client.post(`/invites/${invite.body.data.code}/accept`)).body.code).toBe(0);
    expect(await departures(id, member.id)).toEqual([]);
    expect((await member.client.get<ProjectView>(`/projects/${id}`)).body.data.right).toBe('r');

    expect((await transfer(owner, id, heir)).body.code).toBe(0);
    expect(await answers(owner, id)).toEqual(removed);
    expect((await transfer(heir, id, owner)).body.code).toBe(0);
    expect((await owner.client.get<ProjectView>(`/projects/${id}`)).body.data.property).toBe('own');
    expect(await departures(id, owner.id)).toEqual([]);
    expect(await answers(heir, id)).toEqual(removed);
  });

  it('a stranger who never had access still answers 30 as for an id that does not exist', async () => {
    const owner = await createAccount(server);
    const member = await createAccount(server);
    const stranger = await createAccount(server);
    const id = await project(owner);
    const other = await project(owner);
    expect(await answers(stranger, id)).toEqual(unknown);
    expect(await answers(stranger, 987_654_321)).toEqual(unknown);
    // A departure is of one project: losing `id` says nothing about `other`.
    await share(owner, id, { account: member.email, permission: 'r' });
    await owner.client.delete(`/projects/${id}/shares/${member.id}`);
    expect(await answers(member, id)).toEqual(removed);
    expect(await answers(member, other)).toEqual(unknown);
    // A project that no longer exists is unknown to everyone, whatever they had.
    expect((await owner.client.delete(`/projects/${id}`)).body.code).toBe(0);
    expect(await answers(member, id)).toEqual(unknown);
    expect(await departures(id)).toEqual([]);
  });
});
