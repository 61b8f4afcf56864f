import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { call, createProjectByApi, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';

const poll = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 200 });

const unread = async (page: Page) =>
  Number(await page.getByTestId('alarm-badge').getAttribute('data-unread'));

/**
 * Alarms in Chromium (docs/alarms.md): the pool AP E2EPOOLAP0000006 reports an IP conflict every
 * 3 s; once it joins a project the alarm is raised once, the header's badge counts it without a
 * reload, the alarm screen lists it, and marking all read brings the badge back to 0, live. The
 * screen passes axe at 1440 px and 390 px.
 */
describe.runIf(hasChromium())('alarms in Chromium', () => {
  const browser = useBrowser();

  it('raises an alarm from a device, shows it on the badge and marks it read', {
    timeout: 120_000,
  }, async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const sn = inject('devicePool').find((s) => s === 'E2EPOOLAP0000006')!;
    await signUpByApi(page, `e2e-alarms-${Date.now()}@example.com`);
    const projectId = await createProjectByApi(page, 'E2E-Alarms');
    await page.goto('/overview/list');
    await page.getByTestId(`project-row-${projectId}`).click();
    await page.waitForURL('**/overview/preview');
    await poll(() => unread(page)).toBe(0);

    // The device joins the project: its next IP conflict raises the alarm, and the badge counts it live.
    expect((await call(page, 'POST', `/projects/${projectId}/devices`, { sn })).code).toBe(0);
    try {
      await checkAlarm(page, projectId, sn);
    } finally {
      // Out of the project again, so a retry or rerun starts from an unclaimed device.
      await call(page, 'DELETE', `/projects/${projectId}/devices/${sn}?mode=unbind`);
    }
  });
});

async function checkAlarm(page: Page, projectId: number, sn: string): Promise<void> {
  await poll(() => unread(page), 30_000).toBe(1);

  await page.getByTestId('alarm-badge').click();
  await page.waitForURL('**/manage/alarminfo');
  const row = page.locator('[data-testid="alarm-table"] tr.ant-table-row', { hasText: 'IP conflict' });
  await poll(() => row.count()).toBe(1);
  await poll(() => row.first().innerText()).toContain('Unread');
  // Repeats of the same conflict count on the open alarm: still one alarm, one unread.
  await new Promise((r) => setTimeout(r, 4000));
  expect(await unread(page)).toBe(1);
  await poll(() => axeViolations(page), 15_000).toEqual([]);

  await page.getByTestId('alarm-read-all').click();
  await page.getByTestId('alarm-read-all-confirm').click();
  await poll(() => unread(page)).toBe(0);
  await poll(() => row.first().innerText()).toContain('Read');
  const listed = await call<{ items: { read: number; sn: string; kind: string }[] }>(
    page,
    'GET',
    `/projects/${projectId}/alarms`,
  );
  expect(listed.data.items).toEqual([expect.objectContaining({ sn, kind: 'ip-conflict', read: 1 })]);

  // The other sections open, and the screen is accessible on a phone too.
  for (const tab of ['Delivery settings', 'Delivery outcomes', 'Maintenance windows']) {
    await page.getByRole('tab', { name: tab }).click();
    await poll(() => axeViolations(page), 15_000).toEqual([]);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/manage/alarminfo');
  await poll(() => row.count()).toBe(1);
  await poll(() => axeViolations(page), 15_000).toEqual([]);
}
