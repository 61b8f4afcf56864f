import path from 'node:path';
import { type Fleet, startFleet } from '@beacon/agent';
import { DEMO_PROJECT_IDS } from '@beacon/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEMO_DEVICES } from '../packages/server/src/gateway/demo.ts';
import { signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';

/** The machine is shared: allow the UI time. */
const poll = <T>(fn: () => T | Promise<T>, timeout = 30_000) => expect.poll(fn, { timeout, interval: 250 });

const WLAN = DEMO_DEVICES.filter((d) => d.projectId === DEMO_PROJECT_IDS.WLAN);

/**
 * The network topology (issue 13, decision 0050) in Chromium: the demo WLAN project's devices (a
 * gateway, two switches, ten APs) run as a simulated fleet wired as planned; the topology shows
 * every one of them online with its links, at 1440 and 390 px, axe-clean; search, a click on a
 * device (its drawer), the other direction, and an AP going offline live. Saves docs/topology.png.
 */
describe.runIf(hasChromium())('network topology in Chromium', () => {
  const browser = useBrowser();
  let fleet: Fleet;

  beforeAll(async () => {
    fleet = await startFleet({
      url: inject('brokerUrl'),
      factoryKey: inject('factoryKey'),
      devices: WLAN.map((d) => ({ sn: d.sn, model: d.model, site: d.site })),
      timeScale: 0.05,
      telemetryMs: 1500,
      backoffMinMs: 200,
      backoffMaxMs: 1000,
      clientEvents: false,
    });
    await fleet.waitOnline(60_000);
  });

  afterAll(async () => {
    await fleet?.stop();
  });

  async function openTopology(page: Page): Promise<void> {
    await page.goto('/overview/list');
    await page.getByTestId(`project-row-${DEMO_PROJECT_IDS.WLAN}`).click();
    await page.waitForURL('**/overview/preview');
    await page.goto('/manage/visualization/topo');
    await page.getByTestId('topology-page').waitFor();
  }

  /** Every demo device drawn (all but `away` online), each with the link to its uplink. */
  async function expectWholeFleet(page: Page, away = 0): Promise<void> {
    const statuses = () =>
      Promise.all(
        WLAN.map((d) =>
          page
            .getByTestId(`topo-node-${d.sn}`)
            .getAttribute('data-status', { timeout: 1000 })
            .catch(() => null),
        ),
      );
    await poll(async () => (await statuses()).filter((s) => s !== null).length, 60_000).toBe(WLAN.length);
    await poll(
      async () => (await statuses()).filter((s) => s === 'success').length,
      60_000,
    ).toBeGreaterThanOrEqual(WLAN.length - away);
    await poll(() => page.getByTestId('topo-node-internet').getAttribute('data-status')).toBe('success');
    // internet → gateway, gateway → 2 switches, 10 APs below them (and the phone and the hub's hosts).
    await poll(async () => page.locator('.react-flow__edge').count()).toBeGreaterThanOrEqual(WLAN.length);
  }

  it('shows every device of the demo project with its links, live, at 1440 px', {
    timeout: 240_000,
  }, async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signUpByApi(page, `e2e-topo-${Date.now()}@example.com`);
    await openTopology(page);
    await page.getByTestId('topology-tip').waitFor();
    await expectWholeFleet(page);
    await page.getByTestId('topology-layout-ms').waitFor();
    // Client counts on the APs, speed and PoE on their links.
    await page.getByTestId(`topo-clients-${WLAN[3].sn}`).waitFor();
    await poll(() => page.locator('.react-flow__edge-text', { hasText: 'PoE' }).count()).toBeGreaterThan(0);
    await poll(() => page.locator('.react-flow__edge-text', { hasText: 'Gbps' }).count()).toBeGreaterThan(0);

    expect(await axeViolations(page)).toEqual([]);

    // The tip is shown once: closed, it stays closed after a reload.
    await page.getByTestId('topology-tip').getByRole('button').click();
    await page.reload();
    await page.getByTestId('topology-canvas').waitFor();
    expect(await page.getByTestId('topology-tip').count()).toBe(0);
    await expectWholeFleet(page);
    await page.screenshot({ path: path.resolve(import.meta.dirname, '../docs/topology.png') });

    // Search by a §3 field: a switch by its name.
    // (Name is the field chosen by default.)
    await page.getByTestId('topology-search').locator('input').fill(WLAN[2].sn);
    await page.getByTestId('topology-search').locator('input').press('Enter');
    await poll(() => page.getByTestId('topology-found').textContent()).toBe('1 node found');

    // A click on the device found (the view moved to it) opens its drawer.
    await page.getByTestId(`topo-node-${WLAN[2].sn}`).click();
    await page.getByTestId('device-facts').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('device-facts').waitFor({ state: 'detached' });
    await page.getByTestId('topology-node-panel').waitFor();

    // The other direction lays the graph out again; fullscreen and back.
    await page.getByTestId('topology-direction').getByText('Horizontal').click();
    await expectWholeFleet(page);
    await page.getByTestId('topology-fullscreen').click();
    await page.getByTestId('topology-fullscreen').click();

    // An AP powered off turns red without a reload (the live events socket); it stays off.
    const ap = WLAN[WLAN.length - 1].sn;
    await fleet.get(ap)!.stop();
    await poll(() => page.getByTestId(`topo-node-${ap}`).getAttribute('data-status'), 60_000).toBe('error');
  });

  it('shows every device at a 390 px phone width, axe-clean', { timeout: 120_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await signUpByApi(page, `e2e-topo-phone-${Date.now()}@example.com`);
    await openTopology(page);
    await expectWholeFleet(page, 1);
    expect(await axeViolations(page)).toEqual([]);
  });
});
