import { campus, type SimulatedDevice, startDevice } from '@beacon/agent';
import type { RfView } from '@beacon/protocol';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { call, createProjectByApi, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';

/** The machine is shared: allow the UI a few seconds. */
const poll = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 200 });

const SITE = 6;
const devices: SimulatedDevice[] = [];

afterAll(async () => {
  await Promise.all(devices.map((d) => d.stop().catch(() => {})));
});

async function openRf(page: Page, projectId: number): Promise<void> {
  await page.goto('/overview/list');
  await page.getByTestId(`project-row-${projectId}`).click();
  await page.waitForURL('**/overview/preview');
  await page.goto('/manage/rfconf');
  await page.getByTestId('rf-page').waitFor();
}

/**
 * RF optimisation (issue 11, decision 0048) in Chromium: six simulated APs of one building (their
 * own radio world, so they hear each other) join a new project; the RF screen shows their radios;
 * an automatic optimisation is started and its progress watched to completion; both bands of an AP
 * set by hand in one save and reported back; axe-clean at 1440
 * and 390 px.
 */
describe.runIf(hasChromium())('RF optimisation in Chromium', () => {
  const browser = useBrowser();

  it('starts an optimisation and watches its progress reach completion', { timeout: 180_000 }, async () => {
    const site = campus({ aps: SITE, perFloor: 3, seed: 5 });
    const stamp = Date.now().toString(36).toUpperCase();
    const aps = await Promise.all(
      site.positions.map((position, i) =>
        startDevice({
          url: inject('brokerUrl'),
          factoryKey: inject('factoryKey'),
          sn: `E2ERF${stamp}${i}`.padEnd(16, '0').slice(0, 24),
          model: 'BA-W1200C',
          timeScale: 0.05,
          telemetryMs: 1000,
          backoffMinMs: 200,
          backoffMaxMs: 1000,
          clientEvents: false,
          radio: { world: site.world, position },
        }),
      ),
    );
    devices.push(...aps);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signUpByApi(page, `e2e-rf-${Date.now()}@example.com`);
    const projectId = await createProjectByApi(page, 'E2E-RF');
    for (const d of aps) {
      await poll(
        async () => (await call(page, 'POST', `/projects/${projectId}/devices`, { sn: d.sn })).code,
      ).toBe(0);
    }
    const view = async () => (await call<RfView>(page, 'GET', `/projects/${projectId}/rf`)).data;
    await poll(async () => {
      const v = await view();
      return v.online === SITE && v.devices.every((d) => d.radios.every((r) => r.reported !== null));
    }, 60_000).toBe(true);

    // Each AP has taken its first configuration and is idle (a plan pushed to an AP still busy with
    // its first push waits for that one's outcome, or its retry, before the run can finish).
    type Row = { sn: string; configStatus: string; operation: string | null };
    const rows = async () =>
      (await call<{ items: Row[] }>(page, 'GET', `/projects/${projectId}/devices?pageSize=50`)).data.items;
    await poll(async () => {
      const items = await rows();
      return (
        items.length === SITE && items.every((d) => d.configStatus === 'applied' && d.operation === null)
      );
    }, 60_000).toBe(true);

    await openRf(page, projectId);
    const first = aps[0]!.sn;
    await poll(() => page.getByTestId(`rf-radio-${first}-2.4G`).textContent()).toMatch(/channel \d+/);
    expect(await axeViolations(page)).toEqual([]);

    // Start it (confirmed), then watch the progress bar until the run completes.
    await page.getByTestId('rf-optimise').click();
    await page.getByTestId('rf-optimise-confirm').click();
    const seen = new Set<number>();
    await poll(async () => {
      const bar = page.getByTestId('rf-progress');
      if (await bar.count()) seen.add(Number(await bar.getAttribute('data-progress')));
      // count() first: getAttribute on a missing element would wait 30 s and miss the progress.
      const last = page.getByTestId('rf-last-result');
      return (await last.count()) ? last.getAttribute('data-state') : null;
    }, 90_000)
      .toBe('completed')
      .catch(async (err: Error) => {
        // What the run waited on: its progress, and each AP's configuration and operation.
        const v = await view();
        const devicesNow = (await rows()).map((d) => `${d.sn} ${d.configStatus} ${d.operation ?? 'idle'}`);
        type Runs = { items: { id: number; kind: string; state: string }[] };
        const log = (await call<Runs>(page, 'GET', `/projects/${projectId}/rf/runs`)).data.items;
        throw new Error(
          `${err.message}\nrun: ${JSON.stringify(v.running)}; log: ${log.map((r) => `${r.id} ${r.kind} ${r.state}`).join(', ')}\ndevices: ${devicesNow.join('; ')}`,
        );
      });
    expect(seen.size).toBeGreaterThan(0);
    expect([...seen].every((p) => p >= 0 && p <= 100)).toBe(true);
    await poll(() => page.getByTestId('rf-running').count()).toBe(0);
    await poll(() => page.getByTestId('rf-log').getByText('Completed').count()).toBeGreaterThan(0);
    await poll(() => axeViolations(page)).toEqual([]);

    // Manual settings of both bands of one AP in one save; the AP reports them.
    await page.locator(`tr[data-row-key="${first}"] input[type="checkbox"]`).check();
    await page.getByTestId('rf-manual-open').click();
    const drawer = page.getByTestId('rf-manual');
    await drawer.getByText('Change the 5G radio').click();
    await drawer.locator('#rf-24G-power').fill('11');
    await drawer.locator('#rf-5G-power').fill('13');
    await poll(() => axeViolations(page)).toEqual([]);
    await page.getByTestId('rf-manual-save').click();
    await poll(async () => {
      const radios = (await view()).devices.find((d) => d.sn === first)?.radios ?? [];
      return radios.map((r) => `${r.band}:${r.reported?.power}`).sort();
    }, 60_000).toEqual(['2.4G:11', '5G:13']);

    // 390 px: the screen fits and stays axe-clean.
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.context().addCookies(await page.context().cookies());
    await openRf(phone, projectId);
    await phone.getByTestId('rf-log').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await poll(() => axeViolations(phone)).toEqual([]);
  });
});
