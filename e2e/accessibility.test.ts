import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, createProjectByApi, freshSn, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';

const VIEWPORTS = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

/**
 * What on the page animates without end once it is settled ("animation @ element classes"). A
 * screen left open in a tab keeps repainting for as long as one runs: antd's pulsing "processing"
 * dot, as the live-updates indicator and beside a pending count of 0, kept 8–13 % of a core busy in
 * headless Chromium on five screens that did nothing else (bench/idle-screens).
 */
const endlessAnimations = (page: Page) =>
  page.evaluate(() =>
    document
      .getAnimations()
      .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations === Infinity)
      .map((a) => {
        const target = (a.effect as KeyframeEffect | null)?.target;
        const name = a instanceof CSSAnimation ? a.animationName : a.id;
        return `endless animation ${name} @ ${target?.className.toString().slice(0, 80) ?? '?'}`;
      }),
  );

/**
 * No WCAG 2 A/AA violation (axe-core) on any screen that exists, on a desktop and on a phone, and
 * nothing animating without end. Both are polled until the page is settled (animations, data
 * loading, a spinner while it loads): a real violation stays and fails when the poll gives up.
 */
const expectAccessible = (page: Page, screen: string) =>
  expect
    .poll(
      async () => {
        const found = [...(await axeViolations(page)), ...(await endlessAnimations(page))];
        return found.length ? [`${screen}: ${found.join(' | ')}`] : found;
      },
      { timeout: 15_000, interval: 500, message: screen },
    )
    .toEqual([]);

async function visit(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.getByTestId('page-title').first().waitFor();
}

describe.runIf(hasChromium())('accessibility (axe-core, WCAG 2 A/AA)', () => {
  const browser = useBrowser();

  for (const vp of VIEWPORTS) {
    it(`has no violation on the sign-in screens at ${vp.width} px`, { timeout: 120_000 }, async () => {
      const page = await browser.newPage({ viewport: vp });
      for (const path of [
        '/login',
        '/signup',
        '/reset-password',
        '/static/transfer',
        '/static/transferToLocalDev',
        '/static/wechatTransfer',
        '/help/devices',
        '/help/codes',
        '/help/protocol',
      ]) {
        await visit(page, path);
        await expectAccessible(page, `${path} @${vp.width}`);
      }
    });

    describe(`the console's screens at ${vp.width} px`, () => {
      let page: Page;
      let projectId = 0;
      beforeAll(async () => {
        page = await browser.newPage({ viewport: vp });
        await signUpByApi(page, `e2e-a11y-${vp.name}-${Date.now()}@example.com`);
        const name = `A11y${vp.width}`;
        projectId = await createProjectByApi(page, name);
        for (const [prefix, model] of [
          ['E2EA11YAP', 'BA-W1200C'],
          ['E2EA11YSW', 'BS-S1008P'],
        ] as const) {
          const added = await call(page, 'POST', `/projects/${projectId}/devices`, {
            sn: freshSn(prefix),
            model,
          });
          expect(added.code).toBe(0);
        }
      }, 120_000);

      it('has no violation on the project list, overview and device maintenance', {
        timeout: 120_000,
      }, async () => {
        await visit(page, '/overview/list');
        await expectAccessible(page, `project list @${vp.width}`);
        await page.getByTestId(`project-row-${projectId}`).click();
        await page.waitForURL('**/overview/preview');
        await page.getByTestId('project-facts-name').waitFor();
        await expectAccessible(page, `overview @${vp.width}`);

        await visit(page, '/manage/devconf');
        await expect
          .poll(() => page.locator('[data-testid^="device-row-"]').count(), { timeout: 10_000 })
          .toBe(2);
        await expectAccessible(page, `device maintenance @${vp.width}`);
        await page.locator('[data-testid^="device-open-"]').first().click();
        await page.getByTestId('device-facts').waitFor();
        await expectAccessible(page, `device drawer @${vp.width}`);
        await page.keyboard.press('Escape');
        await page.getByTestId('device-facts').waitFor({ state: 'detached' });
        await page.getByTestId('add-device').click();
        await page.getByTestId('add-device-sn').waitFor();
        await expectAccessible(page, `add device @${vp.width}`);
        await page.keyboard.press('Escape');
      });

      it('has no violation on sharing to port mapping', { timeout: 120_000 }, async () => {
        for (const [path, screen] of [
          ['/manage/authority', 'sharing'],
          ['/manage/networkconf/vlan', 'VLAN'],
          ['/manage/networkconf/dhcp', 'DHCP'],
          ['/manage/networkconf/netset', 'Internet'],
          ['/manage/networkconf/static', 'static route'],
          ['/manage/networkconf/port', 'port mapping'],
        ] as const) {
          await visit(page, path);
          await expectAccessible(page, `${screen} @${vp.width}`);
        }
      });

      it('has no violation on route table to client data', { timeout: 120_000 }, async () => {
        for (const [path, screen] of [
          ['/manage/networkconf/router', 'route table'],
          ['/manage/wirelessconf', 'wireless'],
          ['/manage/rfconf', 'RF optimisation'],
          ['/manage/alarminfo', 'alarm'],
          ['/manage/onlinelist', 'client list'],
          ['/manage/onlinestat', 'client data'],
        ] as const) {
          await visit(page, path);
          await expectAccessible(page, `${screen} @${vp.width}`);
        }
      });

      it('has no violation on profile to Wi-Fi map', { timeout: 120_000 }, async () => {
        for (const [path, screen] of [
          ['/account', 'profile'],
          ['/account/management', 'account management'],
          ['/manage/status', 'status'],
          ['/manage/devsrunstat', 'device data'],
          ['/manage/backup', 'configuration backup'],
          ['/manage/visualization/td', 'Wi-Fi map'],
        ] as const) {
          await visit(page, path);
          await expectAccessible(page, `${screen} @${vp.width}`);
        }
      });

      it('has no violation on solutions to network topology', { timeout: 120_000 }, async () => {
        for (const [path, screen] of [
          ['/solutions', 'solutions'],
          ['/solutions/new', 'solution generator'],
          ['/reports/devices', 'activated devices'],
          ['/models', 'model list'],
          ['/manage/visualization/topo', 'network topology'],
        ] as const) {
          await visit(page, path);
          await expectAccessible(page, `${screen} @${vp.width}`);
        }
      });

      it('has no violation on the data screen and the not-found page', { timeout: 120_000 }, async () => {
        await page.goto('/overview/preview/datascreen');
        await page.getByTestId('data-screen-title').waitFor();
        await expectAccessible(page, `data screen @${vp.width}`);
        await page.goto('/no-such-screen');
        await page.getByTestId('page-title').waitFor();
        await expectAccessible(page, `not found @${vp.width}`);
      });
    });
  }
});
