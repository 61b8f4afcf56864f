/**
 * bench/config-push — one network change reaching N simulated switches and APs (issue 10).
 *
 *   npm run bench:config-push -w @beacon/bench -- 1000        (--poll-ms 250 --time-scale 0.1)
 *
 * 1. Starts the server as a child process (its own embedded PostgreSQL in a temporary DATA_DIR,
 *    embedded broker, DEMO=0), signs up an account and creates a project.
 * 2. Pre-provisions N serial numbers (switches and APs, round-robin) by batch import and starts N
 *    simulated devices (packages/agent startFleet); waits until all are online.
 * 3. Set-up, not measured: each switch's uplink (port 1) is made a trunk carrying VLAN 20 (its
 *    switch-port settings, one PUT each), so it can be managed in VLAN 20; waits until all applied.
 * 4. The measured change: one network save (PUT /projects/:id/network) adding VLAN 20 and making it
 *    the management VLAN. Every switch gets a new revision (VLANs and switch.managementVlan), every
 *    AP one (managementVlan). From the save's answer, each simulated device is sampled every 20 ms
 *    in this process: done when it runs its new revision (it reports it in the same step, which
 *    makes the server's status applied). Once all run it, the network view is polled every
 *    --poll-ms until it shows all applied (allShownAppliedMs).
 * Reports p50, p99 and max of the time until applied, and the server's and PostgreSQL's CPU
 * seconds (user + system, /proc) from just before the save until the server shows all applied. Printed as JSON (paste into RESULTS.md).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFleet } from '@beacon/agent';
import type { NetworkView, SwitchView } from '@beacon/protocol';
import { freePort } from '../packages/server/src/db/embedded.ts';
import { opt } from './args.ts';
import { apiCaller, signUpWithProject, waitForHealth } from './http.ts';
import { fleetSnPlan } from './plan.ts';

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 1000);
const timeScale = Number(opt('time-scale', '0.1'));
const pollMs = Number(opt('poll-ms', '250'));
const root = path.resolve(import.meta.dirname, '..');
const TICK = 100;
const VLAN = 20;

function descendants(pid: number): number[] {
  const out: number[] = [];
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {}
  }
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

/** CPU seconds (user + system, with exited children's) of a set of processes. */
function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {}
  }
  return ticks / TICK;
}

function isPostgres(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('postgres');
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` over `items`, at most `width` at a time. */
async function pool<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-bench-'));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const mqttPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      DEMO: '0',
      DEV_OUTBOX: '1',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '100000',
      COMMAND_TIMEOUT_MS: '120000',
      PUBLIC_URL: base,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const serverPid = server.pid!;
  const stop = async () => {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(base);
    const call = apiCaller(base);
    const project = await signUpWithProject(call, `Push${N}`);

    const plan = fleetSnPlan(N, ['switch', 'ap']);
    const XLSX = await import('@e965/xlsx');
    for (let i = 0; i < plan.length; i += 500) {
      const rows = plan.slice(i, i + 500).map((d) => [d.sn, d.model]);
      const sheet = XLSX.utils.aoa_to_sheet([['Serial number', 'Model'], ...rows]);
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, sheet, 'Devices');
      const form = new FormData();
      form.append(
        'file',
        new Blob([new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }))]),
        'fleet.xlsx',
      );
      const result = await call<{ added: number }>('POST', `/projects/${project.id}/devices/import`, form);
      if (result.added !== rows.length) throw new Error(`import added ${result.added} of ${rows.length}`);
    }

    const fleet = await startFleet({
      url: `mqtt://127.0.0.1:${mqttPort}`,
      devices: plan.map((d) => ({ sn: d.sn, model: d.model })),
      timeScale,
      telemetryMs: 30_000,
      rampPerSecond: 1000,
      clientEvents: false,
      keepalive: 60,
    });
    const t0 = Date.now();
    const online = async () =>
      (await call<{ total: number }>('GET', `/projects/${project.id}/devices?status=1&pageSize=1`)).total;
    while ((await online()) < N) {
      if (Date.now() - t0 > 15 * 60_000) throw new Error('not all online after 15 minutes');
      await sleep(500);
    }
    const onlineMs = Date.now() - t0;

    // Set-up: each switch's port 1 carries VLAN 20 (not measured).
    const network = () => call<NetworkView>('GET', `/projects/${project.id}/network`);
    const switches = (await network()).devices.filter((d) => d.sections.includes('vlans')).map((d) => d.sn);
    const tSetup = Date.now();
    await pool(switches, 16, async (sn) => {
      const url = `/projects/${project.id}/devices/${sn}/switch`;
      const view = await call<SwitchView>('GET', url);
      const ports = view.switch.ports.map((p) =>
        p.id === 1 ? { ...p, mode: 'trunk' as const, allowed: [VLAN] } : p,
      );
      await call('PUT', url, { expectedRevision: view.revision, switch: { ...view.switch, ports } });
    });
    while ((await network()).progress.pending > 0) await sleep(500);
    const setupMs = Date.now() - tSetup;

    // The measured change.
    const before = await network();
    const procs = () => {
      const all = descendants(serverPid);
      return { server: [serverPid, ...all.filter((p) => !isPostgres(p))], postgres: all.filter(isPostgres) };
    };
    const p0 = procs();
    const cpu0 = { server: cpuSeconds(p0.server), postgres: cpuSeconds(p0.postgres) };
    const tSave = Date.now();
    const saved = await call<NetworkView>('PUT', `/projects/${project.id}/network`, {
      expectedRevision: before.revision,
      reason: 'bench',
      document: { vlans: [{ id: VLAN, name: 'bench' }], managementVlan: VLAN },
    });
    const answered = Date.now();
    // Each device's new desired revision, as the save answered it.
    const previous = new Map(before.devices.map((d) => [d.sn, d.revision]));
    const target = new Map(saved.devices.map((d) => [d.sn, d.revision]));
    // The device runs the new revision: sampled in this process every 20 ms (cheap; no server load).
    const runs = new Map<string, number>();
    while (runs.size < target.size) {
      if (Date.now() - answered > 10 * 60_000) throw new Error(`only ${runs.size} of ${target.size} run it`);
      const now = Date.now();
      for (const d of fleet.devices) {
        if (!runs.has(d.sn) && d.revision >= (target.get(d.sn) ?? Number.POSITIVE_INFINITY)) {
          runs.set(d.sn, now - answered);
        }
      }
      if (runs.size < target.size) await sleep(20);
    }
    // The server shows each applied (its status from the devices' reports): polled once all run it.
    const done = new Map<string, number>();
    while (done.size < target.size) {
      if (Date.now() - answered > 10 * 60_000) throw new Error(`only ${done.size} of ${target.size} applied`);
      const view = await network();
      const now = Date.now();
      for (const d of view.devices) {
        if (done.has(d.sn)) continue;
        if (d.status === 'applied' && d.reportedRevision >= (target.get(d.sn) ?? 0))
          done.set(d.sn, now - answered);
      }
      if (done.size < target.size) await sleep(pollMs);
    }
    const p1 = procs();
    const cpu1 = { server: cpuSeconds(p1.server), postgres: cpuSeconds(p1.postgres) };
    await fleet.stop();
    const times = [...runs.values()].sort((a, b) => a - b);
    const shown = [...done.values()].sort((a, b) => a - b);
    const result = {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, ${os.type()} ${os.release()}, Node ${process.version}`,
      loadAverageAtEnd: os.loadavg().map((l) => +l.toFixed(2)),
      devices: N,
      switches: switches.length,
      changedDevices: saved.devices.filter((d) => d.revision !== previous.get(d.sn)).length,
      timeScale,
      pollMs,
      allOnlineMs: onlineMs,
      switchSetupMs: setupMs,
      saveAnswerMs: answered - tSave,
      // From the save's answer until the device runs the new revision (20 ms resolution).
      appliedMs: { p50: percentile(times, 50), p99: percentile(times, 99), max: times[times.length - 1] },
      // From the save's answer until the network view shows the last device applied (a poll).
      allShownAppliedMs: shown[shown.length - 1],
      serverCpuSeconds: +(cpu1.server - cpu0.server).toFixed(1),
      postgresCpuSeconds: +(cpu1.postgres - cpu0.postgres).toFixed(1),
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await stop();
  }
}

await main();
process.exit(0);
