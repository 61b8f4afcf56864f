/**
 * bench/backup — a configuration backup of N simulated devices at once (issue 12).
 *
 *   npm run bench:backup -w @beacon/bench -- 1000        (--time-scale 0.1)
 *
 * 1. Starts the server as a child process (its own embedded PostgreSQL on a free port in a temporary
 *    DATA_DIR, embedded broker, DEMO=0), signs up an account and creates a project.
 * 2. Pre-provisions N serial numbers (APs and switches, round-robin) by batch import and starts N
 *    simulated devices (packages/agent startFleet); waits until all are online.
 * 3. Set-up, not measured: each device gets a configuration of a realistic size (APs: name, device
 *    password, 4 Wi-Fi policies, radios; switches: name, password, every port with a remark), one
 *    PUT each; waits until every device runs it.
 * 4. The measured request: one POST /projects/:id/backups naming all N devices as restore points
 *    (one per device, so all N are kept; general backups stop at 128). From its answer, the list is
 *    polled every 250 ms until every backup is synchronized (or failed).
 * Reports the request's answer time, the time until all are synchronized, the server's and
 * PostgreSQL's CPU seconds over it, and the storage: the files' bytes (sum of sizes) and the table's
 * size on disk (pg_total_relation_size: heap, TOAST, indexes). Printed as JSON (RESULTS.md).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFleet } from '@beacon/agent';
import { type BackupList, type CreateBackupsResult, modelInfo } from '@beacon/protocol';
import pg from 'pg';
import { freePort } from '../packages/server/src/db/embedded.ts';
import { opt } from './args.ts';
import { apiCaller, signUpWithProject, waitForHealth } from './http.ts';
import { fleetSnPlan } from './plan.ts';

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 1000);
const timeScale = Number(opt('time-scale', '0.1'));
const root = path.resolve(import.meta.dirname, '..');
const TICK = 100;

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

async function pool<T>(items: readonly T[], width: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++]);
    }),
  );
}

/** A configuration of a realistic size for the model (what an administrator would have set). */
function documentFor(sn: string, model: string): Record<string, unknown> {
  const info = modelInfo(model)!;
  const base = { name: `Bench ${sn.slice(-6)}`, led: true, admin: { password: 'Bench#Pass2024' } };
  if (info.bands.length) {
    return {
      ...base,
      wifi: ['staff', 'guests', 'iot', 'voice'].map((name, i) => ({
        name,
        ssid: `Bench-${name}`,
        encryption: 2,
        cipher: 'aes',
        password: `secret-${name}-${i}x`,
        bands: [...info.bands],
        maxClients: 64,
      })),
      radios: info.bands.map((band) => ({ band, channel: 0, power: 20 })),
    };
  }
  return { ...base, ports: info.ports.map((p) => ({ id: p.id, remark: `Desk ${p.id}, floor 2` })) };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-bench-'));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const mqttPort = await freePort();
  const pgPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      EMBEDDED_PG_PORT: String(pgPort),
      DATA_DIR: dataDir,
      DEMO: '0',
      DEV_OUTBOX: '1',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '100000',
      COMMAND_TIMEOUT_MS: '60000',
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
    const project = await signUpWithProject(call, `Backup${N}`);

    const plan = fleetSnPlan(N, ['ap', 'switch']);
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

    // Set-up (not measured): a configuration of a realistic size on every device.
    const tSetup = Date.now();
    await pool(plan, 16, async (d) => {
      await call('PUT', `/projects/${project.id}/devices/${d.sn}/config`, {
        expectedRevision: 0,
        document: documentFor(d.sn, d.model),
      });
    });
    while (fleet.devices.some((d) => d.revision < 1)) {
      if (Date.now() - tSetup > 15 * 60_000) throw new Error('not all configured after 15 minutes');
      await sleep(250);
    }
    const setupMs = Date.now() - tSetup;
    await sleep(2000);

    // The measured request.
    const procs = () => {
      const all = descendants(serverPid);
      return { server: [serverPid, ...all.filter((p) => !isPostgres(p))], postgres: all.filter(isPostgres) };
    };
    const p0 = procs();
    const cpu0 = { server: cpuSeconds(p0.server), postgres: cpuSeconds(p0.postgres) };
    const tRequest = Date.now();
    const requested = await call<CreateBackupsResult>('POST', `/projects/${project.id}/backups`, {
      sns: plan.map((d) => d.sn),
      type: 'restore_point',
    });
    const answered = Date.now();
    const accepted = requested.items.filter((i) => i.code === 0).length;
    const all = async () => {
      const items: BackupList['items'] = [];
      for (let page = 1; ; page++) {
        const list = await call<BackupList>(
          'GET',
          `/projects/${project.id}/backups?pageSize=200&page=${page}`,
        );
        items.push(...list.items);
        if (items.length >= list.total || list.items.length === 0) return items;
      }
    };
    let settled: BackupList['items'] = [];
    for (;;) {
      settled = await all();
      if (settled.every((b) => b.status === 'synchronized' || b.status === 'failed')) break;
      if (Date.now() - answered > 15 * 60_000) throw new Error('backups not settled after 15 minutes');
      await sleep(250);
    }
    const doneMs = Date.now() - tRequest;
    const p1 = procs();
    const cpu1 = { server: cpuSeconds(p1.server), postgres: cpuSeconds(p1.postgres) };
    await fleet.stop();

    const db = new pg.Client({ connectionString: `postgresql://postgres:beacon@127.0.0.1:${pgPort}/beacon` });
    await db.connect();
    const { rows } = await db.query<{ files: string; table: string; avg: string; max: string }>(
      `select sum(size) as files, pg_total_relation_size('config_backups') as table,
              round(avg(size)) as avg, max(size) as max from config_backups`,
    );
    await db.end();
    const sizes = rows[0];
    const result = {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, ${os.type()} ${os.release()}, Node ${process.version}`,
      loadAverageAtEnd: os.loadavg().map((l) => +l.toFixed(2)),
      devices: N,
      timeScale,
      allOnlineMs: onlineMs,
      configSetupMs: setupMs,
      requestAnswerMs: answered - tRequest,
      accepted,
      synchronized: settled.filter((b) => b.status === 'synchronized').length,
      failed: settled.filter((b) => b.status === 'failed').length,
      // From sending the request until the list shows every backup synchronized (a 250 ms poll).
      allSynchronizedMs: doneMs,
      fileBytes: { total: Number(sizes.files), average: Number(sizes.avg), max: Number(sizes.max) },
      tableBytesOnDisk: Number(sizes.table),
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
