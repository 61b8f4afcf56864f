import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { hasChromium, readEmailCode, useBrowser } from './helpers/browser.ts';

/** The machine is shared: allow the UI a few seconds. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

type Envelope<T = unknown> = { code: number; data: T };

/** Calls the API from inside the page (same origin, the page's cookie). */
function call<T = unknown>(page: Page, method: string, path: string, body?: unknown): Promise<Envelope<T>> {
  return page.evaluate(
    async ([m, p, b]) => {
      const res = await fetch(`/api/v1${p}`, {
        method: m as string,
        headers: b === undefined ? {} : { 'content-type': 'application/json' },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      return res.json();
    },
    [method, path, body] as const,
  ) as Promise<Envelope<T>>;
}

/** Signs a new account up through the API in this browser context (the cookie stays in it). */
async function signUp(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  expect((await call(page, 'POST', '/auth/codes', { email, purpose: 'signup' })).code).toBe(0);
  const code = await readEmailCode(email);
  const password = 'e2e-secret-1';
  const res = await call(page, 'POST', '/auth/signup', { email, password, confirmPassword: password, code });
  expect(res.code).toBe(0);
}

/**
 * Sharing as two people use it, each in a browser of their own: the owner offers a read-only share
 * and the member accepts it on its project list, then can look but not save; the owner upgrades
 * the share and the member saves; the owner offers the project by transfer and it moves from one
 * list to the other when the member accepts.
 */
describe.runIf(hasChromium())('sharing in Chromium', () => {
  const browser = useBrowser();

  it('offers a read-only share the member accepts, then upgrades it; the member sees each change', async () => {
    const stamp = Date.now();
    const ownerEmail = `e2e-owner-${stamp}@example.com`;
    const memberEmail = `e2e-member-${stamp}@example.com`;
    const owner = await browser.newPage();
    const member = await browser.newPage();
    await signUp(owner, ownerEmail);
    await signUp(member, memberEmail);
    const created = await call<{ id: number }>(owner, 'POST', '/projects', {
      name: `Shared${stamp % 100000}`,
      scenario: 'hotel',
    });
    expect(created.code).toBe(0);
    const projectId = created.data.id;
    const name = `Shared${stamp % 100000}`;

    // The owner opens the project and shares it read-only from /manage/authority.
    await owner.goto('/overview/list');
    await owner.getByTestId(`project-row-${projectId}`).getByText(name, { exact: true }).click();
    await owner.waitForURL('**/overview/preview');
    await owner.goto('/manage/authority');
    await owner.getByTestId('share-add').click();
    await owner.getByTestId('share-form-target').fill(memberEmail);
    await owner.getByTestId('share-form-submit').click();
    await poll(() => owner.getByTestId('share-table').getByText(memberEmail).count()).toBe(1);
    const shares = await call<{ items: { accountId: number; permission: string; accepted: boolean }[] }>(
      owner,
      'GET',
      `/projects/${projectId}/shares`,
    );
    const memberId = shares.data.items[0].accountId;
    expect(shares.data.items[0]).toMatchObject({ permission: 'r', accepted: false });
    await poll(() => owner.getByTestId(`share-pending-${memberId}`).count()).toBe(1);

    // The offer gives the member nothing until it accepts it, on its project list.
    await member.goto('/overview/list');
    await poll(() => member.getByTestId(`offer-share-${projectId}`).count()).toBe(1);
    expect(await member.getByTestId(`project-row-${projectId}`).count()).toBe(0);
    expect((await call(member, 'GET', `/projects/${projectId}`)).code).toBe(30);
    await member.getByTestId(`offer-accept-share-${projectId}`).click();
    await poll(() => member.getByTestId(`offer-share-${projectId}`).count()).toBe(0);

    // The member sees it, read-only: the edit button is off and the server refuses a save.
    await poll(() => member.getByTestId(`project-row-${projectId}`).count()).toBe(1);
    await member.getByTestId(`project-row-${projectId}`).getByText(name, { exact: true }).click();
    await member.waitForURL('**/overview/preview');
    await poll(() => member.getByTestId('project-edit').isDisabled()).toBe(true);
    expect((await call(member, 'PATCH', `/projects/${projectId}`, { location: 'Nope' })).code).toBe(5032);
    await member.goto('/manage/authority');
    await poll(() => member.getByTestId('share-add').isDisabled()).toBe(true);
    await poll(() => member.getByTestId(`share-delete-${memberId}`).isDisabled()).toBe(true);

    // The owner upgrades the share to read-write.
    await owner.getByTestId(`share-edit-${memberId}`).click();
    await owner.getByTestId('share-form-permission-rw').click();
    await owner.getByTestId('share-form-submit').click();
    await poll(() => owner.getByTestId(`share-permission-${memberId}`).textContent()).toContain('Read-write');

    // Now the member saves a change.
    await member.goto('/overview/preview');
    await poll(() => member.getByTestId('project-edit').isEnabled()).toBe(true);
    await member.getByTestId('project-edit').click();
    await member.getByTestId('project-form-location').fill('Saved by member');
    await member.getByTestId('project-form-submit').click();
    await poll(
      async () => (await call<{ location: string }>(member, 'GET', `/projects/${projectId}`)).data.location,
    ).toBe('Saved by member');
  });

  it('offers the project by transfer: it moves lists when the member accepts; a share lost in use', async () => {
    const stamp = Date.now();
    const ownerEmail = `e2e-giver-${stamp}@example.com`;
    const memberEmail = `e2e-taker-${stamp}@example.com`;
    const owner = await browser.newPage();
    const member = await browser.newPage();
    await signUp(owner, ownerEmail);
    await signUp(member, memberEmail);
    const name = `Given${stamp % 100000}`;
    const created = await call<{ id: number }>(owner, 'POST', '/projects', { name, scenario: 'hotel' });
    expect(created.code).toBe(0);
    const projectId = created.data.id;
    await owner.goto('/overview/list');
    await owner.getByTestId(`project-row-${projectId}`).getByText(name, { exact: true }).click();
    await owner.waitForURL('**/overview/preview');
    await owner.goto('/manage/authority');

    // The owner offers the project to the member: it stays the owner's, shown pending, until the
    // member accepts; then it leaves the owner's list and the member owns it.
    await owner.getByTestId('transfer-open').click();
    await owner.getByTestId('transfer-target').fill(memberEmail);
    await owner.getByTestId('transfer-submit').click();
    await owner.getByTestId('transfer-confirm').click();
    await poll(() => owner.getByTestId('transfer-pending').textContent()).toContain(memberEmail);
    expect((await call(owner, 'GET', `/projects/${projectId}`)).code).toBe(0);

    await member.goto('/overview/list');
    await poll(() => member.getByTestId(`offer-transfer-${projectId}`).count()).toBe(1);
    await member.getByTestId(`offer-accept-transfer-${projectId}`).click();
    await poll(() => member.getByTestId(`offer-transfer-${projectId}`).count()).toBe(0);
    await owner.goto('/overview/list');
    await poll(() => owner.getByTestId(`project-row-${projectId}`).count()).toBe(0);
    // The previous owner lost it by the transfer: 73, not "no such project" (30).
    expect((await call(owner, 'GET', `/projects/${projectId}`)).code).toBe(73);

    await member.goto('/overview/list');
    await poll(() => member.getByTestId(`project-row-${projectId}`).count()).toBe(1);
    const mine = await call<{ property: string; ownerAccount: string }>(
      member,
      'GET',
      `/projects/${projectId}`,
    );
    expect(mine.data).toMatchObject({ property: 'own', ownerAccount: memberEmail });
    await member.getByTestId(`project-row-${projectId}`).getByText(name, { exact: true }).click();
    await member.waitForURL('**/overview/preview');
    await member.goto('/manage/authority');
    await poll(() => member.getByTestId('share-add').isEnabled()).toBe(true);

    // A project lost while in use: the new owner shares it back read-only and the previous owner
    // opens it; the share is deleted, so the previous owner's next screen answers 73, and the
    // console says so, drops the project and returns to the list.
    const back = await call(member, 'POST', `/projects/${projectId}/shares`, {
      account: ownerEmail,
      permission: 'r',
    });
    expect(back.code).toBe(0);
    expect((await call(owner, 'POST', `/offers/share/${projectId}/accept`)).code).toBe(0);
    const storedId = (page: Page) =>
      page.evaluate(() => (JSON.parse(sessionStorage.getItem('project') ?? 'null') as { id?: number })?.id);
    await owner.goto('/overview/list');
    await poll(() => owner.getByTestId(`project-row-${projectId}`).count()).toBe(1);
    await owner.getByTestId(`project-row-${projectId}`).getByText(name, { exact: true }).click();
    await owner.waitForURL('**/overview/preview');
    await poll(() => storedId(owner)).toBe(projectId);
    const ownerId = (await call<{ id: number }>(owner, 'GET', '/account')).data.id;
    expect((await call(member, 'DELETE', `/projects/${projectId}/shares/${ownerId}`)).code).toBe(0);
    await owner.goto('/manage/authority');
    await owner.waitForURL('**/overview/list');
    await poll(() => owner.getByTestId('last-error').textContent()).toContain('invalid for this account');
    await poll(() => storedId(owner)).not.toBe(projectId);
    await poll(() => owner.getByTestId(`project-row-${projectId}`).count()).toBe(0);
  });
});

describe.runIf(hasChromium())('invitations and API keys in Chromium', () => {
  const browser = useBrowser();

  it('an invitation opens the project read-only (SPEC.md §6); the invite form offers no read-write', async () => {
    const stamp = Date.now();
    const owner = await browser.newPage();
    const invitee = await browser.newPage();
    await signUp(owner, `e2e-inviter-${stamp}@example.com`);
    await signUp(invitee, `e2e-invitee-${stamp}@example.com`);
    const name = `Invited${stamp % 100000}`;
    const created = await call<{ id: number }>(owner, 'POST', '/projects', { name, scenario: 'hotel' });
    const projectId = created.data.id;
    const invite = await call<{ link: string }>(owner, 'POST', `/projects/${projectId}/invites`, {});
    expect(invite.code).toBe(0);

    await owner.goto('/overview/list');
    await owner.getByTestId(`project-row-${projectId}`).getByText(name, { exact: true }).click();
    await owner.waitForURL('**/overview/preview');
    await owner.goto('/manage/authority');
    await owner.getByTestId('invite-open').click();
    await poll(() => owner.getByText('An invitation gives read-only access', { exact: false }).count()).toBe(
      1,
    );
    expect(await owner.getByText('Read-write (manageable)').count()).toBe(0);

    await invitee.goto(invite.data.link);
    await invitee.getByTestId('invite-accept').click();
    await poll(async () => (await call(invitee, 'GET', `/projects/${projectId}`)).code).toBe(0);
    await invitee.goto('/overview/list');
    await invitee.getByTestId(`project-row-${projectId}`).getByText(name, { exact: true }).click();
    await invitee.waitForURL('**/overview/preview');
    await poll(() => invitee.getByTestId('project-edit').isDisabled()).toBe(true);
    expect((await call(invitee, 'PATCH', `/projects/${projectId}`, { location: 'X' })).code).toBe(5032);
  });

  it('a password change ends the API keys unless "Keep my API keys" is ticked', async () => {
    const stamp = Date.now();
    const page = await browser.newPage();
    await signUp(page, `e2e-keys-${stamp}@example.com`);
    for (const name of ['first', 'second']) {
      expect((await call(page, 'POST', '/account/api-keys', { name })).code).toBe(0);
    }
    const change = async (from: string, to: string, keep: boolean) => {
      await page.getByTestId('password-old').fill(from);
      await page.getByTestId('password-new').fill(to);
      await page.getByTestId('password-confirm').fill(to);
      if (keep) await page.getByTestId('password-keep-api-keys').check();
      await page.getByTestId('password-submit').click();
      // The form clears itself once the change is saved.
      await poll(() => page.getByTestId('password-old').inputValue()).toBe('');
    };
    await page.goto('/account');
    await poll(() => page.getByTestId('apikey-table').getByText('second').count()).toBe(1);
    await change('e2e-secret-1', 'e2e-secret-2', true);
    await poll(async () => (await call<unknown[]>(page, 'GET', '/account/api-keys')).data.length).toBe(2);
    await change('e2e-secret-2', 'e2e-secret-3', false);
    await poll(() => page.getByTestId('apikey-table').getByText('No API keys yet.').count()).toBe(1);
    expect((await call<unknown[]>(page, 'GET', '/account/api-keys')).data).toEqual([]);
  });
});
