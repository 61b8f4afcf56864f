import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  call,
  createProjectByApi,
  outboxCount,
  PASSWORD,
  readInvitationLink,
  signUpByApi,
} from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';

/** The machine is shared: allow the UI a few seconds. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
const expectAccessible = (page: Page, screen: string) =>
  expect.poll(() => axeViolations(page), { timeout: 15_000, interval: 500, message: screen }).toEqual([]);

const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/** Picks an option of an antd Select by its text. */
async function choose(page: Page, testId: string, text: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .getByText(text, { exact: true })
    .click();
}

/**
 * Issue 15 in Chromium, at desktop and phone width: account management (a subordinate account is
 * created, given a project read-write, and signs in to see it and not the management screen), the
 * web app in openapi mode (an API key handed over by /static/transfer lives in session storage and
 * opens only the openapi menus), and the help centre. axe-core finds no WCAG 2 A/AA violation.
 */
describe.runIf(hasChromium())('accounts and open API in Chromium', () => {
  const browser = useBrowser();

  for (const vp of VIEWPORTS) {
    it(`creates a subordinate account and gives it a project at ${vp.width} px`, {
      timeout: 120_000,
    }, async () => {
      const stamp = `${vp.name}-${Date.now()}`;
      const page = await browser.newPage({ viewport: vp });
      await signUpByApi(page, `e2e-main-${stamp}@example.com`);
      const name = `Team${vp.width}`;
      const projectId = await createProjectByApi(page, name);

      await page.goto('/account/management');
      await page.getByTestId('team-table').waitFor();
      await expectAccessible(page, `account management @${vp.width}`);
      await page.getByTestId('team-add').click();
      const email = `e2e-sub-${stamp}@example.com`;
      await page.getByTestId('subordinate-email').fill(email);
      await page.getByTestId('subordinate-nick').fill(`sub${vp.width}`);
      await choose(page, 'subordinate-role', 'Engineer');
      await expectAccessible(page, `add subordinate @${vp.width}`);
      await page.getByTestId('subordinate-submit').click();
      await page.getByTestId(`team-row-${email}`).waitFor();

      const list = await call<{ id: number; role: number; displayRole: string }[]>(
        page,
        'GET',
        '/account/subordinates',
      );
      const sub = list.data[0];
      expect(sub).toMatchObject({ role: 1, displayRole: 'common' });
      await page.getByTestId(`team-projects-${sub.id}`).click();
      await choose(page, 'grant-project', name);
      await choose(page, 'grant-permission', 'Read and write');
      await page.getByTestId('grant-submit').click();
      await poll(() => page.getByTestId('grant-list').getByText(name).count()).toBe(1);
      await expectAccessible(page, `give a project @${vp.width}`);
      await page.getByTestId('grants-close').click();
      await poll(() => page.getByTestId('team-table').getByText(`${name} · Read and write`).count()).toBe(1);
      await page.screenshot({ path: `/tmp/acc15b-team-${vp.width}.png`, fullPage: true });

      await expect
        .poll(() => page.getByTestId(`team-invitation-${sub.id}`).textContent())
        .toMatch(/Invitation pending/);
      await page.getByTestId(`team-resend-${sub.id}`).click();
      await expect.poll(() => outboxCount(email)).toBe(2);

      // The subordinate sets its password from the invitation mail's link (decision 0068) …
      const subPage = await browser.newPage({ viewport: vp });
      await subPage.goto(await readInvitationLink(email));
      await subPage.getByTestId('invitation-password').fill(PASSWORD);
      await subPage.getByTestId('invitation-confirm').fill(PASSWORD);
      await expectAccessible(subPage, `set your password @${vp.width}`);
      await subPage.getByTestId('invitation-submit').click();
      await subPage.waitForURL('**/login');
      // … which works once.
      const again = await call(subPage, 'POST', '/auth/invitation', {
        email,
        token: new URL(await readInvitationLink(email), 'http://x').searchParams.get('token'),
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      expect(again.code).toBe(5435);

      // It signs in, sees the project read-write, and no account management of its own.
      expect((await call(subPage, 'POST', '/auth/login', { account: email, password: PASSWORD })).code).toBe(
        0,
      );
      const project = await call<{ right: string }>(subPage, 'GET', `/projects/${projectId}`);
      expect(project.data.right).toBe('rw');
      expect((await call(subPage, 'POST', '/projects', { name: 'mine', scenario: 'hotel' })).code).toBe(5444);
      await subPage.goto('/account/management');
      await subPage.getByTestId('team-subordinate').waitFor();
      await expectAccessible(subPage, `account management of a subordinate @${vp.width}`);
    });

    it(`opens the console in openapi mode with an API key at ${vp.width} px`, {
      timeout: 120_000,
    }, async () => {
      const stamp = `${vp.name}-${Date.now()}`;
      const page = await browser.newPage({ viewport: vp });
      await signUpByApi(page, `e2e-keys-${stamp}@example.com`);
      const projectId = await createProjectByApi(page, `Keys${vp.width}`);

      // The API key form: a read-only key limited to the project.
      await page.goto('/account');
      await page.getByTestId('apikey-name').fill('console');
      await choose(page, 'apikey-projects', `Keys${vp.width}`);
      await page.getByTestId('apikey-submit').click();
      const secret = (await page.getByTestId('apikey-secret').innerText()).trim();
      expect(secret.length).toBeGreaterThan(20);
      await page.getByTestId('apikey-done').click();
      await poll(() => page.getByTestId('apikey-table').getByText('1 project').count()).toBe(1);
      await expectAccessible(page, `API keys @${vp.width}`);

      // A browser of its own opens the console with the key, as an integration would.
      const api = await browser.newPage({ viewport: vp });
      await api.goto(`/static/transfer?token=${encodeURIComponent(secret)}&project=${projectId}`);
      await api.waitForURL('**/manage/status');
      await api.getByTestId('page-title').first().waitFor();
      const stored = await api.evaluate(() => ({
        session: Object.keys(sessionStorage),
        local: Object.keys(localStorage).filter((k) => /token/i.test(k)),
        cookie: document.cookie,
      }));
      expect(stored.session.some((k) => /token/i.test(k))).toBe(true);
      expect(stored.local).toEqual([]);
      expect(stored.cookie).not.toMatch(/token=/);
      // Web-only screens are not there: the wireless screen sends the key back to its landing page.
      await api.goto('/manage/wirelessconf');
      await api.waitForURL('**/manage/status');
      await api.getByTestId('page-title').first().waitFor();
      const menuIds = await api
        .locator('[data-menu-id]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-menu-id') ?? ''));
      for (const webOnly of [
        '/manage/wirelessconf',
        '/manage/rfconf',
        '/manage/authority',
        '/overview/list',
      ]) {
        expect(menuIds.some((id) => id.endsWith(webOnly))).toBe(false);
      }
      await expectAccessible(api, `openapi status @${vp.width}`);
      await api.screenshot({ path: `/tmp/acc15b-openapi-${vp.width}.png`, fullPage: true });
      // The key is read-only: the server refuses a write made with it, whatever the screen offers.
      const write = await api.evaluate(
        async ([id, key]) => {
          const res = await fetch(`/api/v1/projects/${id}/alarms/read-all`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: '{}',
          });
          return (await res.json()).code as number;
        },
        [projectId, secret] as const,
      );
      expect(write).toBe(5440);
    });

    it(`shows the help centre at ${vp.width} px`, { timeout: 60_000 }, async () => {
      const page = await browser.newPage({ viewport: vp });
      await page.goto('/help/devices');
      await page.getByTestId('help-devices-steps').waitFor();
      await expectAccessible(page, `help: adding devices @${vp.width}`);
      await page.goto('/help/codes');
      await page.getByTestId('help-codes').waitFor();
      await page.getByTestId('help-codes-search').locator('input').fill('5090');
      await poll(() => page.getByTestId('help-codes').getByText('Use the web console').count()).toBe(1);
      await expectAccessible(page, `help: codes @${vp.width}`);
      await page.goto('/help/protocol');
      const href = await page.getByTestId('help-protocol-document').getAttribute('href');
      expect(href).toBe('/api/v1/help/device-protocol.yaml');
      const doc = await page.evaluate(async (h) => (await fetch(h as string)).text(), href);
      expect(doc).toContain('asyncapi');
      await expectAccessible(page, `help: protocol @${vp.width}`);
    });
  }
});
