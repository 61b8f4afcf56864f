import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { baseUrl, readEmailCode } from './browser.ts';

export type Envelope<T = unknown> = { code: number; data: T; fields?: Record<string, string> };

export const PASSWORD = 'e2e-secret-1';

/** Calls the API from inside the page (same origin, the page's cookie). */
export function call<T = unknown>(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<Envelope<T>> {
  return page.evaluate(
    async ([m, p, b]) => {
      const res = await fetch(`/api/v1${p}`, {
        method: m as string,
        headers: b === undefined ? {} : { 'content-type': 'application/json' },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      return res.json();
    },
    [method, path, body] as const,
  ) as Promise<Envelope<T>>;
}

/** Signs a new account up through the API; the page stays signed in (the cookie is its context's). */
export async function signUpByApi(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  expect((await call(page, 'POST', '/auth/codes', { email, purpose: 'signup' })).code).toBe(0);
  const code = await readEmailCode(email);
  const res = await call(page, 'POST', '/auth/signup', {
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    code,
  });
  expect(res.code).toBe(0);
}

/** A WLAN project of the signed-in account, through the API. */
export async function createProjectByApi(page: Page, name: string): Promise<number> {
  const res = await call<{ id: number }>(page, 'POST', '/projects', { name, scenario: 'hotel' });
  expect(res.code).toBe(0);
  return res.data.id;
}

/**
 * A serial number no device has used: pre-provisioned with its model it shows in the project
 * (offline) without taking one of the shared pool's powered-on devices.
 */
export function freshSn(prefix: string): string {
  const tail = `${Date.now()}${Math.floor(Math.random() * 1e6)}`.replace(/\D/g, '');
  return `${prefix}${tail}`.slice(0, 24).toUpperCase();
}

/** Signs a new account up through the sign-up screen, as a person would; lands on the overview. */
export async function signUpInBrowser(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto('/signup');
  await page.getByTestId('signup-email').fill(email);
  await page.getByTestId('signup-send-code').click();
  await page.getByTestId('signup-code').fill(await readEmailCode(email));
  await page.getByTestId('signup-password').fill(password);
  await page.getByTestId('signup-confirm').fill(password);
  await page.getByTestId('signup-submit').click();
  await page.waitForURL('**/overview/preview');
}

/**
 * Opens a project from the project list by its table row (not by its name's first match: the
 * header's project switcher names the current project too) and waits for its overview.
 */
export async function openProjectRow(page: Page, name: string): Promise<void> {
  await page.locator('tr[data-testid^="project-row-"]', { hasText: name }).click();
  await page.waitForURL('**/overview/preview');
}

/** The newest mail to `address` (an email or an SMS number) whose body matches `pattern`. */
export async function readOutbox(address: string, pattern: RegExp, notBefore = 0): Promise<RegExpMatchArray> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const res = await fetch(`${baseUrl()}/api/v1/dev/outbox?email=${encodeURIComponent(address)}`);
    const body = (await res.json()) as { data?: Array<{ body: string }> };
    const all = body.data ?? [];
    const match = all.length > notBefore ? all[0].body.match(pattern) : null;
    if (match) return match;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`nothing matching ${pattern} sent to ${address}`);
}

/** How many mails or SMS `address` has received. */
export async function outboxCount(address: string): Promise<number> {
  const res = await fetch(`${baseUrl()}/api/v1/dev/outbox?email=${encodeURIComponent(address)}`);
  return ((await res.json()) as { data?: unknown[] }).data?.length ?? 0;
}

/** The set-your-password link of a subordinate account's invitation mail: its path and query. */
export async function readInvitationLink(email: string): Promise<string> {
  const [href] = await readOutbox(email, /https?:\/\/\S+\/set-password\?\S+/);
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
}

/** Sets a subordinate account's password through its invitation link, by the API (decision 0068). */
export async function acceptInvitationByApi(page: Page, email: string, password = PASSWORD): Promise<void> {
  const token = new URL(await readInvitationLink(email), baseUrl()).searchParams.get('token');
  const res = await call(page, 'POST', '/auth/invitation', {
    email,
    token,
    password,
    confirmPassword: password,
  });
  expect(res.code).toBe(0);
}
