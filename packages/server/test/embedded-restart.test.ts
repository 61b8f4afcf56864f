import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { waitFor } from './devices.helpers.ts';

/**
 * The server process as `npm start` runs it (main.ts, embedded PostgreSQL under DATA_DIR), killed
 * with SIGKILL: nothing of ours runs, so its PostgreSQL is left running with its lock file. The next
 * start must come up anyway.
 */

const root = path.resolve(import.meta.dirname, '../../..');
const isRoot = process.getuid?.() === 0;
let dir: string;
const children: ChildProcess[] = [];
const serverPids: number[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-kill-'));
  // The postgres system user (when the tests run as root) must be able to enter it.
  fs.chmodSync(dir, 0o755);
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const pid of serverPids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  // Whatever PostgreSQL is still running on the test's data directories.
  for (const data of ['data', 'wrapped']) {
    const pid = postmasterPid(data);
    if (pid && alive(pid)) {
      process.kill(pid, 'SIGQUIT');
      await waitFor(() => !alive(pid), 'the leftover PostgreSQL to stop');
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function postmasterPid(data = 'data'): number | undefined {
  try {
    return Number(fs.readFileSync(path.join(dir, data, 'postgres/postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
}

interface Started {
  child: ChildProcess;
  output: () => string;
}

const main = path.join(root, 'packages/server/src/main.ts');
/** What scripts/start.mjs does after the web build: run main.ts as its child, telling it its pid. */
const wrapper = `
const { spawn } = require('node:child_process');
const server = spawn(process.execPath, ['--import', 'tsx', ${JSON.stringify(main)}], {
  stdio: 'inherit',
  env: { ...process.env, BEACON_SUPERVISOR_PID: String(process.pid) },
});
console.log('server pid ' + server.pid);
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
`;

/**
 * Spawns the server (or, with `wrapped`, the start.mjs-like wrapper around it) and waits until
 * /api/v1/health answers 200.
 */
async function startServerProcess(
  env: Record<string, string>,
  options: { data?: string; wrapped?: boolean } = {},
): Promise<Started> {
  const { DATABASE_URL: _d, MQTT_URL: _m, ...inherited } = process.env;
  const args = options.wrapped ? ['-e', wrapper] : ['--import', 'tsx', main];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...inherited,
      NODE_ENV: 'test',
      DATA_DIR: path.join(dir, options.data ?? 'data'),
      HOST: '127.0.0.1',
      DEMO: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let text = '';
  child.stdout?.on('data', (d) => {
    text += String(d);
  });
  child.stderr?.on('data', (d) => {
    text += String(d);
  });
  const output = () => text;
  await waitFor(
    async () => {
      // Its last lines first: a summary keeps only an error's first lines, and the first ones are
      // the start's warnings.
      if (child.exitCode !== null) {
        const last = text.trim().split('\n').slice(-2).join('\n');
        throw new Error(
          `the server exited (${child.exitCode}); its last lines:\n${last}\nall of it:\n${text}`,
        );
      }
      try {
        return (await fetch(`http://127.0.0.1:${env.PORT}/api/v1/health`)).status === 200;
      } catch {
        return false;
      }
    },
    'the server to answer /health',
    90_000,
  );
  return { child, output };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.on('exit', (code) => resolve(code));
  });
}

describe('the embedded PostgreSQL', () => {
  it('comes up again after the server was killed with SIGKILL (its PostgreSQL left running)', async () => {
    const env = {
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
    };
    const first = await startServerProcess(env);
    const orphan = postmasterPid();
    expect(orphan).toBeTruthy();

    first.child.kill('SIGKILL');
    await exitOf(first.child);
    // The precondition: the old server's PostgreSQL outlived it, lock file and all.
    expect(alive(orphan as number)).toBe(true);

    const second = await startServerProcess(env);
    expect(second.output()).toContain('left running');
    expect(alive(orphan as number)).toBe(false);
    const health = await fetch(`http://127.0.0.1:${env.PORT}/api/v1/health`);
    expect(((await health.json()) as { data: { database: string } }).data.database).toBe('up');

    // And an orderly stop still takes its PostgreSQL along.
    second.child.kill('SIGTERM');
    expect(await exitOf(second.child)).toBe(0);
    const restarted = postmasterPid();
    expect(restarted === undefined || !alive(restarted)).toBe(true);
  }, 240_000);

  it('stops, its PostgreSQL too, when the npm start wrapper around it is killed with SIGKILL', async () => {
    const env = {
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(await freePort()),
      MQTT_PORT: String(await freePort()),
    };
    const started = await startServerProcess(env, { data: 'wrapped', wrapped: true });
    const server = Number(/server pid (\d+)/.exec(started.output())?.[1]);
    expect(server).toBeGreaterThan(0);
    serverPids.push(server);
    const postgres = postmasterPid('wrapped') as number;
    expect(alive(postgres)).toBe(true);

    started.child.kill('SIGKILL');

    await waitFor(() => !alive(server), 'the server to stop', 60_000);
    expect(alive(postgres)).toBe(false);
    expect(started.output()).toContain('npm start exited: shutting down');
  }, 240_000);

  it.skipIf(!isRoot)(
    'as root, says what to do when the postgres user cannot enter a directory above the data',
    async () => {
      const locked = fs.mkdtempSync(path.join(dir, 'home-'));
      fs.chmodSync(locked, 0o700);
      const attempt = startEmbeddedPostgres(path.join(locked, 'data/postgres'), await freePort());
      await expect(attempt).rejects.toThrow(`may not enter ${locked} (mode 700)`);
      await expect(attempt).rejects.toThrow('DATABASE_URL');
      expect(fs.existsSync(path.join(locked, 'data/postgres/PG_VERSION'))).toBe(false);
    },
    120_000,
  );
});
