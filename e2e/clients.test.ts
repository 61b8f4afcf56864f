import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { call, createProjectByApi, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';

const SN = 'E2EPOOLAP0000004';
const expectAccessible = (page: Page, screen: string) =>
  expect.poll(() => axeViolations(page), { timeout: 15_000, interval: 500, message: screen }).toEqual([]);
const rows = (page: Page) => page.locator('[data-testid="clients-table"] tbody tr.ant-table-row');

/**
 * Client list and client data in Chromium with the pool AP E2EPOOLAP0000004 (its own clients, at
 * any hour): the clients it reports show in the list, a search finds one, force offline (with a
 * confirmation) takes one off the device and the list live, the blacklist takes a MAC, and the
 * client data screen draws its charts — at 1440 px and 390 px, without an axe violation.
 */
describe.runIf(hasChromium())('clients in Chromium', () => {
  const browser = useBrowser();

  it('lists the AP clients, searches, forces one offline, blacklists a MAC and shows the charts', async () => {
    expect(inject('devicePool')).toContain(SN);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signUpByApi(page, `e2e-clients-${Date.now()}@example.com`);
    const projectId = await createProjectByApi(page, 'E2E-Clients');
    expect((await call(page, 'POST', `/projects/${projectId}/devices`, { sn: SN })).code).toBe(0);
    try {
      await clientScreens(page, projectId);
    } finally {
      // The pool AP goes back to the pool (a retry or another run adds it again).
      await call(page, 'DELETE', `/projects/${projectId}/devices/${SN}`);
    }
  });
});

async function clientScreens(page: Page, projectId: number): Promise<void> {
  await page.goto('/overview/list');
  await page.getByTestId(`project-row-${projectId}`).click();
  await page.waitForURL('**/overview/preview');

  await page.goto('/manage/onlinelist');
  await expect.poll(() => rows(page).count(), { timeout: 30_000 }).toBeGreaterThan(1);
  await expectAccessible(page, 'client list @1440');

  // Search by the MAC of the first client: one row.
  const mac = (await rows(page).first().locator('td').nth(3).textContent())!.trim();
  expect(mac).toMatch(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/);
  const search = page.locator('input[data-testid="client-search"], [data-testid="client-search"] input');
  await search.fill(mac);
  await search.press('Enter');
  await expect.poll(() => rows(page).count(), { timeout: 10_000 }).toBe(1);

  // Force it offline: confirmation, then it leaves the device and the list (live, no reload).
  await page.getByTestId(`force-offline-${mac}`).click();
  await expect.poll(() => page.getByTestId('confirm-text').textContent()).toContain('1 client');
  await page.getByTestId('confirm-force-offline').click();
  await expect.poll(() => page.getByTestId('clients-empty').isVisible(), { timeout: 15_000 }).toBe(true);
  const listed = await call<{ total: number }>(
    page,
    'GET',
    `/projects/${projectId}/clients?mac=${encodeURIComponent(mac)}`,
  );
  expect(listed.data.total).toBe(0);
  // Among the clients that left, with how long it has been away.
  await page.getByTestId('client-status').getByText('Left in the last 24 h').click();
  await expect.poll(() => rows(page).count(), { timeout: 10_000 }).toBe(1);
  expect(await rows(page).first().textContent()).toContain(mac);
  await expectAccessible(page, 'offline clients @1440');

  // Blacklist the MAC.
  await page.getByTestId('open-blacklist').click();
  await page.getByTestId('blacklist-mac').fill('not-a-mac');
  await page.getByTestId('blacklist-add').click();
  await expect.poll(() => page.getByText('Enter a MAC address as AA:BB:CC:DD:EE:FF').isVisible()).toBe(true);
  await page.getByTestId('blacklist-mac').fill(mac);
  await page.getByTestId('blacklist-add').click();
  await expect
    .poll(() => page.getByTestId('blacklist-used').textContent(), { timeout: 10_000 })
    .toBe('1 of 100 used');
  await expectAccessible(page, 'blacklist @1440');
  await page.keyboard.press('Escape');

  // Client data: the online count and the pies (clients seen lately) from the same reports.
  await page.goto('/manage/onlinestat');
  await expect
    .poll(async () => Number((await page.getByTestId('clients-online-now').textContent()) ?? 0), {
      timeout: 15_000,
    })
    .toBeGreaterThan(0);
  await expect.poll(() => page.getByTestId('pie-kind').locator('svg').count(), { timeout: 10_000 }).toBe(1);
  // The current bucket of the lines counts the clients online now (samples come every 5 minutes).
  await expect.poll(() => page.getByTestId('chart-band').locator('svg').count(), { timeout: 10_000 }).toBe(1);
  await expect.poll(() => page.getByTestId('chart-ssid').locator('svg').count(), { timeout: 10_000 }).toBe(1);
  await page.getByTestId('stats-range').getByText('7 days').click();
  await expectAccessible(page, 'client data @1440');

  // Phone width.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect.poll(() => page.getByTestId('pie-kind').locator('svg').count(), { timeout: 15_000 }).toBe(1);
  await expectAccessible(page, 'client data @390');
  await page.goto('/manage/onlinelist');
  await expect.poll(() => rows(page).count(), { timeout: 15_000 }).toBeGreaterThan(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page, 'client list @390');
}
