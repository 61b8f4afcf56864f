import { readFile } from 'node:fs/promises';
import type { SolutionSummary } from '@beacon/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { acceptInvitationByApi, call, PASSWORD, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';

/** The machine is shared: allow the UI some seconds. */
const poll = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 200 });

async function choose(page: Page, field: string, option: string): Promise<void> {
  // The list of the select chosen before closes with an animation: its options would match too.
  await poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
  await page.locator(`#${field}`).click();
  await page
    .locator('.ant-select-dropdown:visible .ant-select-item-option')
    .filter({ hasText: option })
    .first()
    .click();
}

/**
 * The solution generator in Chromium (issue 14): generate a 120-room hotel solution through the
 * wizard, see the explained recommendation, save it, download its PDF; the list, the preview, the
 * pivot report and the model list at 1440 and 390 px, axe-clean.
 */
describe.runIf(hasChromium())('the solution generator in Chromium', () => {
  const browser = useBrowser();

  it('generates a hotel solution and downloads its PDF', { timeout: 180_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signUpByApi(page, `e2e-solution-${Date.now()}@example.com`);
    await page.goto('/solutions');
    await page.getByTestId('solution-new').click();
    await page.getByTestId('solution-name').fill('Harbour Hotel');
    await page.getByTestId('solution-next').click();
    for (const [field, value] of [
      ['rooms', '120'],
      ['clientsPerRoom', '3'],
      ['floors', '6'],
      ['broadband', '500'],
      ['maxBandwidthPerLine', '250'],
    ]) {
      await page.locator(`#${field}`).fill(value);
    }
    await page.getByTestId('solution-next').click();
    await choose(page, 'apModel', 'BA-W1200C');
    await choose(page, 'gatewayModel', 'BG-R3000P');
    await choose(page, 'coreSwitchModel', 'BS-S2024P');
    await choose(page, 'accessSwitchModel', 'BS-S2024P');
    await page.getByTestId('solution-generate').click();
    await page.getByTestId('solution-preview').waitFor();
    // 120 in-room APs, ⌈120 / 24⌉ = 5 but one per floor → 6 access switches, 1 core, 1 gateway.
    expect(await page.getByTestId('solution-qty-ap').textContent()).toBe('120');
    expect(await page.getByTestId('solution-qty-access_switch').textContent()).toBe('6');
    expect(await page.getByTestId('solution-qty-core_switch').textContent()).toBe('1');
    expect(await page.getByTestId('solution-qty-gateway').textContent()).toBe('1');
    await poll(() => page.getByText('120 rooms × 1 in-room AP').count()).toBe(1);
    await poll(() => axeViolations(page)).toEqual([]);
    await page.screenshot({ path: 'docs/solution-generator.png', fullPage: true });
    await page.getByTestId('solution-save').click();
    await page.waitForURL('**/solutions');
    await poll(() => page.getByTestId('solution-open').filter({ hasText: 'Harbour Hotel' }).count()).toBe(1);
    await poll(() => axeViolations(page)).toEqual([]);

    const download = page.waitForEvent('download');
    await page.getByTestId('solution-pdf').first().click();
    const file = await (await download).path();
    const bytes = await readFile(file);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await download).suggestedFilename()).toBe('Harbour-Hotel.pdf');

    // The preview, the pivot report and the model list, on a phone too.
    const [solution] = (await call<SolutionSummary[]>(page, 'GET', '/solutions')).data;
    for (const width of [1440, 390]) {
      const view = width === 1440 ? page : await browser.newPage({ viewport: { width, height: 844 } });
      if (view !== page) await view.context().addCookies(await page.context().cookies());
      for (const [path, ready] of [
        ['/solutions', 'solution-open'],
        [`/solutions/${solution.id}`, 'solution-preview'],
        ['/reports/devices', 'pivot-table'],
        ['/models', 'models-table'],
      ] as const) {
        await view.goto(path);
        await view.getByTestId(ready).first().waitFor();
        await poll(() => axeViolations(view), 15_000).toEqual([]);
        expect(
          await view.evaluate(() => document.documentElement.scrollWidth),
          `${path} @${width}`,
        ).toBeLessThanOrEqual(width);
      }
    }
    await page.goto('/models');
    await page.getByTestId('models-search').locator('input').fill('outdoor');
    await page.keyboard.press('Enter');
    await poll(() => page.getByTestId('models-table').getByText('BA-O1800').count()).toBe(1);
    await poll(() => page.getByTestId('models-table').getByText('BS-S2024P').count()).toBe(0);
  });

  it('lets a manufacturer account add a model, and refuses one that exists', {
    timeout: 120_000,
  }, async () => {
    const owner = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signUpByApi(owner, `e2e-maker-owner-${Date.now()}@example.com`);
    // A subordinate account with the manufacturer role (SPEC.md §6 role 2) signs in on its own.
    const email = `e2e-maker-${Date.now()}@example.com`;
    const created = await call(owner, 'POST', '/account/subordinates', { email, nick: 'Maker', role: 2 });
    expect(created.code).toBe(0);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto('/login');
    await acceptInvitationByApi(page, email);
    expect((await call(page, 'POST', '/auth/login', { account: email, password: PASSWORD })).code).toBe(0);
    await page.goto('/models');
    const model = `E2E-M${Date.now().toString(36).toUpperCase()}`;
    for (const name of [model, 'BA-W1200C']) {
      await page.getByTestId('model-upload-open').click();
      await page.locator('#model-model').fill(name);
      await page.locator('#model-brand').fill('Acme');
      await page.locator('#model-ports').fill('2');
      if (name === model) await poll(() => axeViolations(page), 15_000).toEqual([]);
      await page.getByTestId('model-upload-save').click();
      if (name === model) {
        await page.getByTestId('model-upload-save').waitFor({ state: 'detached' });
        await page.getByTestId('models-search').locator('input').fill(model);
        await page.keyboard.press('Enter');
        await poll(() => page.getByTestId('models-table').getByText('Acme').count()).toBe(1);
      } else {
        await poll(() => page.getByTestId('model-upload-error').textContent()).toMatch(/already exists/i);
      }
    }
  });
});
