import { describe, expect, inject, it } from 'vitest';
import { openProjectRow, signUpInBrowser } from './helpers/account.ts';
import { hasChromium, useBrowser } from './helpers/browser.ts';

/**
 * SPEC.md §5: device names and remarks are 1 to 32 printable ASCII characters. The add and edit
 * forms run the protocol's validator (the server's rule) and say so before anything is sent.
 */
describe.runIf(hasChromium())('device names in Chromium', () => {
  const browser = useBrowser();

  it('refuses a name in another script when adding and renaming, and keeps an ASCII one', async () => {
    const page = await browser.newPage();
    const email = `e2e-names-${Date.now()}@example.com`;
    const password = 'e2e-secret-1';
    const sn = inject('devicePool')[2];
    const asciiOnly = 'Device name must contain printable ASCII characters only';

    await signUpInBrowser(page, email, password);

    await page.goto('/overview/list');
    await page.getByTestId('create-project').click();
    await page.getByTestId('project-form-name').fill('E2E-Names');
    await page.getByTestId('project-form-netmode-wlan').click();
    await page.getByTestId('project-form-submit').click();
    await expect.poll(() => page.getByText('E2E-Names', { exact: true }).first().isVisible()).toBe(true);
    await openProjectRow(page, 'E2E-Names');

    // Writes to the device inventory the page sends: a refused name must not be among them.
    const writes: string[] = [];
    page.on('request', (r) => {
      if (r.method() !== 'GET' && r.url().includes('/devices')) writes.push(`${r.method()} ${r.url()}`);
    });

    await page.goto('/manage/devconf');
    await page.getByTestId('add-device').click();
    await page.getByTestId('add-device-sn').fill(sn);
    await page.getByTestId('add-device-name').fill('Salle à manger');
    await page.getByTestId('add-device-submit').click();
    await expect.poll(() => page.getByText(asciiOnly).isVisible()).toBe(true);
    expect(writes).toEqual([]);
    await page.getByTestId('add-device-name').fill('Dining room');
    await page.getByTestId('add-device-submit').click();
    await expect.poll(() => page.getByTestId(`device-row-${sn}`).count(), { timeout: 15_000 }).toBe(1);

    await page.getByTestId(`device-open-${sn}`).click();
    await page.getByTestId('device-edit').click();
    await page.getByTestId('device-edit-name').fill('会议室');
    await page.getByTestId('device-edit-submit').click();
    await expect.poll(() => page.getByText(asciiOnly).isVisible()).toBe(true);
    expect(writes).toHaveLength(1); // the add, not the refused rename
    await page.getByTestId('device-edit-name').fill('Meeting room');
    await page.getByTestId('device-edit-submit').click();
    await expect
      .poll(() => page.getByTestId(`device-row-${sn}`).first().textContent(), { timeout: 10_000 })
      .toContain('Meeting room');
  });
});
