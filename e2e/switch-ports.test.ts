import type { SwitchView } from '@beacon/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { call, createProjectByApi, freshSn, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';

/** The machine is shared: allow the UI a few seconds. */
const poll = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 200 });

async function openDrawer(page: Page, projectId: number, sn: string): Promise<void> {
  await page.goto('/overview/list');
  await page.getByTestId(`project-row-${projectId}`).click();
  await page.waitForURL('**/overview/preview');
  await page.goto('/manage/devconf');
  const status = page.getByTestId(`device-status-${sn}`).first();
  await poll(() => status.getAttribute('data-status')).toBe('1');
  await page.getByTestId(`device-open-${sn}`).click();
  await page.getByTestId('ports-panel').waitFor();
}

/**
 * Switch ports (issue 10, decision 0039) in Chromium: the pool switch's Ports panel in the device
 * drawer; a port edited (name, PoE off) with the form checking as the user types, saved, and seen
 * going from pending to applied while the switch reports the port unpowered; axe-clean and fitting
 * at 1440 px and 390 px.
 */
describe.runIf(hasChromium())('switch ports in Chromium', () => {
  const browser = useBrowser();

  it('edits a port of the pool switch and sees it applied', { timeout: 120_000 }, async () => {
    const sn = inject('devicePool').find((s) => s === 'E2EPOOLSW0000003')!;
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signUpByApi(page, `e2e-switch-${Date.now()}@example.com`);
    const projectId = await createProjectByApi(page, 'E2E-Switch');
    expect((await call(page, 'POST', `/projects/${projectId}/devices`, { sn })).code).toBe(0);
    try {
      await editPort(browser, page, projectId, sn);
    } finally {
      // The pool switch goes back to the pool: a retry binds it again (else 5005, already bound).
      await call(page, 'DELETE', `/projects/${projectId}/devices/${sn}`);
    }
  });
});

async function editPort(
  browser: ReturnType<typeof useBrowser>,
  page: Page,
  projectId: number,
  sn: string,
): Promise<void> {
  await openDrawer(page, projectId, sn);

  await poll(() => page.getByTestId('port-edit-3').count()).toBe(1);
  await page.getByTestId('port-edit-3').click();
  const form = page.getByTestId('port-form');
  await form.waitFor();

  // Checked as the user types, with the protocol's validators: a trunk VLAN equal to the PVID.
  await form.getByText('Trunk', { exact: true }).click();
  await page.getByTestId('port-allowed').fill('1');
  await poll(() => form.getByText('Tagged VLANs must differ from the PVID').count()).toBe(1);
  expect(await page.getByTestId('port-save').isDisabled()).toBe(true);
  await page.getByTestId('port-allowed').fill('10,20-22');
  await poll(() => form.getByText('Tagged VLANs must differ from the PVID').count()).toBe(0);
  await page.getByTestId('port-stripped').fill('21');
  await poll(() => form.getByText('VLAN 21 cannot be both stripped and allowed').count()).toBe(1);
  await page.getByTestId('port-stripped').fill('30');

  await page.getByTestId('port-name').fill('camera-3');
  await page.getByTestId('port-poe').click();
  expect(await axeViolations(page)).toEqual([]);
  await poll(() => page.getByTestId('port-save').isDisabled()).toBe(false);
  await page.getByTestId('port-save').click();

  // Pending, then applied once the switch reports the revision.
  const status = page.getByTestId('ports-config-status');
  await poll(() => status.textContent(), 30_000).toContain('Applied');
  await poll(() => page.getByTestId('port-poe-3').textContent()).toBe('Off');
  const row = page.locator('[data-testid="ports-table"] tr', { hasText: 'camera-3' });
  await poll(() => row.count()).toBe(1);
  expect(await row.textContent()).toContain('10,20-22');

  // The switch runs it: its reported revision matches and port 3 draws no power.
  const view = (await call<SwitchView>(page, 'GET', `/projects/${projectId}/devices/${sn}/switch`)).data;
  expect(view.reportedRevision).toBe(view.revision);
  expect(view.switch.ports.find((p) => p.id === 3)).toMatchObject({
    name: 'camera-3',
    mode: 'trunk',
    allowed: [10, 20, 21, 22],
    stripped: [30],
    poe: { enabled: false },
  });
  await poll(
    async () =>
      (await call<SwitchView>(page, 'GET', `/projects/${projectId}/devices/${sn}/switch`)).data.live.find(
        (p) => p.id === 3,
      )?.poe,
  ).toEqual({ enabled: false, power: 0 });
  await poll(() => axeViolations(page)).toEqual([]);

  // 390 px: the panel fits, its table scrolls inside it, and it stays axe-clean.
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await phone.context().addCookies(await page.context().cookies());
  await openDrawer(phone, projectId, sn);
  const panel = phone.getByTestId('ports-panel');
  await poll(async () => {
    const box = await panel.boundingBox();
    return box ? box.x >= 0 && box.x + box.width <= 390 : false;
  }).toBe(true);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await poll(() => axeViolations(phone)).toEqual([]);

  // An offline switch: the panel says why it cannot be configured, and the server refuses with 36.
  const offline = freshSn('E2ESWOFF');
  expect(
    (await call(phone, 'POST', `/projects/${projectId}/devices`, { sn: offline, model: 'BS-S1008P' })).code,
  ).toBe(0);
  await phone.keyboard.press('Escape');
  await phone.getByTestId('ports-panel').waitFor({ state: 'detached' });
  await poll(() => phone.getByTestId(`device-open-${offline}`).count()).toBe(1);
  await phone.getByTestId(`device-open-${offline}`).click();
  await poll(() => phone.getByTestId('ports-blocked').textContent()).toContain('offline');
  await poll(() => axeViolations(phone)).toEqual([]);
  const refused = await call(phone, 'PUT', `/projects/${projectId}/devices/${offline}/switch`, {
    expectedRevision: 0,
    switch: {},
  });
  expect(refused.code).toBe(36);
}
