import path from 'node:path';
import { type SimulatedDevice, startDevice } from '@beacon/agent';
import { DEMO_PROJECT_IDS, type ProjectOverview } from '@beacon/protocol';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { STATS_ROLLUP_JOB } from '../packages/server/src/stats/rollup.ts';
import { call, freshSn, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';

/** The machine is shared: allow the UI a few seconds. */
const poll = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 200 });

const text = async (page: Page, testId: string) =>
  ((await page.getByTestId(testId).first().textContent()) ?? '').trim();

/**
 * The statistics rollup now, not at the next minute: a one-off job of the rollup's kind under a key
 * of its own, so the job's chain (one job a minute, keyed by its slot) stays as it is. The chart
 * reads what the job writes; waiting for the minute cost this file up to 60 s.
 */
async function rollUpNow(): Promise<void> {
  const db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
  try {
    await db.query(`insert into jobs (kind, key, payload, run_at) values ($1, $2, '{}', now())`, [
      STATS_ROLLUP_JOB,
      `${STATS_ROLLUP_JOB}:e2e-${Date.now()}`,
    ]);
  } finally {
    await db.end();
  }
}

async function fitsWidth(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
}

/**
 * Project overview and data screen (issue 9, decisions 0041 and 0045) in Chromium: the demo
 * project's overview shows the server's counts; the data screen opens with its title, a writer
 * edits title, subtitle and countries (the demo project's cannot), the world map highlights them
 * with the devices of the writer's projects located there, and a powered-on device shows on the
 * devices-online chart once the server has rolled its telemetry up; axe-clean at 1440 px and 390 px.
 */
describe.runIf(hasChromium())('overview and data screen in Chromium', () => {
  const browser = useBrowser();
  const running: SimulatedDevice[] = [];
  afterAll(async () => {
    await Promise.all(running.map((d) => d.stop().catch(() => {})));
  });

  it('shows the demo project counts and its data screen', { timeout: 120_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signUpByApi(page, `e2e-overview-demo-${Date.now()}@example.com`);
    const api = await call<ProjectOverview>(page, 'GET', `/projects/${DEMO_PROJECT_IDS.WLAN}/overview`);
    expect(api.code).toBe(0);

    await page.goto('/overview/list');
    await page.getByTestId(`project-row-${DEMO_PROJECT_IDS.WLAN}`).click();
    await page.waitForURL('**/overview/preview');
    await page.getByTestId('overview-counts').waitFor();
    await poll(() => text(page, 'overview-total')).toBe(String(api.data.stats.total));
    expect(await text(page, 'overview-online')).toBe(String(api.data.stats.online));
    expect(await text(page, 'overview-clients')).toBe(String(api.data.stats.clients));
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Open data screen' }).click();
    await page.waitForURL('**/overview/preview/datascreen');
    await poll(() => text(page, 'data-screen-title')).not.toBe('');
    // Never saved: the project's name, cut to 18 characters.
    const demo = await call<{ name: string }>(page, 'GET', `/projects/${DEMO_PROJECT_IDS.WLAN}`);
    expect(await text(page, 'data-screen-title')).toBe([...demo.data.name].slice(0, 18).join('').trim());
    await poll(() => text(page, 'data-screen-online')).toBe(String(api.data.stats.online));
    // The demo project's data screen cannot be changed.
    expect(await page.getByTestId('data-screen-settings').isDisabled()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it('lets a writer edit the data screen, with its map and online chart, at 1440 and 390 px', {
    timeout: 300_000,
  }, async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signUpByApi(page, `e2e-overview-${Date.now()}@example.com`);
    // Located in Germany: the map counts its devices there.
    const created = await call<{ id: number }>(page, 'POST', '/projects', {
      name: 'E2E-Overview',
      scenario: 'hotel',
      location: 'Berlin, Germany',
    });
    expect(created.code).toBe(0);
    const projectId = created.data.id;
    // Pre-provisioned devices (never seen: offline), so the counters and the chart have data.
    for (const [prefix, model] of [
      ['E2EOVA', 'BA-W1200C'],
      ['E2EOVA', 'BA-W1200C'],
      ['E2EOVS', 'BS-S1008P'],
    ]) {
      expect(
        (await call(page, 'POST', `/projects/${projectId}/devices`, { sn: freshSn(prefix), model })).code,
      ).toBe(0);
    }
    await page.goto('/overview/list');
    await page.getByTestId(`project-row-${projectId}`).click();
    await page.waitForURL('**/overview/preview');
    await poll(() => text(page, 'overview-total')).toBe('3');
    expect(await text(page, 'overview-offline')).toBe('3');

    // The list shows the counts too.
    await page.goto('/overview/list');
    await poll(() => text(page, `project-devices-${projectId}`)).toBe('3');
    expect(await text(page, `project-online-${projectId}`)).toBe('0 / 3');

    // A fourth device, powered on: it reports telemetry, which the server stores and rolls up.
    const live = freshSn('E2EOVL');
    expect(
      (await call(page, 'POST', `/projects/${projectId}/devices`, { sn: live, model: 'BA-W1200C' })).code,
    ).toBe(0);
    running.push(
      await startDevice({
        url: inject('brokerUrl'),
        sn: live,
        model: 'BA-W1200C',
        factoryKey: inject('factoryKey'),
        timeScale: 0.05,
        telemetryMs: 3000,
        backoffMinMs: 200,
        backoffMaxMs: 1000,
        clientEvents: false,
      }),
    );

    await page.goto('/overview/preview/datascreen');
    await poll(() => text(page, 'data-screen-title')).toBe('E2E-Overview');
    await poll(() => text(page, 'data-screen-total')).toBe('4');
    await poll(() => text(page, 'data-screen-online'), 30_000).toBe('1');
    expect(await text(page, 'data-screen-offline')).toBe('3');
    await page.getByTestId('data-screen-settings').click();
    await page.getByTestId('data-screen-form').waitFor();
    // Checked before the server: 19 characters are refused in the form.
    await page.getByTestId('data-screen-title-input').fill('a'.repeat(19));
    await page.getByTestId('data-screen-save').click();
    await poll(() => page.getByText('Title must be 1 to 18 characters').count()).toBeGreaterThan(0);
    await page.getByTestId('data-screen-title-input').fill('Lobby wall');
    await page.getByTestId('data-screen-subtitle-input').fill('Hotel network at a glance');
    const countries = page.getByTestId('data-screen-countries').locator('input');
    for (const name of ['Germany', 'Japan']) {
      await countries.fill(name);
      await page
        .locator('.ant-select-item-option', { hasText: `${name} (` })
        .first()
        .click();
    }
    // The dialog with its country list open is axe-clean too (the list has a name).
    await poll(() => axeViolations(page), 5_000).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('data-screen-save').click();
    await poll(() => text(page, 'data-screen-title')).toBe('Lobby wall');
    expect(await text(page, 'data-screen-subtitle')).toBe('Hotel network at a glance');
    await poll(() => page.getByTestId('data-screen-country-DE').count()).toBe(1);
    expect(await page.getByTestId('data-screen-country-JP').count()).toBe(1);
    // The map: Germany holds this project's 4 devices, Japan none of the writer's.
    await poll(() => text(page, 'data-screen-country-DE-devices')).toBe('4 devices');
    expect(await text(page, 'data-screen-country-JP-devices')).toBe('0 devices');
    await poll(() => page.locator('[data-testid="data-screen-map"] svg path').count()).toBeGreaterThan(100);
    const map = await call<{ countries: { code: string; devices: number }[] }>(
      page,
      'GET',
      `/projects/${projectId}/data-screen/map`,
    );
    expect(map.data.countries.map((c) => [c.code, c.devices])).toEqual([
      ['DE', 4],
      ['JP', 0],
    ]);
    // Devices online over time: the powered-on device, once the rollup job has run (every minute,
    // and once now; should that run come before the device's first telemetry is stored, the next one).
    await rollUpNow();
    await poll(
      async () => Number(await page.getByTestId('data-screen-online-chart').getAttribute('data-points')),
      150_000,
    ).toBeGreaterThan(0);
    const series = await call<{ points: { online: number | null }[] }>(
      page,
      'GET',
      `/projects/${projectId}/data-screen/online?range=24h`,
    );
    expect(Math.max(...series.data.points.map((p) => p.online ?? 0))).toBe(1);
    await poll(() =>
      page.locator('[data-testid="data-screen-online-chart"] svg path').count(),
    ).toBeGreaterThan(0);
    const stored = await call<{ title: string; countries: string[] }>(
      page,
      'GET',
      `/projects/${projectId}/data-screen`,
    );
    expect(stored.data).toMatchObject({ title: 'Lobby wall', countries: ['DE', 'JP'] });
    await poll(() => page.locator('[data-testid="data-screen-chart"] svg').count()).toBeGreaterThan(0);
    // The settings dialog closes with an animation: its country list leaves the page with it.
    await poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
    await poll(() => axeViolations(page), 5_000).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
    // The wall display without the "saved" toast.
    await poll(() => page.locator('.ant-message-notice').count()).toBe(0);
    // The whole wall display (map included) on a taller screen.
    await page.setViewportSize({ width: 1440, height: 1200 });
    await poll(() => page.locator('[data-testid="data-screen-map"] svg path').count()).toBeGreaterThan(100);
    await page
      .getByTestId('data-screen')
      .screenshot({ path: path.resolve(import.meta.dirname, '../docs/data-screen.png') });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await poll(() => text(page, 'data-screen-title')).toBe('Lobby wall');
    await poll(() => text(page, 'data-screen-offline')).toBe('3');
    await poll(() => text(page, 'data-screen-country-DE-devices')).toBe('4 devices');
    // Settings turns from disabled (settings still loading) to enabled with a colour transition: axe
    // reads the page once the button is enabled and its colour has settled.
    await poll(() => page.getByTestId('data-screen-settings').isEnabled()).toBe(true);
    await poll(() => axeViolations(page), 5_000).toEqual([]);
    expect(await fitsWidth(page)).toBe(true);
  });
});
