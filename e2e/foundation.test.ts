import { describe, expect, it } from 'vitest';
import { hasChromium, readEmailCode, useBrowser } from './helpers/browser.ts';

/** The machine is shared: allow the UI a few seconds (expect.poll alone gives up after one). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

/**
 * The foundation as a person uses it: sign up with the code from the mail, sign in, create a WLAN
 * and a MESH project, see the menus differ, be refused a change to the demo project, log out.
 */
describe.runIf(hasChromium())('foundation in Chromium', () => {
  const browser = useBrowser();

  it('signs up, manages projects, sees gated menus, is refused on the demo project, logs out', async () => {
    const page = await browser.newPage();
    const email = `e2e-${Date.now()}@example.com`;
    const password = 'e2e-secret-1';

    await page.goto('/signup');
    await page.getByTestId('signup-email').fill(email);
    await page.getByTestId('signup-send-code').click();
    const code = await readEmailCode(email);
    await page.getByTestId('signup-code').fill(code);
    await page.getByTestId('signup-password').fill(password);
    await page.getByTestId('signup-confirm').fill('not-the-same');
    await page.getByTestId('signup-submit').click();
    await poll(() => page.getByText('Inconsistent passwords').first().isVisible()).toBe(true);
    await page.getByTestId('signup-confirm').fill(password);
    await page.getByTestId('signup-submit').click();
    await page.waitForURL('**/overview/preview');

    // Log out and back in through the login screen.
    await page.getByTestId('account-menu').click();
    await page.getByTestId('logout').click();
    await page.waitForURL('**/login**');
    await page.getByTestId('login-account').fill(email);
    await page.getByTestId('login-password').fill(password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL('**/overview/preview');

    // Create a WLAN and a MESH project from the project list.
    await page.goto('/overview/list');
    for (const [name, mode] of [
      ['E2E-WLAN', 'WLAN'],
      ['E2E-MESH', 'MESH'],
    ] as const) {
      await page.getByTestId('create-project').click();
      await page.getByTestId('project-form-name').fill(name);
      await page.getByTestId(`project-form-netmode-${mode.toLowerCase()}`).click();
      await page.getByTestId('project-form-submit').click();
      await poll(() => page.getByText(name, { exact: true }).first().isVisible()).toBe(true);
    }

    // RF optimisation and backup are WLAN only.
    await page.getByText('E2E-WLAN', { exact: true }).first().click();
    await page.waitForURL('**/overview/preview');
    await poll(() => page.getByTestId('nav-manage-rfconf').count()).toBe(1);
    await poll(() => page.getByTestId('nav-manage-backup').count()).toBe(1);
    await page.goto('/overview/list');
    await page.getByText('E2E-MESH', { exact: true }).first().click();
    await page.waitForURL('**/overview/preview');
    await poll(() => page.getByTestId('nav-manage-rfconf').count()).toBe(0);
    await poll(() => page.getByTestId('nav-manage-backup').count()).toBe(0);
    await poll(() => page.getByTestId('nav-manage-status').count()).toBe(1);

    // The demo project is visible but refuses changes, on the server too.
    await page.goto('/overview/list');
    await poll(() => page.getByTestId('project-row-500000').isVisible()).toBe(true);
    const refused = await page.evaluate(async () => {
      const res = await fetch('/api/v1/projects/500000', {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Hacked' }),
      });
      return (await res.json()) as { code: number };
    });
    expect(refused.code).toBe(5031);

    await page.getByTestId('account-menu').click();
    await page.getByTestId('logout').click();
    await page.waitForURL('**/login**');
    const session = await page.evaluate(
      async () => (await (await fetch('/api/v1/auth/session')).json()) as { code: number },
    );
    expect(session.code).toBe(9);
  });
});
