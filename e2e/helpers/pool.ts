import type { DeviceView } from '@beacon/protocol';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { call } from './account.ts';

/** Adds devices of the e2e pool to a project and waits until the project sees them all online. */
export async function addPoolDevices(page: Page, projectId: number, sns: string[]): Promise<void> {
  for (const sn of sns) {
    const added = await call(page, 'POST', `/projects/${projectId}/devices`, { sn });
    expect(added.code, JSON.stringify(added)).toBe(0);
  }
  await expect
    .poll(
      async () => {
        const res = await call<{ items: DeviceView[] }>(
          page,
          'GET',
          `/projects/${projectId}/devices?page=1&pageSize=20`,
        );
        return res.data.items.filter((d) => sns.includes(d.sn) && d.status === 1).length;
      },
      { timeout: 15_000, interval: 100 },
    )
    .toBe(sns.length);
}

/** Gives pool devices back (unbound), so that a retry or another run can add them again. */
export async function releasePoolDevices(page: Page, projectId: number, sns: string[]): Promise<void> {
  for (const sn of sns) await call(page, 'DELETE', `/projects/${projectId}/devices/${sn}?mode=unbind`);
}
