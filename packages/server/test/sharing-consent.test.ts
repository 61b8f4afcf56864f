import type { OfferList, ProjectView, ShareList, ShareView } from '@beacon/protocol';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, projectMembers } from '../src/db/schema.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Issue 7: a share or a transfer to another account is an offer that account accepts
 * (docs/decisions/0022-consent-to-shares-and-transfers.md). Offers grant nothing and use none of
 * the receiving account's limits; the limits and codes hold when it accepts.
 */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    SHARE_MAX_READ: '2',
    SHARE_MAX_READ_WRITE: '2',
    MAX_PROJECTS_PER_ACCOUNT: '2',
    JOB_POLL_MS: '0',
  });
});
afterAll(() => server?.close());

let names = 0;
async function project(owner: TestAccount): Promise<number> {
  const res = await owner.client.post<ProjectView>('/projects', { name: `cs${++names}`, scenario: 'hotel' });
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data.id;
}

async function accountsN(n: number): Promise<TestAccount[]> {
  const out: TestAccount[] = [];
  for (let i = 0; i < n; i++) out.push(await createAccount(server));
  return out;
}

async function listIds(account: TestAccount): Promise<number[]> {
  const res = await account.client.get<{ items: ProjectView[] }>('/projects?pageSize=200');
  return res.body.data.items.filter((p) => !p.isDemo).map((p) => p.id);
}

async function offers(account: TestAccount): Promise<OfferList['items']> {
  const res = await account.client.get<OfferList>('/offers');
  expect(res.body.code, JSON.stringify(res.body)).toBe(0);
  return res.body.data.items;
}

async function auditRows(projectId: number, action: string): Promise<number> {
  const [row] = await server.database.db
    .select({ n: count() })
    .from(auditLog)
    .where(and(eq(auditLog.projectId, projectId), eq(auditLog.action, action)));
  return row.n;
}

const offerShare = (owner: TestAccount, id: number, to: TestAccount, body: Record<string, unknown> = {}) =>
  owner.client.post<ShareView>(`/projects/${id}/shares`, { account: to.email, permission: 'r', ...body });
const accept = (account: TestAccount, kind: 'share' | 'transfer', id: number) =>
  account.client.post<{ projectId: number; ownerAccount?: string }>(`/offers/${kind}/${id}/accept`);
const decline = (account: TestAccount, kind: 'share' | 'transfer', id: number) =>
  account.client.post(`/offers/${kind}/${id}/decline`);

describe('a share is an offer the receiving account accepts', () => {
  it('grants nothing until accepted; the receiver sees the offer, the owner sees it pending', async () => {
    const owner = await createAccount(server);
    const receiver = await createAccount(server);
    const id = await project(owner);
    const res = await offerShare(owner, id, receiver, { permission: 'rw', validity: 'timed', hours: 5 });
    expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    expect(res.body.data).toMatchObject({ accountId: receiver.id, accepted: false, permission: 'rw' });

    // Nothing reaches the receiver before it says yes: not the list, not the project.
    expect(await listIds(receiver)).not.toContain(id);
    expect((await receiver.client.get(`/projects/${id}`)).body.code).toBe(30);
    expect(
      await server.database.db.select().from(projectMembers).where(eq(projectMembers.projectId, id)),
    ).toEqual([]);
    expect(await offers(receiver)).toEqual([
      {
        kind: 'share',
        projectId: id,
        projectName: `cs${names}`,
        fromAccount: owner.email,
        permission: 'rw',
        validity: 'timed',
        hours: 5,
        offeredAt: expect.any(String),
      },
    ]);
    const pending = await owner.client.get<ShareList>(`/projects/${id}/shares`);
    expect(pending.body.data.items).toMatchObject([{ accountId: receiver.id, accepted: false, hours: 5 }]);

    // The owner may still change the terms; the account accepts what the offer says then.
    const changed = await owner.client.patch<ShareView>(`/projects/${id}/shares/${receiver.id}`, {
      permission: 'r',
    });
    expect(changed.body.data).toMatchObject({ permission: 'r', accepted: false });

    server.clock.advance(3_600_000);
    const ok = await accept(receiver, 'share', id);
    expect(ok.body).toMatchObject({ code: 0, data: { projectId: id } });
    const seen = await receiver.client.get<ProjectView>(`/projects/${id}`);
    expect(seen.body.data).toMatchObject({ right: 'r', property: 'shared_read', isShare: true });
    const [share] = (await owner.client.get<ShareList>(`/projects/${id}/shares`)).body.data.items;
    expect(share).toMatchObject({
      accepted: true,
      permission: 'r',
      validity: 'timed',
      hours: 5,
      via: 'share',
    });
    // A timed share runs from the acceptance, not from the offer.
    const expires = new Date(share.expiresAt ?? 0).getTime();
    expect(Math.abs(expires - (server.clock.now().getTime() + 5 * 3_600_000))).toBeLessThan(60_000);
    expect(await offers(receiver)).toEqual([]);
    expect(await auditRows(id, 'offer')).toBe(1);
    expect(await auditRows(id, 'accept')).toBe(1);
    const again = await accept(receiver, 'share', id);
    expect({ status: again.status, code: again.body.code }).toEqual({ status: 404, code: 5091 });
  });

  it('can be declined by the receiver or withdrawn by the owner', async () => {
    const owner = await createAccount(server);
    const [a, b] = await accountsN(2);
    const id = await project(owner);
    await offerShare(owner, id, a);
    await offerShare(owner, id, b);
    expect((await decline(a, 'share', id)).body).toMatchObject({ code: 0, data: { projectId: id } });
    expect((await owner.client.delete(`/projects/${id}/shares/${b.id}`)).body.code).toBe(0);
    expect((await accept(a, 'share', id)).body.code).toBe(5091);
    expect((await accept(b, 'share', id)).body.code).toBe(5091);
    expect((await owner.client.get<ShareList>(`/projects/${id}/shares`)).body.data.items).toEqual([]);
    expect(await auditRows(id, 'decline')).toBe(1);
  });

  it('offers use none of the receiving account quota: strangers cannot exhaust 61 or 62', async () => {
    const victim = await createAccount(server);
    const strangers = await accountsN(4);
    const ids: number[] = [];
    for (const s of strangers) ids.push(await project(s));
    // Four strangers offer read-only and read-write shares; every offer is taken, none counts.
    for (const [i, s] of strangers.entries()) {
      const res = await offerShare(s, ids[i], victim, { permission: i % 2 === 0 ? 'r' : 'rw' });
      expect(res.body.code, JSON.stringify(res.body)).toBe(0);
    }
    // The account's own choices still have their full limits (2 and 2 here).
    const friends = await accountsN(4);
    for (const [i, f] of friends.entries()) {
      const fid = await project(f);
      const res = await offerShare(f, fid, victim, { permission: i < 2 ? 'r' : 'rw' });
      expect(res.body.code, JSON.stringify(res.body)).toBe(0);
      expect((await accept(victim, 'share', fid)).body.code).toBe(0);
    }
    // Accepting one more now meets the limits, with their codes.
    const third = await accept(victim, 'share', ids[0]);
    expect({ status: third.status, code: third.body.code }).toEqual({ status: 409, code: 61 });
    expect((await accept(victim, 'share', ids[1])).body.code).toBe(62);
    // The refused offers are still there to decline.
    expect((await offers(victim)).map((o) => o.projectId).sort()).toEqual([...ids].sort());
  });

  it('holds the project limits (62) and 21/63 at acceptance time', async () => {
    const owner = await createAccount(server);
    const id = await project(owner);
    const members = await accountsN(4);
    // Three permanent managers may be offered (offers count toward the project's own slots)...
    for (const m of members.slice(0, 3)) {
      expect((await offerShare(owner, id, m, { permission: 'rw' })).body.code).toBe(0);
    }
    expect((await offerShare(owner, id, members[3], { permission: 'rw' })).body.code).toBe(62);
    // ...and an offer answers 21 / 63 like a share would.
    expect((await offerShare(owner, id, members[0], { permission: 'rw' })).body.code).toBe(21);
    expect((await offerShare(owner, id, members[0], { permission: 'r' })).body.code).toBe(63);

    // An account that got in through an invitation meanwhile cannot also accept the offer.
    const invite = await owner.client.post<{ code: string }>(`/projects/${id}/invites`, {});
    expect((await members[1].client.post(`/invites/${invite.body.data.code}/accept`)).body.code).toBe(0);
    expect((await accept(members[1], 'share', id)).body.code).toBe(63);
  });
});

describe('a transfer is an offer the receiving account accepts', () => {
  it('leaves the project with its owner until the target accepts; the owner sees it pending', async () => {
    const owner = await createAccount(server);
    const target = await createAccount(server);
    const id = await project(owner);
    const res = await owner.client.post(`/projects/${id}/transfer`, { account: target.email });
    expect(res.body).toMatchObject({
      code: 0,
      data: { projectId: id, ownerAccount: owner.email, toAccount: target.email, pending: true },
    });
    expect(await listIds(owner)).toContain(id);
    expect((await target.client.get(`/projects/${id}`)).body.code).toBe(30);
    expect(await offers(target)).toMatchObject([
      { kind: 'transfer', projectId: id, fromAccount: owner.email },
    ]);
    const shares = await owner.client.get<ShareList>(`/projects/${id}/shares`);
    expect(shares.body.data.transfer).toMatchObject({ account: target.email });

    const done = await accept(target, 'transfer', id);
    expect(done.body).toMatchObject({ code: 0, data: { projectId: id, ownerAccount: target.email } });
    expect((await target.client.get<ProjectView>(`/projects/${id}`)).body.data.property).toBe('own');
    expect((await owner.client.get(`/projects/${id}`)).body.code).toBe(73);
    expect(await offers(target)).toEqual([]);
  });

  it('can be declined by the target or withdrawn by the owner', async () => {
    const owner = await createAccount(server);
    const [a, b] = await accountsN(2);
    const id = await project(owner);
    await owner.client.post(`/projects/${id}/transfer`, { account: a.email });
    expect((await decline(a, 'transfer', id)).body.code).toBe(0);
    expect((await accept(a, 'transfer', id)).body.code).toBe(5091);
    // A new offer replaces the pending one; the owner withdraws it.
    await owner.client.post(`/projects/${id}/transfer`, { account: a.email });
    await owner.client.post(`/projects/${id}/transfer`, { account: b.email });
    expect((await accept(a, 'transfer', id)).body.code).toBe(5091);
    expect((await owner.client.delete(`/projects/${id}/transfer`)).body.code).toBe(0);
    expect((await accept(b, 'transfer', id)).body.code).toBe(5091);
    expect((await owner.client.delete(`/projects/${id}/transfer`)).body.code).toBe(5033);
    expect((await owner.client.get<ShareList>(`/projects/${id}/shares`)).body.data.transfer).toBeNull();
    expect(await listIds(owner)).toContain(id);
  });

  it('cannot fill an account up: the project count limit (5004) holds when the target accepts', async () => {
    const target = await createAccount(server);
    const givers = await accountsN(3);
    const ids: number[] = [];
    for (const g of givers) ids.push(await project(g));
    // Three transfers offered to an account that may own two projects: all of them are offers.
    for (const [i, g] of givers.entries()) {
      const res = await g.client.post(`/projects/${ids[i]}/transfer`, { account: target.email });
      expect(res.body.code, JSON.stringify(res.body)).toBe(0);
      expect(await listIds(g)).toContain(ids[i]);
    }
    expect(await listIds(target)).toEqual([]);
    expect((await accept(target, 'transfer', ids[0])).body.code).toBe(0);
    expect((await accept(target, 'transfer', ids[1])).body.code).toBe(0);
    const third = await accept(target, 'transfer', ids[2]);
    expect({ status: third.status, code: third.body.code }).toEqual({ status: 409, code: 5004 });
    expect(await listIds(givers[2])).toContain(ids[2]);
  });
});
