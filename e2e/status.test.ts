import path from 'node:path';
import { type SimulatedDevice, startDevice } from '@beacon/agent';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';

/**
 * Status and Device data (/manage/status, /manage/devsrunstat) for the demo project WLAN 500000:
 * its gateway and one AP are powered on here (the e2e server runs no demo fleet), their telemetry
 * is stored, rolled up by the server's job (every minute) and charted. Saves docs/status-screen.png.
 */
describe.runIf(hasChromium())('status and device data in Chromium', () => {
  const browser = useBrowser();
  const devices: SimulatedDevice[] = [];

  beforeAll(async () => {
    for (const [sn, model] of [
      ['DEMOGW0000000001', 'BG-R3000P'],
      ['DEMOAP0000000001', 'BA-W1200C'],
    ] as const) {
      devices.push(
        await startDevice({
          url: inject('brokerUrl'),
          sn,
          model,
          factoryKey: inject('factoryKey'),
          timeScale: 0.05,
          telemetryMs: 1500,
          backoffMinMs: 200,
          backoffMaxMs: 1000,
          clientEvents: false,
        }),
      );
    }
  });

  afterAll(async () => {
    await Promise.all(devices.map((d) => d.stop().catch(() => {})));
  });

  it('shows the demo project’s devices, clients and charts, and a device’s own charts', async () => {
    const page = await browser.newPage();
    await signUpByApi(page, `e2e-status-${Date.now()}@example.com`);
    await page.goto('/overview/list');
    await page.getByTestId('project-row-500000').click();
    await page.waitForURL('**/overview/preview');

    await page.goto('/manage/status');
    await page.getByTestId('status-page').waitFor();
    // Numbers from what the devices reported: both online (live, without a reload).
    await expect
      .poll(
        async () =>
          Number(
            await page.getByTestId('status-online').locator('.ant-statistic-content-value').textContent(),
          ),
        {
          timeout: 30_000,
        },
      )
      .toBeGreaterThanOrEqual(2);
    // The unread-alarm count is the alarm domain's (a number, never a placeholder once loaded).
    await expect
      .poll(async () =>
        page.getByTestId('status-alarms').locator('.ant-statistic-content-value').textContent(),
      )
      .toMatch(/^\d+$/);
    await page.getByTestId('stats-range').getByText('12 h').click();
    // The WAN chart reads the 5-minute rollup, which the server's job writes once a minute.
    await expect
      .poll(() => page.getByTestId('status-wan-chart').locator('canvas').count(), {
        timeout: 120_000,
        interval: 1000,
      })
      .toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId('status-top-throughput').locator('tbody tr.ant-table-row').count(), {
        timeout: 90_000,
        interval: 1000,
      })
      .toBeGreaterThan(0);
    await page.screenshot({
      path: path.resolve(import.meta.dirname, '../docs/status-screen.png'),
      fullPage: true,
    });

    await expect.poll(() => axeViolations(page), { timeout: 15_000, interval: 500 }).toEqual([]);

    await page.goto('/manage/devsrunstat');
    await page.getByTestId('device-data-page').waitFor();
    await page.getByTestId('stats-range').getByText('12 h').click();
    await expect
      .poll(() => page.getByTestId('chart-cpu').locator('canvas').count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await expect
      .poll(() => page.getByTestId('top-traffic').locator('tbody tr.ant-table-row').count(), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    // One device: its raw samples, per radio too.
    await page.getByTestId('stats-device').click();
    await page.locator('.ant-select-item-option', { hasText: 'DEMOAP0000000001' }).click();
    await expect
      .poll(() => page.getByTestId('stats-radios').locator('canvas').count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('chart-traffic').locator('canvas').count()).toBeGreaterThan(0);
    await expect.poll(() => axeViolations(page), { timeout: 15_000, interval: 500 }).toEqual([]);

    // A phone: the same screen with its data, one column, still accessible.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/manage/status');
    await expect
      .poll(() => page.getByTestId('status-top-users').locator('tbody tr.ant-table-row').count(), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    await expect.poll(() => axeViolations(page), { timeout: 15_000, interval: 500 }).toEqual([]);
  });
});
