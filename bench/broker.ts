/** What bench/fleet and bench/ingest share at 100,000 devices (issue 16): a broker of their own, API probes. */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '../packages/server/src/db/embedded.ts';

/** The settings every benchmark Mosquitto shares (docs/protocol/mosquitto.md's queue limits). */
function mosquittoConf(port: number, maxConnections: number, extra: string[] = []): string[] {
  return [
    `listener ${port} 127.0.0.1`,
    'allow_anonymous true',
    'persistence false',
    // As docs/protocol/mosquitto.md: the server's one connection carries every device's burst.
    'max_inflight_messages 200',
    `max_queued_messages ${Math.max(200_000, 4 * maxConnections)}`,
    `max_connections ${maxConnections + 100}`,
    'log_type error',
    'log_type warning',
    ...extra,
    '',
  ];
}

/** One Mosquitto process under `prlimit`: start, kill (a crash: no will, every connection drops), stop. */
async function mosquittoProcess(port: number, lines: string[], nofile: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-bench-mosquitto-'));
  const conf = path.join(dir, 'mosquitto.conf');
  fs.writeFileSync(conf, lines.join('\n'));
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn('prlimit', [`--nofile=${nofile}:${nofile}`, 'mosquitto', '-c', conf], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (let i = 0; ; i++) {
      if (await listening(port)) return;
      if (i > 100) throw new Error('mosquitto did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const kill = async (signal: NodeJS.Signals) => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
  };
  await start();
  return {
    url: `mqtt://127.0.0.1:${port}`,
    pid: () => child?.pid ?? 0,
    async restart(): Promise<void> {
      await kill('SIGKILL');
      await start();
    },
    async stop(): Promise<void> {
      await kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A Mosquitto of the benchmark's own on `port` (anonymous, loopback only, no persistence), with an
 * open-file limit of `maxConnections` + 1,000 (`prlimit`; the machine's Mosquitto has 20,000), so a
 * 100,000-device fleet fits where the limit allows and the broker can be restarted (the reconnect
 * storm) without touching the machine's shared one. `restart()` kills it (SIGKILL: a crash, every
 * connection drops at once) and starts it again on the same port.
 */
export async function ownMosquitto(port: number, maxConnections: number) {
  const nofile = Math.min(maxConnections + 1000, openFileLimit().hard);
  return mosquittoProcess(port, mosquittoConf(port, maxConnections), nofile);
}

/**
 * More devices than one process may hold sockets (the open-file limit, 20,000 on the development
 * machine): `edges` Mosquittos for the devices, each bridged to a central one where the server
 * connects — a broker per region, in the shape a large deployment would use. Each edge forwards its
 * devices' up topics to the centre and takes every down topic from it (QoS 1 both ways, retained
 * flags and wills kept). `restartEdges()` kills every edge at once and starts them again: every
 * device drops, the server's own link stays.
 */
export async function ownMosquittoTree(edges: number, perEdge: number) {
  const { hard } = openFileLimit();
  const centralPort = await freePort();
  const central = await mosquittoProcess(centralPort, mosquittoConf(centralPort, edges + 100), 4096);
  const edgeBrokers: Awaited<ReturnType<typeof mosquittoProcess>>[] = [];
  for (let i = 0; i < edges; i++) {
    const port = await freePort();
    const bridge = [
      `connection centre${i}`,
      `address 127.0.0.1:${centralPort}`,
      'bridge_protocol_version mqttv311',
      'cleansession true',
      'try_private true',
      'restart_timeout 1',
      'topic dev/+/up/# out 1',
      'topic dev/+/down/# in 1',
    ];
    edgeBrokers.push(
      await mosquittoProcess(port, mosquittoConf(port, perEdge, bridge), Math.min(perEdge + 1000, hard)),
    );
  }
  return {
    url: central.url,
    edgeUrls: edgeBrokers.map((e) => e.url),
    pids: () => [central.pid(), ...edgeBrokers.map((e) => e.pid())],
    async restartEdges(): Promise<void> {
      await Promise.all(edgeBrokers.map((e) => e.restart()));
    },
    async stop(): Promise<void> {
      await Promise.all(edgeBrokers.map((e) => e.stop()));
      await central.stop();
    },
  };
}

/** This process's open-file limit (a child cannot be given more than `hard` without CAP_SYS_RESOURCE). */
export function openFileLimit(): { soft: number; hard: number } {
  const line = fs.readFileSync('/proc/self/limits', 'utf8').match(/Max open files\s+(\S+)\s+(\S+)/);
  const n = (v: string | undefined) =>
    v === undefined || v === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(v);
  return { soft: n(line?.[1]), hard: n(line?.[2]) };
}

/**
 * Fails early when `devices` sockets (one each, in this process and in a broker started here) do not
 * fit under the open-file limit: on the development machine the limit is 20,000 and cannot be raised
 * from inside (no CAP_SYS_RESOURCE), so 100,000 needs `ulimit -n` raised by the machine's admin.
 */
export function checkOpenFiles(devices: number): void {
  const { soft } = openFileLimit();
  if (devices + 500 > soft) {
    throw new Error(
      `${devices} devices need ${devices + 500} open files in this process; the limit is ${soft} ` +
        "(ulimit -n). Raise it (and the broker's) first: bench/RESULTS.md, docs/protocol/mosquitto.md.",
    );
  }
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export interface Latency {
  calls: number;
  errors: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
}

export function latencyOf(times: number[], errors: number): Latency {
  const s = [...times].sort((a, b) => a - b);
  const at = (q: number) =>
    s.length ? Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]) : null;
  return {
    calls: s.length,
    errors,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: s.length ? Math.round(s.at(-1)!) : null,
  };
}

/**
 * Users with open screens: `workers` loops, each calling the next of `paths` every `intervalMs`
 * (waiting for the previous answer), timed around the whole HTTP call. `stop()` answers the latency
 * of each path.
 */
export function probeApi(
  call: <T>(method: string, p: string) => Promise<T>,
  paths: Record<string, string>,
  { workers = 2, intervalMs = 250 } = {},
) {
  const names = Object.keys(paths);
  const times = new Map(names.map((n) => [n, [] as number[]]));
  const errors = new Map(names.map((n) => [n, 0]));
  let running = true;
  /** Calls over 250 ms, with when they started (to line up with the server's log). */
  const slow: { name: string; at: string; ms: number }[] = [];
  const loops = Array.from({ length: workers }, async (_, w) => {
    for (let i = w; running; i++) {
      const name = names[i % names.length];
      const t = performance.now();
      try {
        await call('GET', paths[name]);
        const ms = performance.now() - t;
        times.get(name)!.push(ms);
        if (ms > 250) slow.push({ name, at: new Date(Date.now() - ms).toISOString(), ms: Math.round(ms) });
      } catch {
        errors.set(name, errors.get(name)! + 1);
      }
      const wait = intervalMs - (performance.now() - t);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  });
  return {
    async stop(): Promise<Record<string, Latency>> {
      running = false;
      await Promise.all(loops);
      return Object.fromEntries(names.map((n) => [n, latencyOf(times.get(n)!, errors.get(n)!)]));
    },
    slowCalls: () => slow,
  };
}
