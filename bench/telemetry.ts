/**
 * bench/telemetry — CPU seconds per telemetry message (issue 7).
 *
 *   npm run bench:telemetry -w @beacon/bench -- [devices=500] [--rounds 10] [--runs 3]
 *
 * Each run starts the server as a child process (embedded PostgreSQL in a temporary DATA_DIR,
 * embedded Aedes broker, DEMO=0), connects N devices over MQTT (raw clients in this process: hello
 * and state), then measures from /proc:
 * - steady: every device sends one telemetry per round, rounds 1.5 s apart (well over the per-device
 *   window of DEVICE_LIMITS.TELEMETRY_MIN_INTERVAL_MS, so every message is written);
 * - flood: one device sends 15,000 telemetry messages as fast as its connection takes them (they are
 *   coalesced: the newest is written, at most one a second).
 * Idle CPU measured over as long as the steady phase is subtracted from it.
 * Prints each run and the median and spread (min–max) of the runs as JSON (bench/RESULTS.md).
 */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { upTopic } from '@beacon/protocol';
import mqtt from 'mqtt';
import { freePort } from '../packages/server/src/db/embedded.ts';
import { opt } from './args.ts';
import { waitForHealth } from './http.ts';

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 500);
const ROUNDS = Number(opt('rounds', '10'));
const RUNS = Number(opt('runs', '3'));
const FLOOD = 15_000;
const ROUND_MS = 1500;
const root = path.resolve(import.meta.dirname, '..');
const FACTORY_KEY = 'bench-telemetry-factory-key';
const TICK = 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU seconds (user + system, exited children included) of a process and its PostgreSQL descendants. */
function cpu(serverPid: number): { server: number; postgres: number } {
  const stat = (pid: number) => {
    try {
      const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) };
    } catch {
      return null;
    }
  };
  const children = new Map<number, number[]>();
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    const s = stat(Number(e));
    if (s) children.set(s.ppid, [...(children.get(s.ppid) ?? []), Number(e)]);
  }
  let pg = 0;
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      const comm = fs.existsSync(`/proc/${c}/comm`) ? fs.readFileSync(`/proc/${c}/comm`, 'utf8').trim() : '';
      // The postmaster's cutime/cstime already hold its exited backends; count its subtree once.
      if (comm.startsWith('postgres')) pg += (stat(c)?.ticks ?? 0) + sumOwn(c);
      else walk(c);
    }
  };
  const sumOwn = (p: number): number => {
    let t = 0;
    for (const c of children.get(p) ?? []) t += (stat(c)?.ticks ?? 0) + sumOwn(c);
    return t;
  };
  walk(serverPid);
  // The server's own ticks include its exited children (cutime), PostgreSQL is a living child.
  const s = stat(serverPid);
  const own = s ? s.ticks : 0;
  return { server: own / TICK, postgres: pg / TICK };
}

const telemetry = (uptime: number) =>
  JSON.stringify({
    ts: Date.now(),
    uptime,
    cpu: 12.5,
    memory: 40,
    clientCount: 3,
    clients: [],
    ports: Array.from({ length: 10 }, (_, i) => ({
      id: i + 1,
      type: 'electrical',
      enabled: true,
      link: i < 4,
      speed: i < 4 ? 1000 : 0,
      duplex: i < 4 ? 'full' : null,
      poe: null,
      rxBytes: 1000 * i,
      txBytes: 2000 * i,
      rxRate: 10,
      txRate: 20,
    })),
    led: false,
    locating: false,
  });

async function run(): Promise<{
  steadyServerMs: number;
  steadyPostgresMs: number;
  floodServerUs: number;
  floodPostgresUs: number;
}> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-bench-telemetry-'));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const mqttPort = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      MQTT_URL: '',
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      EMBEDDED_PG_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      DEMO: '0',
      LOG_LEVEL: 'error',
      BEACON_FACTORY_KEY: FACTORY_KEY,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const clients: mqtt.MqttClient[] = [];
  try {
    await waitForHealth(`http://127.0.0.1:${port}`);
    const sns = Array.from({ length: N }, (_, i) => `BENCHTM${String(i).padStart(9, '0')}`);
    for (let i = 0; i < N; i += 100) {
      await Promise.all(
        sns.slice(i, i + 100).map(async (sn) => {
          const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, {
            clientId: sn,
            username: sn,
            password: createHmac('sha256', FACTORY_KEY).update(sn).digest().subarray(0, 16).toString('hex'),
            reconnectPeriod: 0,
            keepalive: 60,
          });
          clients.push(c);
          const hello = {
            sn,
            model: 'BS-S1008P',
            type: 'switch',
            firmware: '1.0.0',
            capabilities: [],
            mac: '02:00:00:00:00:01',
            ip: '10.0.0.2',
            mode: 1,
            revision: 0,
            uptime: 1,
            bootId: 'b',
            protocol: 1,
            ts: Date.now(),
          };
          await c.publishAsync(upTopic(sn, 'hello'), JSON.stringify(hello), { qos: 1 });
          const state = {
            status: 1,
            revision: 0,
            configStatus: 'applied',
            mode: 1,
            operation: null,
            ts: Date.now(),
          };
          await c.publishAsync(upTopic(sn, 'state'), JSON.stringify(state), { qos: 1, retain: true });
        }),
      );
    }
    await sleep(3000);
    const pid = server.pid!;
    // The server's own idle CPU (job polling, timers) over as long as the steady phase, subtracted.
    const steadyMs = ROUNDS * ROUND_MS + 1500;
    const i0 = cpu(pid);
    await sleep(steadyMs);
    const i1 = cpu(pid);
    const s0 = cpu(pid);
    for (let r = 0; r < ROUNDS; r++) {
      await Promise.all(
        clients.map((c, i) => c.publishAsync(upTopic(sns[i], 'telemetry'), telemetry(r), { qos: 0 })),
      );
      await sleep(ROUND_MS);
    }
    await sleep(1500);
    const s1 = cpu(pid);
    const payload = telemetry(99);
    for (let round = 0; round < FLOOD / 500; round++) {
      await Promise.all(
        Array.from({ length: 500 }, () =>
          clients[0].publishAsync(upTopic(sns[0], 'telemetry'), payload, { qos: 0 }),
        ),
      );
    }
    await sleep(2500);
    const s2 = cpu(pid);
    const messages = N * ROUNDS;
    return {
      steadyServerMs: +(((s1.server - s0.server - (i1.server - i0.server)) / messages) * 1000).toFixed(3),
      steadyPostgresMs: +(
        ((s1.postgres - s0.postgres - (i1.postgres - i0.postgres)) / messages) *
        1000
      ).toFixed(3),
      floodServerUs: +(((s2.server - s1.server) / FLOOD) * 1e6).toFixed(1),
      floodPostgresUs: +(((s2.postgres - s1.postgres) / FLOOD) * 1e6).toFixed(1),
    };
  } finally {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => {})));
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const runs = [];
for (let i = 0; i < RUNS; i++) {
  const r = await run();
  console.log(JSON.stringify(r));
  runs.push(r);
}
const summary: Record<string, { median: number; min: number; max: number }> = {};
for (const key of Object.keys(runs[0]) as (keyof (typeof runs)[0])[]) {
  const v = runs.map((r) => r[key]).sort((a, b) => a - b);
  summary[key] = { median: v[Math.floor(v.length / 2)], min: v[0], max: v[v.length - 1] };
}
console.log(
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}`,
      devices: N,
      rounds: ROUNDS,
      runs: RUNS,
      summary,
    },
    null,
    2,
  ),
);
process.exit(0);
