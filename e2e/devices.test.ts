import { describe, expect, inject, it } from 'vitest';
import { openProjectRow, signUpInBrowser } from './helpers/account.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';

/** The machine is shared: allow the UI a few seconds (expect.poll alone gives up after one). */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });

/**
 * Device maintenance as a person uses it: add a powered-on pool device by its serial number, watch
 * it come online, reboot it and watch the status go to Rebooting and back to Online without a
 * reload (WebSocket /api/v1/events). The pool runs at time scale 0.05 (e2e/helpers/devices.ts).
 */
describe.runIf(hasChromium())('device maintenance in Chromium', () => {
  const browser = useBrowser();

  it('adds a pool device by SN, sees it online, reboots it and sees the status change live', async () => {
    const page = await browser.newPage();
    const email = `e2e-dev-${Date.now()}@example.com`;
    const password = 'e2e-secret-1';
    const [sn] = inject('devicePool');

    await signUpInBrowser(page, email, password);

    await page.goto('/overview/list');
    await page.getByTestId('create-project').click();
    await page.getByTestId('project-form-name').fill('E2E-Devices');
    await page.getByTestId('project-form-netmode-wlan').click();
    await page.getByTestId('project-form-submit').click();
    await poll(() => page.getByText('E2E-Devices', { exact: true }).first().isVisible()).toBe(true);
    await openProjectRow(page, 'E2E-Devices');

    await page.goto('/manage/devconf');
    await page.getByTestId('add-device').click();
    await page.getByTestId('add-device-sn').fill('TOO-SHORT');
    await page.getByTestId('add-device-submit').click();
    await expect
      .poll(() => page.getByText('Serial number can contain only letters and digits').isVisible())
      .toBe(true);
    await page.getByTestId('add-device-sn').fill(sn);
    await page.getByTestId('add-device-submit').click();

    const status = page.getByTestId(`device-status-${sn}`).first();
    await expect.poll(() => page.getByTestId(`device-row-${sn}`).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 15_000 }).toBe('1');
    expect(await status.textContent()).toBe('Online');

    // Reboot from the detail drawer, with a confirmation that names the expected duration.
    await page.getByTestId(`device-open-${sn}`).click();
    await page.getByTestId('device-action-reboot').click();
    await poll(() => page.getByTestId('confirm-text').textContent()).toContain('about 1 minute.');
    await page.getByTestId('confirm-ok').click();

    // Live: Rebooting (8, warning) then Online (1), without reloading the page.
    // Code and text read together, in the page: the reboot lasts 3 s, and read one after the other
    // the text could already be the next status's.
    const shown = () => status.evaluate((el) => `${el.getAttribute('data-status')} ${el.textContent}`);
    await expect.poll(shown, { timeout: 10_000, interval: 100 }).toBe('8 Rebooting');
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 20_000, interval: 200 }).toBe('1');

    // The drawer's command history shows the recorded outcome.
    await expect
      .poll(() => page.getByTestId('device-commands').getByText('reboot').count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
  });
});
