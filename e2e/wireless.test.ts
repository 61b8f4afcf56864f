import type { WifiView } from '@beacon/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { call, createProjectByApi, openProjectRow, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';
import { watchSave } from './helpers/config-progress.ts';
import { addPoolDevices, releasePoolDevices } from './helpers/pool.ts';

/** The machine is shared: allow the UI a few seconds (expect.poll alone gives up after one). */
const poll = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 100 });

const APS = ['E2EPOOLWF0000001', 'E2EPOOLWF0000002'];

async function chooseOption(page: Page, testId: string, label: string): Promise<void> {
  await page.getByTestId(testId).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: label })
    .first()
    .click();
  // The list closes with an animation: axe must not read it half-faded (contrast) or still open.
  await poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
}

/**
 * Issue 11 in Chromium: a WPA2 policy created on a new project with two pool APs; the form checks
 * as the user types (a reserved name, a short password) and says before saving that WPA-PSK turns
 * signal extension off; each AP is seen pending, then applied and configured, broadcasting the
 * SSID; the screen is axe-clean at 1440 px and at 390 px.
 */
describe.runIf(hasChromium())('Wi-Fi policies in Chromium', () => {
  const browser = useBrowser();

  it('creates a WPA2 policy and shows the APs pending, then applied', { timeout: 240_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const run = Date.now();
    expect(inject('devicePool')).toEqual(expect.arrayContaining(APS));
    const name = `E2E-WiFi-${run % 100000}`;
    const ssid = `Beacon-E2E-${run % 100000}`;

    await signUpByApi(page, `e2e-wifi-${run}@example.com`);
    const projectId = await createProjectByApi(page, name);
    await addPoolDevices(page, projectId, APS);
    try {
      await page.goto('/overview/list');
      await openProjectRow(page, name);
      await page.goto('/manage/wirelessconf');
      await poll(() => page.getByTestId('wifi-table').isVisible()).toBe(true);
      for (const sn of APS) {
        await poll(() => page.getByTestId(`wifi-sync-${sn}`).textContent()).toBe('Not configured');
      }
      expect(await axeViolations(page)).toEqual([]);

      await page.getByTestId('wifi-add').click();
      await page.getByTestId('wifi-name').fill('app_default_2');
      await page.getByTestId('wifi-ssid').fill(ssid);
      await poll(() => page.getByTestId('wifi-check').textContent()).toContain('(5044)');
      await page.getByTestId('wifi-name').fill(`staff_${run % 10000}`);
      await page.getByTestId('wifi-password').fill('short');
      await poll(() => page.getByTestId('wifi-check').textContent()).toContain('(6)');
      // WPA-PSK: the form says it turns signal extension off, before anything is saved.
      await chooseOption(page, 'wifi-encryption', 'WPA-PSK');
      await poll(() => page.getByTestId('wifi-wpa-psk-notice').isVisible()).toBe(true);
      await chooseOption(page, 'wifi-encryption', 'WPA2-PSK');
      await poll(() => page.getByTestId('wifi-wpa-psk-notice').count()).toBe(0);
      await page.getByTestId('wifi-password').fill('correct-horse-battery');
      await poll(() => page.getByTestId('wifi-check').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      // Each AP: pending as soon as it is saved, then applied and configured once it runs it.
      const seenThrough = await watchSave(page, 'wifi-status', APS, /\/wifi\/policies$/);
      await page.getByTestId('wifi-submit').click();
      await seenThrough();
      for (const sn of APS) {
        await poll(() => page.getByTestId(`wifi-sync-${sn}`).textContent(), 30_000).toBe('Configured');
      }
      await poll(() => page.getByTestId('wifi-table').textContent()).toContain(ssid);
      const view = (await call<WifiView>(page, 'GET', `/projects/${projectId}/wifi`)).data;
      expect(view.revision).toBe(1);
      expect(view.document.policies).toEqual([
        expect.objectContaining({ ssid, encryption: 2, cipher: 'aes', password: '********' }),
      ]);
      // The APs report the SSID on the air.
      await poll(async () => {
        const v = (await call<WifiView>(page, 'GET', `/projects/${projectId}/wifi`)).data;
        return v.devices.filter((d) => d.runningSsids.includes(ssid)).length;
      }, 30_000).toBe(2);
      await poll(() => axeViolations(page)).toEqual([]);
      // Editing opens the saved policy (the key kept as ********), not the form's last values.
      await page.getByTestId('wifi-edit-0').click();
      await poll(() => page.getByTestId('wifi-name').inputValue()).toBe(`staff_${run % 10000}`);
      expect(await page.getByTestId('wifi-password').inputValue()).toBe('********');
      // The dialog's own close button: Escape reaches the dialog only while focus is inside it.
      await page.locator('.ant-modal-wrap:visible .ant-modal-close').click();
      await poll(() => page.getByTestId('wifi-form').isVisible()).toBe(false);

      // 390 px: the same screen fits and stays axe-clean.
      const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await phone.context().addCookies(await page.context().cookies());
      await phone.goto('/overview/list');
      await openProjectRow(phone, name);
      await phone.goto('/manage/wirelessconf');
      await poll(() => phone.getByTestId('wifi-table').textContent()).toContain(ssid);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await axeViolations(phone)).toEqual([]);
    } finally {
      await releasePoolDevices(page, projectId, APS);
    }
  });
});
