import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/embedded.ts';
import { waitFor } from '../devices.helpers.ts';
import { listening } from './ports.ts';

/**
 * A Mosquitto of a test's own on a free loopback port (the broker tests of issue 16: a burst, a
 * restart, a server killed under it), configured as docs/protocol/mosquitto.md says. Tests that use
 * it are skipped where no `mosquitto` binary is installed (HAS_MOSQUITTO).
 */

export const HAS_MOSQUITTO = !spawnSync('mosquitto', ['-h']).error;

/** The queue limits of the documented configuration (docs/protocol/mosquitto.md). */
export function documentedLimits(): string[] {
  const page = fs.readFileSync(
    path.resolve(import.meta.dirname, '../../../../docs/protocol/mosquitto.md'),
    'utf8',
  );
  const lines = page.split('\n').filter((l) => /^max_(inflight|queued)_messages \d+$/.test(l.trim()));
  if (lines.length !== 2) throw new Error('docs/protocol/mosquitto.md: the two queue limits not found');
  return lines.map((l) => l.trim());
}

export interface TestMosquitto {
  port: number;
  url: string;
  /** Starts it (again) on the same port and configuration. */
  start(): Promise<void>;
  /** SIGKILL, as a crash: no will is published, the port is free again once it has exited. */
  kill(): Promise<void>;
  /** Kills it and removes its directory. */
  close(): Promise<void>;
}

export async function startMosquitto(name: string): Promise<TestMosquitto> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `beacon-${name}-`));
  const port = await freePort();
  const conf = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      'log_type error',
      ...documentedLimits(),
      '',
    ].join('\n'),
  );
  let broker: ChildProcess | null = null;
  const kill = async () => {
    const b = broker;
    if (!b || b.exitCode !== null || b.signalCode !== null) return;
    const exited = new Promise((r) => b.once('exit', r));
    b.kill('SIGKILL');
    await exited;
  };
  const mosquitto: TestMosquitto = {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    async start() {
      broker = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
      await waitFor(() => listening(port), 'mosquitto listening');
    },
    kill,
    async close() {
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await mosquitto.start();
  return mosquitto;
}
