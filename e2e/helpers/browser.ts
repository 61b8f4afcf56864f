import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { CHROMIUM_ARGS } from './chromium.ts';

export const baseUrl = (): string => inject('baseUrl');
export const hasChromium = (): boolean => inject('chromiumPath') !== '';

const ARTIFACTS = path.resolve(import.meta.dirname, '../artifacts');

/**
 * One Chromium per test file; each call of `newPage` opens a fresh context (a separate browser
 * profile, so two users can be signed in at once). A failing test leaves a screenshot per page.
 * A context opened in a test closes when the test ends (one opened in `beforeAll` stays for the
 * file): a page left open goes on rendering its screen, live updates and all, beside every later
 * test of the file, on a runner whose two cores the browser already keeps busy.
 */
export function useBrowser(): {
  newPage(options?: { viewport?: { width: number; height: number } }): Promise<Page>;
  contexts: BrowserContext[];
} {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  /** Contexts opened by the running test (undefined outside a test: in `beforeAll`). */
  let testContexts: BrowserContext[] | undefined;
  beforeEach(() => {
    testContexts = [];
  });
  beforeAll(async () => {
    if (!hasChromium()) return;
    browser = await chromium.launch({
      executablePath: inject('chromiumPath'),
      args: CHROMIUM_ARGS,
      headless: true,
    });
  });
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail') {
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      const name = ctx.task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      let i = 0;
      for (const context of contexts) {
        for (const page of context.pages()) {
          await page
            .screenshot({ path: path.join(ARTIFACTS, `${name}-${i++}.png`), fullPage: true })
            .catch(() => {});
        }
      }
    }
    for (const context of testContexts ?? []) {
      contexts.splice(contexts.indexOf(context), 1);
      await context.close().catch(() => {});
    }
    testContexts = undefined;
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    contexts,
    /** A desktop window (1440 × 900) unless told otherwise (a phone: 390 × 844). */
    async newPage(options = {}) {
      if (!browser) throw new Error('Chromium is not available');
      const context = await browser.newContext({
        baseURL: baseUrl(),
        viewport: options.viewport ?? { width: 1440, height: 900 },
      });
      contexts.push(context);
      testContexts?.push(context);
      return context.newPage();
    },
  };
}

/** Reads the newest mail to `email` from the local outbox and returns its 6-digit code. */
export async function readEmailCode(email: string): Promise<string> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const res = await fetch(`${baseUrl()}/api/v1/dev/outbox?email=${encodeURIComponent(email)}`);
    const body = (await res.json()) as { data?: Array<{ body: string }> };
    const code = body.data?.[0]?.body.match(/\b(\d{6})\b/)?.[1];
    if (code) return code;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no code mailed to ${email}`);
}
