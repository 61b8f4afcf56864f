import type { NetworkView } from '@beacon/protocol';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { call, createProjectByApi, openProjectRow, signUpByApi } from './helpers/account.ts';
import { axeViolations } from './helpers/axe.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';
import { watchSave } from './helpers/config-progress.ts';
import { addPoolDevices, releasePoolDevices } from './helpers/pool.ts';

/** The machine is shared: allow the UI a few seconds (expect.poll alone gives up after one). */
const poll = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout, interval: 100 });

const GATEWAY = 'E2EPOOLGW0000001';
const SWITCH = 'E2EPOOLSW0000002';

/** Clicks the save of the "touches these devices" confirmation and checks it named `sns`. */
async function confirmSave(page: Page, sns: string[]): Promise<void> {
  const preview = page.getByTestId('network-preview');
  await poll(() => preview.isVisible()).toBe(true);
  const text = (await preview.textContent()) ?? '';
  for (const sn of sns) expect(text).toContain(sn);
  await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
}

/** Saves through the confirmation, then sees each device pending and applied (helpers/config-progress.ts). */
async function saveSeenPendingThenApplied(page: Page, sns: string[]): Promise<void> {
  const seenThrough = await watchSave(page, 'network-status', sns, /\/network$/);
  await confirmSave(page, sns);
  await seenThrough();
}

/**
 * Issue 10 in Chromium: a new project with the pool's gateway and switch; a VLAN and a DHCP pool
 * created on their screens, the devices they touch named before the save, then each device seen
 * pending and then applied, live. Values are unique per run, so a re-run still changes something.
 */
describe.runIf(hasChromium())('network configuration in Chromium', () => {
  const browser = useBrowser();

  it('creates a VLAN and a DHCP pool and shows the devices pending, then applied', {
    timeout: 240_000,
  }, async () => {
    const page = await browser.newPage();
    const run = Date.now();
    const pool = inject('devicePool');
    expect(pool).toEqual(expect.arrayContaining([GATEWAY, SWITCH]));
    const vlanId = 100 + (run % 3900);
    const octet = run % 250;
    const name = `E2E-Net-${run % 100000}`;

    await signUpByApi(page, `e2e-network-${run}@example.com`);
    const projectId = await createProjectByApi(page, name);
    await addPoolDevices(page, projectId, [GATEWAY, SWITCH]);
    try {
      await page.goto('/overview/list');
      await openProjectRow(page, name);

      // VLAN: checked as the user types with the server's rules.
      await page.goto('/manage/networkconf/vlan');
      await poll(() => page.getByTestId('vlan-table').isVisible()).toBe(true);
      await page.getByTestId('vlan-add').click();
      await page.getByTestId('vlan-id').fill('5');
      await poll(() => page.getByText('VLAN ID must be', { exact: false }).count()).toBeGreaterThan(0);
      await page.getByTestId('vlan-id').fill(String(vlanId));
      await page.getByTestId('vlan-name').fill('br0');
      await poll(() => page.getByText('VLAN name cannot be br0').count()).toBeGreaterThan(0);
      await page.getByTestId('vlan-name').fill(`staff_${run % 10000}`);
      await page.getByTestId('vlan-ip').fill(`172.20.${octet}.1`);
      await page.getByTestId('vlan-mask').fill('24');
      await page.getByTestId('vlan-submit').click();
      // Both devices: pending as soon as it is saved, then applied once they report the revision.
      await saveSeenPendingThenApplied(page, [GATEWAY, SWITCH]);
      await poll(() => page.getByTestId('vlan-table').textContent()).toContain(String(vlanId));

      // DHCP pool on that VLAN: only the gateway serves it.
      await page.goto('/manage/networkconf/dhcp');
      await poll(() => page.getByTestId('dhcp-table').isVisible()).toBe(true);
      await page.getByTestId('dhcp-add').click();
      await page.getByTestId('dhcp-name').fill(`pool_${run % 10000}`);
      await page.getByTestId('dhcp-vlan').click();
      await page.locator('.ant-select-item-option', { hasText: `VLAN ${vlanId}` }).click();
      await page.getByTestId('dhcp-start').fill(`172.20.${octet}.100`);
      await page.getByTestId('dhcp-end').fill(`172.20.${octet}.50`);
      // End before start: the document check names the rule and its code while typing.
      await poll(() => page.getByTestId('dhcp-check').textContent()).toContain('(109)');
      await page.getByTestId('dhcp-end').fill(`172.20.${octet}.200`);
      await poll(() => page.getByTestId('dhcp-check').count()).toBe(0);
      await page.getByTestId('dhcp-gateway').fill(`172.20.${octet}.1`);
      await page.getByTestId('dhcp-submit').click();
      await saveSeenPendingThenApplied(page, [GATEWAY]);

      const view = (await call<NetworkView>(page, 'GET', `/projects/${projectId}/network`)).data;
      expect(view.revision).toBe(2);
      expect(view.document.dhcpPools).toEqual([expect.objectContaining({ vlan: vlanId })]);
      expect(view.progress).toMatchObject({ pending: 0, failed: 0, applied: 2 });

      // A list of VLAN ids in one add; the L3 interface and the DHCP mode are checked while typing.
      await page.goto('/manage/networkconf/vlan');
      await poll(() => page.getByTestId('vlan-table').isVisible()).toBe(true);
      const first = vlanId + 1;
      await page.getByTestId('vlan-add').click();
      await page.getByTestId('vlan-id').fill(`${first}-${first + 2}`);
      await page.getByTestId('vlan-name').fill(`lst_${run % 1000}`);
      // L3 virtual interface on (the default) without an IP.
      await poll(() => page.getByTestId('vlan-check').textContent()).toContain('L3 virtual interface');
      await page.getByTestId('vlan-l3').click();
      await poll(() => page.getByTestId('vlan-check').count()).toBe(0);
      await page.getByTestId('vlan-dhcp').click();
      await page.getByTestId('vlan-snooping').click();
      await poll(() => page.getByTestId('vlan-check').textContent()).toContain('(5011)');
      await page.getByTestId('vlan-dhcp').click();
      await poll(() => page.getByTestId('vlan-check').count()).toBe(0);
      await page.getByTestId('vlan-submit').click();
      await confirmSave(page, [GATEWAY, SWITCH]);
      await poll(() => page.getByTestId(`network-status-${SWITCH}`).textContent(), 30_000).toBe('Applied');
      const listed = (await call<NetworkView>(page, 'GET', `/projects/${projectId}/network`)).data;
      expect(listed.document.vlans.filter((v) => v.id >= first && v.id <= first + 2)).toEqual(
        [first, first + 1, first + 2].map((id) =>
          expect.objectContaining({ id, name: `lst_${run % 1000}_${id}`, l3: false, dhcpSnooping: true }),
        ),
      );

      // Internet screen: a guest network on the VLAN's segment is refused as the user types (114),
      // then saved on a segment of its own and run by the gateway.
      await page.goto('/manage/networkconf/netset');
      await poll(() => page.getByTestId('netset-form').isVisible()).toBe(true);
      await page.getByTestId('guest-on').click();
      await page.getByTestId('guest-ip').fill(`172.20.${octet}.77`);
      await poll(() => page.getByTestId('netset-check').textContent()).toContain('(114)');
      expect(await page.getByTestId('netset-save').isDisabled()).toBe(true);
      await page.getByTestId('guest-ip').fill(`172.21.${octet}.1`);
      await poll(() => page.getByTestId('netset-check').count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByTestId('netset-save').click();
      await confirmSave(page, [GATEWAY]);
      await poll(async () => {
        const v = (await call<NetworkView>(page, 'GET', `/projects/${projectId}/network`)).data;
        return v.revision === 4 && v.progress.pending === 0 && v.progress.applied === 2;
      }, 30_000).toBe(true);
      const guest = (await call<NetworkView>(page, 'GET', `/projects/${projectId}/network`)).data;
      expect(guest.document.guest).toEqual({ ip: `172.21.${octet}.1`, mask: 24 });

      // The phone width shows the same screen.
      const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
      await signUpByApi(phone, `e2e-network-phone-${run}@example.com`);
      await phone.goto('/manage/networkconf/vlan');
      await poll(() => phone.getByTestId('page-title').isVisible()).toBe(true);
    } finally {
      await releasePoolDevices(page, projectId, [GATEWAY, SWITCH]);
    }
  });
});
