import path from 'node:path';
import { type SimulatedDevice, startDevice } from '@beacon/agent';
import type { WifiMapView } from '@beacon/protocol';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { floorPlanPng } from '../packages/server/test/helpers/png.ts';
import { call, createProjectByApi, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';

/** The machine is shared: allow the UI a few seconds. */
const poll = <T>(fn: () => T | Promise<T>, timeout = 20_000) => expect.poll(fn, { timeout, interval: 200 });

const devices: SimulatedDevice[] = [];
afterAll(async () => {
  await Promise.all(devices.map((d) => d.stop().catch(() => {})));
});

async function openMap(page: Page, projectId: number): Promise<void> {
  await page.goto('/overview/list');
  await page.getByTestId(`project-row-${projectId}`).click();
  await page.waitForURL('**/overview/preview');
  await page.goto('/manage/visualization/td');
  await page.getByTestId('wifi-map-page').waitFor();
}

/** Drags with the mouse on the plan from one point to another, in fractions of its size. */
async function drawOnPlan(page: Page, from: [number, number], to: [number, number]): Promise<void> {
  const box = (await page.getByTestId('wifi-map-canvas').boundingBox())!;
  await page.mouse.move(box.x + box.width * from[0], box.y + box.height * from[1]);
  await page.mouse.down();
  await page.mouse.move(
    box.x + box.width * ((from[0] + to[0]) / 2),
    box.y + box.height * ((from[1] + to[1]) / 2),
    {
      steps: 4,
    },
  );
  await page.mouse.move(box.x + box.width * to[0], box.y + box.height * to[1], { steps: 4 });
  await page.mouse.up();
}

/** Pixels of the coverage canvas that are drawn (alpha > 0). */
const paintedCells = (page: Page) =>
  page.getByTestId('wifi-map-heatmap').evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
    return n;
  });

/**
 * The Wi-Fi map (issue 13, decisions 0052-0053) in Chromium: two simulated APs join a project; a
 * floor plan is uploaded through the page, its scale set by drawing a 50 m line, a concrete wall
 * drawn, one AP dragged from the list onto the plan and the other placed and moved; the coverage
 * heatmap appears (computed in the worker), then the co-channel layer; all of it is still there after
 * a reload; a non-image is refused in the browser with 79's message; axe-clean at 1440 and 390 px.
 */
describe.runIf(hasChromium())('Wi-Fi map in Chromium', () => {
  const browser = useBrowser();

  it('uploads a plan, places two APs and shows their coverage', { timeout: 180_000 }, async () => {
    const stamp = Date.now().toString(36).toUpperCase();
    const aps = await Promise.all(
      [0, 1].map((i) =>
        startDevice({
          url: inject('brokerUrl'),
          factoryKey: inject('factoryKey'),
          sn: `E2EMAP${stamp}${i}`.padEnd(16, '0').slice(0, 24),
          model: 'BA-W1200C',
          timeScale: 0.05,
          telemetryMs: 1000,
          backoffMinMs: 200,
          backoffMaxMs: 1000,
          clientEvents: false,
          clients: { population: 8, onlineShare: 1 },
        }),
      ),
    );
    devices.push(...aps);
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await signUpByApi(page, `e2e-map-${Date.now()}@example.com`);
    const projectId = await createProjectByApi(page, 'E2E-MAP');
    for (const d of aps) {
      await poll(
        async () => (await call(page, 'POST', `/projects/${projectId}/devices`, { sn: d.sn })).code,
      ).toBe(0);
    }
    await poll(async () => {
      const view = (await call<WifiMapView>(page, 'GET', `/projects/${projectId}/wifi-map`)).data;
      return view.aps.length === 2 && view.aps.every((a) => a.online && a.radios.length > 0 && a.clients > 0);
    }, 60_000).toBe(true);

    await openMap(page, projectId);
    // A file that is not an image is refused before it is sent.
    await page.locator('input[type=file]').setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not an image at all'),
    });
    await page.getByText('Failed to upload: the file is not a PNG or JPEG image').first().waitFor();

    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'ground.png', mimeType: 'image/png', buffer: floorPlanPng(1000, 600) });
    await page.getByTestId('wifi-map-stage').waitFor();
    await page.getByTestId('wifi-map-no-scale').waitFor();
    await poll(() => axeViolations(page)).toEqual([]);

    // The scale: a line across the plan is 50 m.
    await page.getByTestId('wifi-map-tool').getByText('Set scale').click();
    await drawOnPlan(page, [0.05, 0.93], [0.95, 0.93]);
    await page.locator('.ant-modal').getByRole('spinbutton').fill('50');
    await page.getByTestId('wifi-map-scale-ok').click();
    await page.getByTestId('wifi-map-scale').waitFor();

    // A concrete wall down the middle.
    await page.getByTestId('wifi-map-tool').getByText('Draw wall').click();
    await page.getByTestId('wifi-map-material').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'Concrete' }).click();
    await drawOnPlan(page, [0.5, 0.05], [0.5, 0.8]);
    await poll(() => page.getByTestId('wifi-map-wall').count()).toBe(1);

    // The first AP dragged from the list onto the left half; the second placed, then moved right.
    await page.getByTestId('wifi-map-tool').getByText('Move').click();
    const [a, b] = aps.map((d) => d.sn) as [string, string];
    await page
      .getByTestId(`wifi-map-ap-item-${a}`)
      .dragTo(page.getByTestId('wifi-map-canvas'), { targetPosition: await at(page, 0.25, 0.4) });
    await page.getByTestId(`wifi-map-ap-${a}`).waitFor();
    await page.getByTestId(`wifi-map-place-${b}`).click();
    await page.getByTestId(`wifi-map-ap-${b}`).waitFor();
    const box = (await page.getByTestId(`wifi-map-ap-${b}`).locator('circle').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    const canvas = (await page.getByTestId('wifi-map-canvas').boundingBox())!;
    await page.mouse.move(canvas.x + canvas.width * 0.78, canvas.y + canvas.height * 0.5, { steps: 6 });
    await page.mouse.up();

    // Both are stored where they were put.
    await poll(async () => {
      const plan = (await call<WifiMapView>(page, 'GET', `/projects/${projectId}/wifi-map`)).data.plans[0]!;
      const pos = new Map(plan.aps.map((p) => [p.sn, p]));
      return (
        plan.walls.length === 1 &&
        plan.walls[0]!.material === 'concrete' &&
        plan.scale?.metres === 50 &&
        (pos.get(a)?.x ?? 0) < 400 &&
        (pos.get(b)?.x ?? 0) > 650
      );
    }).toBe(true);

    // The heatmap: computed in the worker and painted over the plan; client counts on the APs.
    await poll(() => page.getByTestId('wifi-map-heatmap').getAttribute('data-ready')).toBe('true');
    await poll(() => paintedCells(page)).toBeGreaterThan(1000);
    await page.getByTestId('wifi-map-computed').waitFor();
    expect(Number(await page.getByTestId(`wifi-map-ap-${a}`).getAttribute('data-clients'))).toBeGreaterThan(
      0,
    );
    await poll(() => axeViolations(page)).toEqual([]);
    await page
      .getByTestId('wifi-map-page')
      .screenshot({ path: path.resolve(import.meta.dirname, '../docs/wifi-map.png') });

    // The co-channel overlap layer, and the 5 GHz band.
    await page.getByTestId('wifi-map-layer').getByText('Co-channel overlap').click();
    await poll(() => page.getByTestId('wifi-map-heatmap').getAttribute('data-layer')).toBe('overlap');
    await page.getByTestId('wifi-map-band').getByText('5 GHz').click();
    await page.getByTestId('wifi-map-layer').getByText('Coverage').click();
    await poll(() => paintedCells(page)).toBeGreaterThan(1000);

    // After a reload everything is still there.
    await page.reload();
    await page.getByTestId('wifi-map-stage').waitFor();
    await page.getByTestId(`wifi-map-ap-${a}`).waitFor();
    await page.getByTestId(`wifi-map-ap-${b}`).waitFor();
    await page.getByTestId('wifi-map-scale').waitFor();
    expect(await page.getByTestId('wifi-map-wall').count()).toBe(1);
    await poll(() => paintedCells(page)).toBeGreaterThan(1000);

    // 390 px: the screen fits and stays axe-clean.
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
    await phone.context().addCookies(await page.context().cookies());
    await openMap(phone, projectId);
    await phone.getByTestId(`wifi-map-ap-${a}`).waitFor();
    await poll(() => paintedCells(phone)).toBeGreaterThan(1000);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await poll(() => axeViolations(phone)).toEqual([]);
  });
});

/** A point of the plan (fractions of its size) as a position inside the canvas element. */
async function at(page: Page, fx: number, fy: number): Promise<{ x: number; y: number }> {
  const box = (await page.getByTestId('wifi-map-canvas').boundingBox())!;
  return { x: box.width * fx, y: box.height * fy };
}
