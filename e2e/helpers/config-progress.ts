import type { Page } from 'playwright-core';
import { expect } from 'vitest';

type Seen = { statusSeen: Record<string, string[]>; statusWatch?: MutationObserver };

/**
 * Saving a configuration in the browser, as the network and Wi-Fi screens show it: each device
 * pending, then applied. A pool device applies a document within a few hundred milliseconds, so
 * its "Pending" may be on screen for less than one poll of a test (CI once polled "Applied" for
 * 5 s after a save). Call before the click that saves: from then on every text the status cells
 * `${prefix}-${sn}` show is recorded in the page (a DOM observer), and the save's answer (the first
 * request other than GET whose path ends with `pathEnd`) is read for each device's status then.
 */
export async function watchSave(
  page: Page,
  prefix: string,
  sns: string[],
  pathEnd: RegExp,
): Promise<() => Promise<void>> {
  await page.evaluate(
    ([cells, list]) => {
      const w = window as unknown as Seen;
      w.statusWatch?.disconnect();
      w.statusSeen = Object.fromEntries(list.map((sn) => [sn, []]));
      const record = () => {
        for (const sn of list) {
          const shown = document.querySelector(`[data-testid="${cells}-${sn}"]`)?.textContent ?? '';
          const seen = w.statusSeen[sn];
          if (shown && seen[seen.length - 1] !== shown) seen.push(shown);
        }
      };
      w.statusWatch = new MutationObserver(record);
      w.statusWatch.observe(document.body, { subtree: true, childList: true, characterData: true });
    },
    [prefix, sns] as const,
  );
  const answer = page.waitForResponse(
    (r) => r.request().method() !== 'GET' && pathEnd.test(new URL(r.url()).pathname),
  );
  // A test that fails before it awaits the answer closes the page: not an unhandled rejection too.
  answer.catch(() => {});
  return async () => {
    const body = (await (await answer).json()) as {
      code: number;
      data: { devices: { sn: string; status: string }[] };
    };
    expect(body.code).toBe(0);
    const answered = new Map(body.data.devices.map((d) => [d.sn, d.status]));
    // Each device shown pending after the save, then applied once it reports the revision. When
    // the answer already had it applied (it took the push before the answer was read), there was
    // no pending state to show.
    for (const sn of sns) {
      await expect
        .poll(() => page.getByTestId(`${prefix}-${sn}`).textContent(), { timeout: 30_000, interval: 100 })
        .toBe('Applied');
    }
    const seen = await page.evaluate(() => (window as unknown as Seen).statusSeen);
    for (const sn of sns) {
      const shown = seen[sn] ?? [];
      if (answered.get(sn) === 'pending') {
        expect(shown, `${sn}: the statuses shown since the save`).toContain('Pending');
        expect(shown.lastIndexOf('Applied')).toBeGreaterThan(shown.indexOf('Pending'));
      } else {
        expect(answered.get(sn), `${sn}: its status in the save's answer`).toBe('applied');
      }
    }
  };
}
