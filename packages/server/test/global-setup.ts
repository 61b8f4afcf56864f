import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgresOnFreePort } from '../src/db/embedded.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminDatabaseUrl: string;
  }
}

/**
 * One PostgreSQL for the whole run: the machine's own when DATABASE_URL is set (CI), otherwise a
 * real embedded one. Each test file then gets a database of its own (helpers/harness.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.DATABASE_URL) {
    project.provide('adminDatabaseUrl', process.env.DATABASE_URL);
    return async () => {};
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-test-pg-'));
  fs.chmodSync(dir, 0o755);
  const embedded = await startEmbeddedPostgresOnFreePort(path.join(dir, 'pg'));
  project.provide('adminDatabaseUrl', embedded.url);
  return async () => {
    await embedded.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
