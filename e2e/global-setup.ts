import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../packages/server/src/config.ts';
import { startEmbeddedPostgresOnFreePort } from '../packages/server/src/db/embedded.ts';
import { seedDemoDevices } from '../packages/server/src/gateway/demo.ts';
import { startServer } from '../packages/server/src/server.ts';
import { startTestOidcProvider } from '../packages/server/test/helpers/oidc-provider.ts';
import { findChromium } from './helpers/chromium.ts';
import { startE2eDevicePool } from './helpers/devices.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    chromiumPath: string;
    /** Serial numbers of powered-on, unclaimed simulated devices (time scale 0.05) for the tests. */
    devicePool: string[];
    /** The server's MQTT broker and factory key: a test that runs simulated devices of its own. */
    brokerUrl: string;
    factoryKey: string;
    /** The in-process OpenID provider that every social sign-in slot of the server uses. */
    idpUrl: string;
    /** The server's database: a test that seeds history no device could report in its time. */
    databaseUrl: string;
  }
}

/** A loopback port that is free now (the server takes it a moment later). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const root = path.resolve(import.meta.dirname, '..');

/**
 * Builds the web app, boots the real server (its own database on the machine's PostgreSQL when
 * DATABASE_URL is set, else an embedded one) and hands the URL and Chromium's path to the tests.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const chromiumPath = findChromium();
  if (!chromiumPath) {
    const message = 'Chromium not found (install Debian\'s "chromium" or set CHROMIUM_PATH)';
    if (process.env.CI === 'true' || process.env.E2E_REQUIRED === '1') throw new Error(message);
    console.warn(`\n${message}: the end-to-end tests will be skipped.\n`);
  }
  project.provide('chromiumPath', chromiumPath ?? '');

  if (process.env.E2E_SKIP_BUILD !== '1') {
    const build = spawnSync('npm', ['run', 'build', '-w', '@beacon/web'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('web build failed');
  }

  const cleanups: Array<() => Promise<void>> = [];
  let databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const name = `beacon_e2e_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-e2e-pg-'));
    fs.chmodSync(dir, 0o755);
    const embedded = await startEmbeddedPostgresOnFreePort(path.join(dir, 'pg'));
    databaseUrl = embedded.url;
    cleanups.push(async () => {
      await embedded.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    });
  }

  // A real OpenID provider in-process for social sign-in (e2e/sign-in-methods.test.ts). Its redirect
  // URIs name the server's address, so the server's port is chosen first.
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  const idp = await startTestOidcProvider([publicUrl]);
  cleanups.push(() => idp.close());
  project.provide('idpUrl', idp.issuer);
  const config = loadConfig({
    ...process.env,
    ...idp.env(),
    PUBLIC_URL: publicUrl,
    NODE_ENV: 'test',
    DATABASE_URL: databaseUrl,
    DEV_OUTBOX: '1',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    AUTH_RATE_LIMIT: '1000',
    // The embedded broker on a free port; no real-time demo fleet (the tests run their own pool).
    MQTT_PORT: process.env.MQTT_PORT ?? '0',
    DEMO: process.env.DEMO ?? '0',
  });
  const server = await startServer(config);
  const pool = await startE2eDevicePool(server.gateway.brokerUrl, config.factoryKey);
  project.provide('devicePool', pool.sns);
  // The demo projects' devices are bound (offline until a test powers one on: status.test.ts).
  await seedDemoDevices(server.database);
  project.provide('brokerUrl', server.gateway.brokerUrl);
  project.provide('factoryKey', config.factoryKey);
  cleanups.unshift(() => pool.stop());
  // The page's Origin is the host it was loaded from, which the Origin check accepts.
  project.provide('baseUrl', publicUrl);
  project.provide('databaseUrl', databaseUrl);
  return async () => {
    await cleanups[0]?.();
    await server.close();
    for (const cleanup of cleanups.slice(1)) await cleanup();
  };
}
