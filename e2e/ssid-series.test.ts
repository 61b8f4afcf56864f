import pg from 'pg';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { createProjectByApi, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';

/**
 * A new project of unconfigured APs has a factory SSID per AP. The Device data and Client data
 * screens chart the 38 SSIDs with the most clients and say how many more there are — at 1440 px and
 * 390 px, without an axe violation. The history (45 SSIDs) is written into the database: no device
 * could report a day of it during the test.
 */
const SSIDS = 45;
const expectAccessible = (page: Page, screen: string) =>
  expect.poll(() => axeViolations(page), { timeout: 15_000, interval: 500, message: screen }).toEqual([]);

async function seed(projectId: number): Promise<void> {
  const db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
  try {
    const now = Date.now();
    const day = Math.floor(now / 86_400_000) * 86_400_000;
    // A sample 10 minutes ago, but not before today (client_counts has a partition per day, and a
    // fresh database only today's).
    const slot = Math.max(day, Math.floor(now / 300_000) * 300_000 - 600_000);
    for (let i = 0; i < SSIDS; i++) {
      const key = `Beacon-${String(i).padStart(4, '0')}`;
      await db.query(
        `insert into stats_project_dim_1d (bucket, project_id, kind, key, clients, rx_bytes, tx_bytes)
         values ($1, $2, 'ssid', $3, $4, 0, 0)`,
        [new Date(day - 86_400_000), projectId, key, i + 1],
      );
      await db.query(
        `insert into client_counts (project_id, at, band, ssid, clients) values ($1, $2, '5G', $3, $4)`,
        [projectId, new Date(slot), key, i + 1],
      );
    }
  } finally {
    await db.end();
  }
}

describe.runIf(hasChromium())('SSID series of a project with many SSIDs', () => {
  const browser = useBrowser();

  it('charts the 38 SSIDs with the most clients and says how many more there are', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signUpByApi(page, `e2e-ssids-${Date.now()}@example.com`);
    const projectId = await createProjectByApi(page, 'E2E-SSIDs');
    await seed(projectId);
    await page.goto('/overview/list');
    await page.getByTestId(`project-row-${projectId}`).click();
    await page.waitForURL('**/overview/preview');
    const note = 'The 38 SSIDs with the most clients are shown; 7 more SSIDs are not.';

    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
      await page.goto('/manage/devsrunstat');
      await page.getByTestId('stats-range').getByText('30 d').click();
      await expect.poll(() => page.getByText(note).isVisible(), { timeout: 15_000 }).toBe(true);
      await expectAccessible(page, `device data @${width}`);
      await page.screenshot({ path: `e2e/artifacts/ssid-series-device-data-${width}.png`, fullPage: true });

      await page.goto('/manage/onlinestat');
      await expect.poll(() => page.getByText(note).isVisible(), { timeout: 15_000 }).toBe(true);
      await expectAccessible(page, `client data @${width}`);
      await page.screenshot({ path: `e2e/artifacts/ssid-series-client-data-${width}.png`, fullPage: true });
    }
  });
});
