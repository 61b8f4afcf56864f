import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, outboxCount, PASSWORD, readOutbox, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { baseUrl, hasChromium, useBrowser } from './helpers/browser.ts';

/**
 * Social sign-in, binding, two-factor sign-in and single-session mode, through the in-process
 * OpenID provider (global-setup) and the built app, at desktop and phone width.
 */
const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900, user: 'alice', second: 'carol' },
  { name: 'phone', width: 390, height: 844, user: 'bob', second: 'dave' },
] as const;

const expectAccessible = (page: Page, screen: string) =>
  expect.poll(() => axeViolations(page), { timeout: 15_000, interval: 500, message: screen }).toEqual([]);

/** On the provider's sign-in screen (oidc-provider's development interaction): sign in as `login`. */
async function signInAtProvider(page: Page, login: string): Promise<void> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any');
  await page.locator('button[type="submit"]').click();
}

const totp = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp: at });

describe.runIf(hasChromium())('sign-in methods in the browser', () => {
  const browser = useBrowser();

  for (const vp of VIEWPORTS) {
    it(`signs in through the OpenID provider, binds a second identity, turns on two-factor sign-in and signs in with it (${vp.name})`, {
      timeout: 120_000,
    }, async () => {
      const page = await browser.newPage({ viewport: { width: vp.width, height: vp.height } });
      await page.goto('/login');
      await page.getByTestId('social-google').click();
      await signInAtProvider(page, vp.user);
      await page.waitForURL('**/overview/preview');

      // A second identity: the messaging app, landing on /static/wechatTransfer.
      await page.goto('/account');
      await page.getByTestId('bind-wechat').click();
      // The provider still knows the person: it may send the browser straight back.
      await Promise.race([
        page
          .locator('input[name="login"]')
          .waitFor()
          .then(() => signInAtProvider(page, vp.second)),
        page.waitForURL('**/account'),
      ]);
      await page.waitForURL('**/account');
      await expect.poll(() => page.getByTestId('identity-wechat').textContent()).toMatch(/Bound:/);
      await expect.poll(() => page.getByTestId('identity-google').textContent()).toMatch(/Bound:/);
      await expectAccessible(page, `account sign-in cards @${vp.width}`);

      // A refused state: a callback this browser did not start.
      await page.goto('/static/wechatTransfer?code=forged&state=forged');
      await expect
        .poll(() => page.getByTestId('social-error').textContent())
        .toMatch(/could not be verified/);
      await expectAccessible(page, `refused callback @${vp.width}`);

      // Two-factor sign-in on.
      await page.goto('/account');
      await page.getByTestId('two-factor-start').click();
      const secret = (await page.getByTestId('two-factor-secret').textContent())?.trim() ?? '';
      expect(secret).toMatch(/^[A-Z2-7]+$/);
      await page.getByTestId('two-factor-code').fill(totp(secret, Date.now()));
      await page.getByTestId('two-factor-submit').click();
      await expect
        .poll(() => page.getByTestId('recovery-codes').textContent())
        .toMatch(/^([a-z0-9]{4}-[a-z0-9]{4}\n?){10}$/);
      await page.getByRole('button', { name: 'Done' }).click();
      await expect.poll(() => page.getByTestId('two-factor-state').textContent()).toMatch(/On:/);
      await page.screenshot({
        path: path.resolve(import.meta.dirname, `artifacts/sign-in-methods-account-${vp.name}.png`),
        fullPage: true,
      });

      // Sign out, then in again with the provider: the second factor is asked for.
      await call(page, 'POST', '/auth/logout');
      await page.goto('/login');
      await page.getByTestId('social-wechat').click();
      await Promise.race([
        page
          .locator('input[name="login"]')
          .waitFor()
          .then(() => signInAtProvider(page, vp.second)),
        page.getByTestId('second-factor-code').waitFor(),
      ]);
      await page.getByTestId('second-factor-code').waitFor();
      await expectAccessible(page, `second factor @${vp.width}`);
      // The next step's code: the one that turned it on is used up.
      await page.getByTestId('second-factor-code').fill(totp(secret, Date.now() + 30_000));
      await page.getByTestId('second-factor-submit').click();
      await page.waitForURL('**/overview/preview');
    });
  }

  it('tells a displaced session that the account logged in elsewhere (single-session mode)', {
    timeout: 60_000,
  }, async () => {
    const first = await browser.newPage();
    const email = `e2e-single-${Date.now()}@example.com`;
    await signUpByApi(first, email);
    expect((await call(first, 'PUT', '/account/single-session', { enabled: true })).code).toBe(0);
    await first.goto('/overview/list');
    await first.getByTestId('page-title').first().waitFor();

    const second = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await second.goto('/login');
    await second.getByTestId('login-account').fill(email);
    await second.getByTestId('login-password').fill(PASSWORD);
    await second.getByTestId('login-submit').click();
    await second.waitForURL('**/overview/preview');

    await first.goto('/account');
    await first.getByTestId('elsewhere-notice').waitFor();
    await expectAccessible(first, 'logged in elsewhere');
  });

  for (const vp of VIEWPORTS) {
    it(`signs in with a verified phone number, by password and by SMS code, and past the other app (69) (${vp.name})`, {
      timeout: 120_000,
    }, async () => {
      const viewport = { width: vp.width, height: vp.height };
      const owner = await browser.newPage({ viewport });
      const email = `e2e-phone-${vp.name}-${Date.now()}@example.com`;
      await signUpByApi(owner, email);
      const phone = `13${String(Date.now()).slice(-9)}`;
      const to = `+86${phone}`;
      expect((await call(owner, 'POST', '/account/phone/code', { phone })).code).toBe(0);
      const [, verifyCode] = await readOutbox(to, /\b(\d{4})\b/);
      expect((await call(owner, 'PUT', '/account/phone', { phone, code: verifyCode })).code).toBe(0);
      await owner.close();

      // The Phone tab, with the password.
      const page = await browser.newPage({ viewport });
      await page.goto('/login');
      await page.getByTestId('login-tab-phone').click();
      await page.getByTestId('login-phone-number').fill(phone);
      await page.getByTestId('login-phone-password').fill(PASSWORD);
      await expectAccessible(page, `phone sign-in @${vp.width}`);
      await page.getByTestId('login-phone-submit').click();
      await page.waitForURL('**/overview/preview');
      await call(page, 'POST', '/auth/logout');

      // With an SMS code.
      await page.goto('/login');
      await page.getByTestId('login-tab-phone').click();
      await page.getByTestId('login-phone-number').fill(phone);
      await page.getByTestId('login-phone-method').getByText('SMS code').click();
      const sent = await outboxCount(to);
      await page.getByTestId('login-phone-send').click();
      const [, code] = await readOutbox(to, /\b(\d{4})\b/, sent);
      await page.getByTestId('login-phone-code').fill(code);
      await expectAccessible(page, `phone sign-in by SMS code @${vp.width}`);
      await page.getByTestId('login-phone-submit').click();
      await page.waitForURL('**/overview/preview');

      // Single-session mode, and the account's app signs in (X-Beacon-Client: app) …
      expect((await call(page, 'PUT', '/account/single-session', { enabled: true })).code).toBe(0);
      const app = await fetch(`${baseUrl()}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-beacon-client': 'app', origin: baseUrl() },
        body: JSON.stringify({ account: email, password: PASSWORD, force: true }),
      });
      expect(((await app.json()) as { code: number }).code).toBe(0);
      // … so the console asks before it ends the app's session (69).
      const again = await browser.newPage({ viewport });
      await again.goto('/login');
      await again.getByTestId('login-tab-phone').click();
      await again.getByTestId('login-phone-number').fill(phone);
      await again.getByTestId('login-phone-password').fill(PASSWORD);
      await again.getByTestId('login-phone-submit').click();
      await again.getByTestId('other-app-notice').waitFor();
      await expectAccessible(again, `other app online @${vp.width}`);
      await again.screenshot({
        path: path.resolve(import.meta.dirname, `artifacts/sign-in-other-app-${vp.name}.png`),
        fullPage: true,
      });
      await again.getByTestId('sign-in-anyway').click();
      await again.waitForURL('**/overview/preview');
    });
  }
});
