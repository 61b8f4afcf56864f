import fs from 'node:fs';
import { describe, expect, inject, it } from 'vitest';
import { call, createProjectByApi, openProjectRow, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';
import { releasePoolDevices } from './helpers/pool.ts';

/** The machine is shared: allow the UI a few seconds (expect.poll alone gives up after one). */
const poll = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 200 });

/**
 * The Log screen (/manage/runlog) in Chromium: a pool AP of the project reboots and its "booted"
 * event appears in the device log without a reload (live device.event); the reboot is in the audit
 * log; the retention is changed; the device log downloads as CSV; the screen passes axe and fits
 * 390 px. The pool device runs at time scale 0.05 (a 3 s reboot).
 */
describe.runIf(hasChromium())('log screen in Chromium', () => {
  const browser = useBrowser();

  it('shows a device event live, the audit log, retention and a CSV download, at 1440 and 390 px', {
    timeout: 120_000,
  }, async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const sn = inject('devicePool').find((s) => s === 'E2EPOOLAP0000005')!;
    await signUpByApi(page, `e2e-logs-${Date.now()}@example.com`);
    const projectId = await createProjectByApi(page, 'E2E-Logs');
    expect((await call(page, 'POST', `/projects/${projectId}/devices`, { sn, name: 'Log AP' })).code).toBe(0);
    try {
      await poll(
        async () =>
          (await call<{ status: number }>(page, 'GET', `/projects/${projectId}/devices/${sn}`)).data.status,
      ).toBe(1);

      await page.goto('/overview/list');
      await openProjectRow(page, 'E2E-Logs');
      await page.goto('/manage/runlog');
      await page.getByTestId('log-page').waitFor();
      await poll(() => page.getByTestId('log-live').textContent()).toContain('Live');
      const table = page.getByTestId('device-log-table');

      // The device reboots: its "Started" event shows up without a reload.
      expect((await call(page, 'POST', `/projects/${projectId}/devices/${sn}/actions/reboot`, {})).code).toBe(
        0,
      );
      await poll(() => table.getByText('Device started (reboot)').count(), 30_000).toBeGreaterThan(0);
      expect(await table.textContent()).toContain('Log AP');

      // Filter by level: a warning filter hides the info row.
      await page.getByTestId('log-device-level').click();
      await page.locator('.ant-select-item-option', { hasText: 'Warning' }).click();
      await poll(() => table.getByText('Device started (reboot)').count()).toBe(0);

      // The audit log names who rebooted it.
      await page.getByRole('tab', { name: 'Audit log' }).click();
      const audit = page.getByTestId('audit-log-table');
      await poll(() => audit.textContent()).toContain('Reboot');

      // Retention: 7 days, saved and read back.
      await page.getByTestId('log-retention-select').click();
      await page.locator('.ant-select-item-option', { hasText: '7 days' }).click();
      await page.getByTestId('log-retention-save').click();
      await poll(
        async () =>
          (await call<{ retentionDays: number }>(page, 'GET', `/projects/${projectId}/logs/settings`)).data
            .retentionDays,
      ).toBe(7);

      // The device log as CSV, through the browser's download, with the filters shown: the warning
      // filter still set gives the header alone; without it, the reboot's row.
      const downloadCsv = async () => {
        await page.getByTestId('log-download-device').hover();
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.locator('.ant-dropdown-menu-item', { hasText: 'CSV' }).click(),
        ]);
        return fs.readFileSync((await download.path())!, 'utf8');
      };
      await page.getByRole('tab', { name: 'Device log' }).click();
      const filtered = await downloadCsv();
      expect(filtered.startsWith('\uFEFF')).toBe(true);
      expect(filtered.trim().split('\r\n')).toEqual([
        'Time (UTC),Device SN,Device name,Event,Level,Message,Data',
      ]);
      await page.reload();
      await poll(() => table.getByText('Device started (reboot)').count()).toBeGreaterThan(0);
      const csv = await downloadCsv();
      expect(csv).toContain(`${sn},Log AP,booted,info,Device started (reboot)`);

      // A custom time range: a day in 2000 has nothing; a start after the end is pointed out; a
      // range up to 2099 has the reboot again.
      await page.getByTestId('log-device-range').click();
      await page.locator('.ant-select-item-option', { hasText: 'Custom range' }).click();
      await page.getByTestId('log-device-from').fill('2000-01-01T00:00');
      await page.getByTestId('log-device-to').fill('2000-01-02T00:00');
      await poll(() => table.getByText('Device started (reboot)').count()).toBe(0);
      await page.getByTestId('log-device-from').fill('2000-01-03T00:00');
      await poll(() =>
        page.getByRole('alert').filter({ hasText: 'The start is after the end' }).count(),
      ).toBe(1);
      await page.getByTestId('log-device-to').fill('2099-01-01T00:00');
      await poll(() => table.getByText('Device started (reboot)').count()).toBeGreaterThan(0);

      await poll(() => axeViolations(page)).toEqual([]);

      // A phone: the page does not scroll sideways; the table scrolls inside its box.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/manage/runlog');
      await page.getByTestId('log-page').waitFor();
      await poll(() => table.getByText('Device started (reboot)').count()).toBeGreaterThan(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await poll(() => axeViolations(page)).toEqual([]);
    } finally {
      // Given back, passed or not: a retry adds it again (else 5005, already bound).
      await releasePoolDevices(page, projectId, [sn]);
    }
  });
});
