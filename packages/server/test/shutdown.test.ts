import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/db/embedded.ts';
import { scheduleJob } from '../src/jobs/runner.ts';
import { waitFor } from './devices.helpers.ts';
import { capturingLogger, startTestServer } from './helpers/harness.ts';
import { ServerProcess } from './helpers/server-process.ts';

/**
 * The process as `npm start` runs it (src/main.ts): embedded PostgreSQL, embedded broker, the demo
 * fleet. SIGTERM must stop it in order — device intake and jobs, HTTP, database, PostgreSQL last —
 * without a single error in the log, and it must start again on the same data directory.
 */

describe('shutdown of the process (src/main.ts)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-shutdown-'));
  // PostgreSQL runs as the postgres user when we are root: it must reach the data directory.
  fs.chmodSync(dataDir, 0o755);
  const running: ServerProcess[] = [];

  afterAll(async () => {
    for (const p of running) p.kill();
    const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
    if (fs.existsSync(pidFile)) {
      try {
        process.kill(Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGINT');
      } catch {}
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('SIGTERM while the demo fleet reports stops everything in order, without errors, and it starts again', async () => {
    const pgPort = await freePort();
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(await freePort()),
      DATA_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      MQTT_PORT: '0',
      // This test is about the embedded PostgreSQL and broker, even where CI sets external ones.
      DATABASE_URL: '',
      MQTT_URL: '',
      DEMO: '1',
      // A key of its own: with the public default the server warns at start (a warning here is a failure).
      BEACON_FACTORY_KEY: 'shutdown-test-factory-key',
      // Set, as in production: without it the server warns at start (and this test wants none).
      BEACON_SECRET_KEY: 'shutdown-test-secret-key',
      // Likewise the firmware signing seed (an Ed25519 seed, 64 hex characters).
      BEACON_FIRMWARE_KEY: '5e'.repeat(32),
    };
    const first = new ServerProcess(env);
    running.push(first);
    await first.waitForLog('Beacon is running', 90_000);

    // Wait until the fleet is online: the gateway is then busy with hellos, states and telemetry.
    const db = new pg.Client({ connectionString: `postgresql://postgres:beacon@127.0.0.1:${pgPort}/beacon` });
    await db.connect();
    const deadline = Date.now() + 30_000;
    let online = 0;
    while (online < 30 && Date.now() < deadline) {
      const { rows } = await db.query<{ n: number }>(
        'select count(*)::int as n from device_state where status = 1',
      );
      online = rows[0].n;
      await new Promise((r) => setTimeout(r, 200));
    }
    await db.end();
    expect(online).toBeGreaterThanOrEqual(30);

    const at = first.lines.length;
    first.signal('SIGTERM');
    const exit = await first.exited;
    const after = first.lines.slice(at);
    expect(exit, first.describe()).toEqual({ code: 0, signal: null });
    expect(
      after.filter((l) => l.level >= 40),
      first.describe(),
    ).toEqual([]);
    expect(after.map((l) => l.msg)).toEqual(['SIGTERM: shutting down', 'stopped']);
    expect(first.stderr).toBe('');
    // PostgreSQL was stopped (cleanly: it removes its pid file), not left behind.
    expect(fs.existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    // Started again, behind a load balancer (SHUTDOWN_DRAIN_SECONDS): on SIGTERM /readyz answers 503
    // at once while the API is still served for the delay, then the server stops as before.
    const second = new ServerProcess({ ...env, DEMO: '0', SHUTDOWN_DRAIN_SECONDS: '3' });
    running.push(second);
    await second.waitForLog('Beacon is running', 60_000);
    const base = `http://127.0.0.1:${env.PORT}`;
    const status = async (url: string) => (await fetch(`${base}${url}`)).status;
    expect(await status('/readyz')).toBe(200);
    second.signal('SIGTERM');
    let exited = false;
    void second.exited.then(() => {
      exited = true;
    });
    await second.waitForLog('draining', 5000);
    expect(await status('/readyz')).toBe(503);
    expect(await status('/api/v1/health')).toBe(200);
    // Still served well into the delay (not only in its first moment).
    await new Promise((r) => setTimeout(r, 1500));
    expect(exited).toBe(false);
    expect(await status('/readyz')).toBe(503);
    expect(await status('/api/v1/health')).toBe(200);
    expect(await second.exited, second.describe()).toEqual({ code: 0, signal: null });
    expect(second.lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(second.lines.map((l) => l.msg)).toContain('stopped');
  }, 180_000);
});

describe('a slow shutdown step (src/server.ts close())', () => {
  it('is named in the log while it runs, not only once it has ended', async () => {
    const { logger, lines } = capturingLogger('warn');
    const server = await startTestServer({}, { logger });
    let started = false;
    server.jobs.register('shutdown-test-slow', async () => {
      started = true;
      await new Promise((r) => setTimeout(r, 3000));
    });
    await scheduleJob(server.database.db, { kind: 'shutdown-test-slow', runAt: new Date(0) });
    await waitFor(() => started, 'the slow job under way');
    const closing = server.close();
    // Before the step ends (the forced exit of lifecycle.ts could come first on a real server).
    await waitFor(
      () => lines.some((l) => l.msg === 'shutdown: a step still running' && l.step === 'jobs'),
      'the running step named',
    );
    expect(lines.some((l) => l.msg === 'shutdown: a slow step')).toBe(false);
    await closing;
    expect(lines.find((l) => l.msg === 'shutdown: a slow step')).toMatchObject({ step: 'jobs' });
  }, 30_000);
});
