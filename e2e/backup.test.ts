import { type SimulatedDevice, startDevice } from '@beacon/agent';
import type { BackupList, DeviceConfigView } from '@beacon/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call, createProjectByApi, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';
import { releasePoolDevices } from './helpers/pool.ts';

/** The machine is shared: allow the UI some seconds. */
const poll = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 200 });

const SN = `E2EBACKUPAP${Date.now().toString(36).toUpperCase()}`.slice(0, 20).padEnd(16, '0');

async function open(page: Page, projectId: number): Promise<void> {
  await page.goto('/overview/list');
  await page.getByTestId(`project-row-${projectId}`).click();
  await page.waitForURL('**/overview/preview');
  await page.goto('/manage/backup');
  await page.getByTestId('backup-page').waitFor();
}

/** Saves the device's document through the API and waits until the device reports it applied. */
async function configure(page: Page, projectId: number, document: Record<string, unknown>): Promise<void> {
  const url = `/projects/${projectId}/devices/${SN}/config`;
  const current = (await call<DeviceConfigView>(page, 'GET', url)).data;
  expect((await call(page, 'PUT', url, { expectedRevision: current.revision, document })).code).toBe(0);
  await poll(async () => {
    const v = (await call<DeviceConfigView>(page, 'GET', url)).data;
    return v.status === 'applied' && v.reportedRevision === current.revision + 1;
  }, 30_000).toBe(true);
}

/**
 * Configuration backup and restore (issue 12) in Chromium: back up an AP from the screen, change its
 * configuration, restore the backup and see the change undone — the restore's revision applied and
 * the backup equal to what the device runs again; axe-clean at 1440 px and 390 px.
 */
describe.runIf(hasChromium())('configuration backup and restore in Chromium', () => {
  const browser = useBrowser();
  let device: SimulatedDevice;

  beforeAll(async () => {
    device = await startDevice({
      url: inject('brokerUrl'),
      sn: SN,
      model: 'BA-W1200C',
      factoryKey: inject('factoryKey'),
      timeScale: 0.05,
      telemetryMs: 2000,
      backoffMinMs: 200,
      backoffMaxMs: 1000,
      clientEvents: false,
    });
  });
  afterAll(async () => {
    await device?.stop().catch(() => {});
  });

  it('backs up a device, restores it after a change and the change is undone', {
    timeout: 180_000,
  }, async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signUpByApi(page, `e2e-backup-${Date.now()}@example.com`);
    const projectId = await createProjectByApi(page, 'E2E-Backup');
    expect((await call(page, 'POST', `/projects/${projectId}/devices`, { sn: SN })).code).toBe(0);
    try {
      await configure(page, projectId, { name: 'Lobby AP', led: true });
      await open(page, projectId);
      await poll(() =>
        page.getByTestId('backup-table').getByText('No backups yet', { exact: false }).count(),
      ).toBe(1);
      await poll(() => axeViolations(page)).toEqual([]);

      // Back up the AP from the screen; the row goes to Synchronized.
      await page.locator('#backup-devices').click();
      await page.locator('.ant-select-item-option').filter({ hasText: SN }).click();
      await page.keyboard.press('Escape');
      await page.getByTestId('backup-submit').click();
      const list = async () => (await call<BackupList>(page, 'GET', `/projects/${projectId}/backups`)).data;
      await poll(async () => (await list()).items[0]?.status, 30_000).toBe('synchronized');
      const backup = (await list()).items[0];
      expect(backup.configHash).toBe(device.configHash);
      const status = page.getByTestId(`backup-status-${backup.id}`);
      await poll(() => status.textContent()).toContain('Synchronized');

      // The configuration changes: the backup now differs from what the device runs.
      await configure(page, projectId, { name: 'Changed AP', led: false });
      expect(device.configHash).not.toBe(backup.configHash);
      await page.getByTestId(`backup-compare-${backup.id}`).click();
      await poll(() => page.getByTestId('compare-count').textContent()).toContain('2 differences');
      await poll(() => page.getByTestId('compare-changes').getByText('Changed AP').count()).toBe(1);
      await poll(() => axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');

      // Restore: the device applies the backup's configuration again.
      await page.getByTestId(`backup-restore-${backup.id}`).click();
      await page.getByTestId('restore-ok').waitFor();
      await page.getByTestId('restore-ok').click();
      await poll(() => page.getByTestId('restore-state').getAttribute('data-state'), 40_000).toBe('applied');
      expect(device.configHash).toBe(backup.configHash);
      expect(device.document).toMatchObject({ name: 'Lobby AP', led: true });
      await poll(() => axeViolations(page)).toEqual([]);
      await page.getByTestId('restore-ok').click();

      // The change is undone: the backup and the running configuration are the same again.
      await page.getByTestId(`backup-compare-${backup.id}`).click();
      await poll(() => page.getByTestId('compare-same').count()).toBe(1);
      await page.keyboard.press('Escape');

      // 390 px: the screen fits and stays axe-clean.
      const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await phone.context().addCookies(await page.context().cookies());
      await open(phone, projectId);
      await poll(() => phone.getByTestId(`backup-status-${backup.id}`).count()).toBe(1);
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await poll(() => axeViolations(phone)).toEqual([]);
    } finally {
      // Given back, passed or not: a retry adds it again (else 5005, already bound).
      await releasePoolDevices(page, projectId, [SN]);
    }
  });
});
