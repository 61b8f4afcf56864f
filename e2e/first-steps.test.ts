import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, createProjectByApi, freshSn, PASSWORD, signUpByApi } from './helpers/account.ts';
import { hasChromium, readEmailCode, useBrowser } from './helpers/browser.ts';

/** The machine is shared: allow the UI a few seconds (expect.poll alone gives up after one). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

const SESSION_ENDED = 'Your session has ended. Please log in again.';

/** Collects what a page throws unhandled, an "Uncaught (in promise)" included. */
function uncaught(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

async function logIn(page: Page, email: string): Promise<void> {
  await page.getByTestId('login-account').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
}

/** What a new user trips over (issue 7), each as they would meet it in Chromium. */
describe.runIf(hasChromium())('a new user in Chromium', () => {
  const browser = useBrowser();

  it('sees no "session ended" on a first visit, and is told when a session really ended', async () => {
    const page = await browser.newPage();
    await page.goto('/');
    await page.waitForURL('**/login**');
    await page.getByTestId('login-submit').waitFor();
    expect(await page.getByText(SESSION_ENDED).count()).toBe(0);

    // Signed in, then the session ends on the server (logged out elsewhere): now it is said.
    const email = `e2e-ended-${Date.now()}@example.com`;
    await signUpByApi(page, email);
    await page.goto('/overview/list');
    await page.getByTestId('create-project').waitFor();
    const cookies = await page.context().cookies();
    const other = await browser.newPage();
    await other.context().addCookies(cookies);
    await other.goto('/login');
    expect((await call(other, 'POST', '/auth/logout')).code).toBe(0);
    await page.getByTestId('nav-overview-preview').click();
    await page.waitForURL('**/login**');
    await poll(() => page.getByText(SESSION_ENDED).isVisible()).toBe(true);
  });

  it('returns to a deep link after login and after sign-up, and never to another site', async () => {
    const page = await browser.newPage();
    const email = `e2e-deep-${Date.now()}@example.com`;
    await signUpByApi(page, email);
    await page.context().clearCookies();

    await page.goto('/manage/devconf?q=1');
    await page.waitForURL('**/login?next=**');
    expect(await page.getByText(SESSION_ENDED).count()).toBe(0);
    await logIn(page, email);
    await page.waitForURL((url) => url.pathname === '/manage/devconf' && url.search === '?q=1');

    // An invite link opened signed out, by someone who signs up from the login page.
    const invitee = await browser.newPage();
    await invitee.goto('/invite/NOSUCHCODE42');
    await invitee.waitForURL('**/login?next=**');
    await invitee.getByTestId('link-signup').click();
    await invitee.waitForURL('**/signup?next=**');
    const newcomer = `e2e-invitee-${Date.now()}@example.com`;
    await invitee.getByTestId('signup-email').fill(newcomer);
    await invitee.getByTestId('signup-send-code').click();
    await invitee.getByTestId('signup-code').fill(await readEmailCode(newcomer));
    await invitee.getByTestId('signup-password').fill(PASSWORD);
    await invitee.getByTestId('signup-confirm').fill(PASSWORD);
    await invitee.getByTestId('signup-submit').click();
    await invitee.waitForURL((url) => url.pathname === '/invite/NOSUCHCODE42');

    // No open redirect: a next that leaves the app is ignored.
    await page.context().clearCookies();
    for (const next of ['//evil.example/x', 'https://evil.example/x', '/\\evil.example']) {
      await page.goto(`/login?next=${encodeURIComponent(next)}`);
      await logIn(page, email);
      await page.waitForURL('**/overview/preview');
      expect(new URL(page.url()).host).toBe(new URL(await page.evaluate(() => location.origin)).host);
      await page.context().clearCookies();
    }
  });

  it('adds a device in advance by model, without an uncaught error on a refused add', async () => {
    const page = await browser.newPage();
    const errors = uncaught(page);
    await signUpByApi(page, `e2e-model-${Date.now()}@example.com`);
    const projectId = await createProjectByApi(page, 'E2E-Model');
    await page.goto('/overview/list');
    await page.getByTestId(`project-row-${projectId}`).click();
    await page.waitForURL('**/overview/preview');
    await page.goto('/manage/devconf');

    await page.getByTestId('add-device').click();
    await page.getByTestId('add-device-sn').fill('TOO-SHORT');
    await page.getByTestId('add-device-submit').click();
    await poll(() => page.getByText('Serial number can contain only letters and digits').isVisible()).toBe(
      true,
    );

    // A device that never connected, without its model: the server refuses and says why, on the field.
    const sn = freshSn('E2EPREPROV');
    await page.getByTestId('add-device-sn').fill(sn);
    await page.getByTestId('add-device-submit').click();
    await poll(() => page.getByText('Required for a device that has never connected').isVisible()).toBe(true);

    await page.getByTestId('add-device-model').click();
    await page.keyboard.type('BA-W1200C');
    await page.keyboard.press('Enter');
    await page.getByTestId('add-device-submit').click();
    await poll(() => page.getByTestId(`device-row-${sn}`).count()).toBe(1);
    expect(await page.getByTestId(`device-row-${sn}`).textContent()).toContain('BA-W1200C');
    // None reported: the cell says so instead of being blank.
    expect(await page.getByTestId(`device-uplink-none-${sn}`).textContent()).toContain(
      'The device reports no uplink neighbour',
    );

    // The same in the device's rename dialog: an empty name is refused on the field, not thrown.
    await page.getByTestId(`device-open-${sn}`).click();
    await page.getByTestId('device-edit').click();
    await page.getByTestId('device-edit-name').fill('');
    await page.getByTestId('device-edit-submit').click();
    await poll(() => page.getByText('The device name cannot be empty').isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('selects a project it creates, and the activity names it', async () => {
    const page = await browser.newPage();
    await signUpByApi(page, `e2e-select-${Date.now()}@example.com`);
    await page.goto('/overview/list');
    await page.getByTestId('create-project').click();
    await page.getByTestId('project-form-name').fill('E2E-Fresh');
    await page.getByTestId('project-form-submit').click();
    await poll(() => page.getByTestId('project-switcher').textContent()).toContain('E2E-Fresh');

    await page.getByTestId('nav-overview-preview').click();
    await poll(() => page.getByTestId('project-facts-name').textContent()).toBe('E2E-Fresh');
    const logs = page.getByTestId('project-logs');
    await poll(() => logs.textContent()).toContain('Project E2E-Fresh');
    expect(await logs.textContent()).toContain('Created');
  });

  it('fits the device table in a 1440 px window and keeps the chosen columns for the account', async () => {
    const page = await browser.newPage();
    await signUpByApi(page, `e2e-columns-${Date.now()}@example.com`);
    const projectId = await createProjectByApi(page, 'E2E-Columns');
    const sn = freshSn('E2ECOLUMNS');
    expect(
      (await call(page, 'POST', `/projects/${projectId}/devices`, { sn, model: 'BS-S1008P' })).code,
    ).toBe(0);
    await page.goto('/overview/list');
    await page.getByTestId(`project-row-${projectId}`).click();
    await page.waitForURL('**/overview/preview');
    await page.goto('/manage/devconf');
    await poll(() => page.getByTestId(`device-row-${sn}`).count()).toBe(1);

    const table = page.getByTestId('device-table');
    const overflow = () =>
      table.evaluate((el) => {
        const box = el.querySelector('.ant-table-content, .ant-table-body') as HTMLElement;
        return box.scrollWidth - box.clientWidth;
      });
    await poll(overflow).toBeLessThanOrEqual(0);
    const headers = () => table.locator('thead th').allTextContents();
    expect(await headers()).toEqual(
      expect.arrayContaining(['Name / remark', 'Status', 'IP', 'Uplink', 'Actions']),
    );
    expect(await headers()).not.toContain('MAC');

    await page.getByTestId('device-columns').click();
    await page.getByTestId('device-columns-mac').click();
    // Named steps: a first try once failed here with the MAC column missing, and the message did
    // not say whether after the choice or after the reload (the choice then not stored).
    await expect
      .poll(headers, { timeout: 10_000, message: 'after choosing MAC in the column chooser' })
      .toContain('MAC');
    await page.reload();
    await poll(() => page.getByTestId(`device-row-${sn}`).count()).toBe(1);
    await expect
      .poll(headers, {
        timeout: 10_000,
        message: `after a reload (stored choice: ${await page.evaluate(() => JSON.stringify(Object.entries(localStorage).filter(([k]) => /column/i.test(k))))})`,
      })
      .toContain('MAC');
  });

  it('is usable on a 390 px phone: menu drawer, whole-word titles, scrolling table, fitting drawer', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signUpByApi(page, `e2e-phone-${Date.now()}@example.com`);
    const projectId = await createProjectByApi(page, 'E2E-Phone');
    const sn = freshSn('E2EPHONE');
    expect(
      (await call(page, 'POST', `/projects/${projectId}/devices`, { sn, model: 'BA-W1200C' })).code,
    ).toBe(0);
    await page.goto('/overview/list');
    await page.getByTestId(`project-row-${projectId}`).click();
    await page.waitForURL('**/overview/preview');

    // The menu is not a column eating the screen: it opens as a drawer and closes on a choice.
    expect(await page.getByTestId('nav-menu').count()).toBe(0);
    await page.getByTestId('nav-toggle').click();
    await page.getByTestId('nav-manage-devconf').click();
    await page.waitForURL('**/manage/devconf');
    await poll(() => page.getByTestId('nav-menu').isVisible()).toBe(false);

    const title = page.getByTestId('page-title');
    await poll(() => title.textContent()).toBe('Device maintenance');
    const titleBox = await title.boundingBox();
    expect(titleBox!.height).toBeLessThan(40);

    await poll(() => page.getByTestId(`device-row-${sn}`).count()).toBe(1);
    const table = page.getByTestId('device-table');
    const scroll = await table.evaluate((el) => {
      const box = el.querySelector('.ant-table-content, .ant-table-body') as HTMLElement;
      return {
        scrollWidth: box.scrollWidth,
        clientWidth: box.clientWidth,
        right: box.getBoundingClientRect().right,
      };
    });
    expect(scroll.scrollWidth).toBeGreaterThan(scroll.clientWidth);
    expect(scroll.right).toBeLessThanOrEqual(390);
    const nameCell = await page.getByTestId(`device-open-${sn}`).boundingBox();
    expect(nameCell!.x + nameCell!.width).toBeLessThanOrEqual(390);

    await page.getByTestId(`device-open-${sn}`).click();
    const facts = page.getByTestId('device-facts');
    await facts.waitFor();
    await poll(async () => {
      const box = await facts.boundingBox();
      return box ? box.x >= 0 && box.x + box.width <= 390 : false;
    }).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
