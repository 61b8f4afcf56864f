import type { DhcpServerView } from '@beacon/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { call, createProjectByApi, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';
import { releasePoolDevices } from './helpers/pool.ts';

/** The machine is shared: allow the UI a few seconds. */
const poll = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 200 });

async function openDrawer(page: Page, projectId: number, sn: string): Promise<void> {
  await page.goto('/overview/list');
  await page.getByTestId(`project-row-${projectId}`).click();
  await page.waitForURL('**/overview/preview');
  await page.goto('/manage/devconf');
  const status = page.getByTestId(`device-status-${sn}`).first();
  await poll(() => status.getAttribute('data-status')).toBe('1');
  await page.getByTestId(`device-open-${sn}`).click();
  await page.getByTestId('dhcp-server').waitFor();
}

/**
 * The DHCP server of an AP (issue 10 "DHCP policy", decision 0043) in Chromium: the form in the
 * device drawer checks as the user types (end IP not greater: 109; a static lease outside the
 * pool: 108), saves, and shows the revision
 * going from pending to applied while the pool AP runs it; axe-clean at 1440 px and 390 px.
 */
describe.runIf(hasChromium())('the DHCP server of an AP in Chromium', () => {
  const browser = useBrowser();

  it('sets up the pool AP DHCP server and sees it applied', { timeout: 180_000 }, async () => {
    const sn = inject('devicePool').find((s) => s === 'E2EPOOLAP0000008')!;
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signUpByApi(page, `e2e-dhcp-${Date.now()}@example.com`);
    const projectId = await createProjectByApi(page, 'E2E-DHCP');
    expect((await call(page, 'POST', `/projects/${projectId}/devices`, { sn })).code).toBe(0);
    try {
      await openDrawer(page, projectId, sn);

      const form = page.getByTestId('dhcp-server');
      await page.locator('#dhcp-enabled').click();
      await page.locator('#dhcp-name').fill('ap_pool');
      await page.locator('#dhcp-startIp').fill('192.168.70.100');
      await page.locator('#dhcp-endIp').fill('192.168.70.50');
      await poll(() => form.getByText('The end IP must be greater than the start IP').count()).toBe(1);
      expect(await page.getByTestId('dhcp-save').isDisabled()).toBe(true);
      await page.locator('#dhcp-endIp').fill('192.168.70.199');
      await page.locator('#dhcp-gateway').fill('192.168.70.1');
      await poll(() => form.getByText('The end IP must be greater than the start IP').count()).toBe(0);
      // A static lease, edited in the form: outside the pool is refused as the user types (108).
      await page.getByTestId('dhcp-lease-add').click();
      await page.getByTestId('dhcp-lease-0-mac').fill('AA:BB:CC:70:00:01');
      await page.getByTestId('dhcp-lease-0-ip').fill('192.168.70.20');
      await poll(() => form.getByText('(108)', { exact: false }).count()).toBe(1);
      expect(await page.getByTestId('dhcp-save').isDisabled()).toBe(true);
      await page.getByTestId('dhcp-lease-0-ip').fill('192.168.70.150');
      await page.getByTestId('dhcp-lease-0-name').fill('printer');
      await poll(() => form.getByText('(108)', { exact: false }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await poll(() => page.getByTestId('dhcp-save').isDisabled()).toBe(false);
      await page.getByTestId('dhcp-save').click();

      // Saved as revision 1, then applied once the AP reports it; the drawer follows it.
      const url = `/projects/${projectId}/devices/${sn}/dhcp-server`;
      const get = async () => (await call<DhcpServerView>(page, 'GET', url)).data;
      await poll(async () => {
        const v = await get();
        return v.revision > 0 && v.reportedRevision === v.revision && v.configStatus === 'applied';
      }, 30_000).toBe(true);
      await poll(() => page.getByTestId('dhcp-config-status').textContent()).toContain('Applied');
      const view = await get();
      expect(view.dhcpServer).toMatchObject({
        enabled: true,
        name: 'ap_pool',
        startIp: '192.168.70.100',
        endIp: '192.168.70.199',
        gateway: '192.168.70.1',
        staticLeases: [{ mac: 'AA:BB:CC:70:00:01', ip: '192.168.70.150', name: 'printer' }],
      });
      await poll(() => axeViolations(page)).toEqual([]);

      // 390 px: the form fits and stays axe-clean.
      const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await phone.context().addCookies(await page.context().cookies());
      await openDrawer(phone, projectId, sn);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await poll(() => axeViolations(phone)).toEqual([]);
    } finally {
      // Given back, passed or not: a retry adds it again (else 5005, already bound).
      await releasePoolDevices(page, projectId, [sn]);
    }
  });
});
