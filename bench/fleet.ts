/**
 * bench/fleet — N simulated devices against a real Beacon server.
 *
 *   npm run bench:fleet -w @beacon/bench -- 1000          (or 10000; --time-scale 0.1 --types ap,switch)
 *
 * 1. Starts the server as a child process (its own embedded PostgreSQL in a temporary DATA_DIR,
 *    embedded Aedes broker, DEMO=0), signs up an account and creates a WLAN project.
 * 2. Pre-provisions the N serial numbers in the project by batch import (xlsx, 500 rows a file).
 * 3. Starts N simulated devices in this process (packages/agent, one MQTT connection each) and
 *    measures the time until the server reports all N online.
 * 4. Sends one bulk reboot of all N (POST …/devices/actions/reboot) and measures the time until
 *    the answer (every device's reply recorded), then until all N are online again.
 * Server CPU (user+system) and resident memory are sampled from /proc for the server process and,
 * separately, its PostgreSQL processes. Results are printed as JSON (paste them into RESULTS.md).
 *
 * At 100,000 (issue 16), one command:
 *
 *   npm run bench:fleet -w @beacon/bench -- 100000 --own-mosquitto --storm
 *
 *   --mqtt-url <url>   the server and the devices use that broker (e.g. the machine's Mosquitto,
 *                      mqtt://127.0.0.1:1883; its open-file limit, 20,000 now, must exceed N); SNs
 *                      and the shared-subscription group are this run's own, retained states cleared
 *   --own-mosquitto    a Mosquitto of the benchmark's own on a free port with an open-file limit
 *                      above N (bench/broker.ts), which --storm can restart
 *   (neither)          the server's embedded Aedes broker, as before
 *   --link lean|mqtt   the devices' MQTT client: lean.ts (default; ~25 MB per 1,000 devices) or mqtt.js
 *   --bulk <n>         devices in the bulk reboot (default all, at most 10,000: the target)
 *   --storm            after the bulk reboot, every device drops at once and reconnects: the own
 *                      Mosquitto is killed (SIGKILL) and started again; on other brokers every device
 *                      socket is destroyed at once. Measures the time until all N are online again
 *                      and the API latency during it
 *   --steady-s <s>     seconds of steady telemetry, API latency measured meanwhile (default one
 *                      telemetry period: every device's telemetry lands in it once, whatever the
 *                      phase the ramp gave the fleet; a shorter window may hold none of it)
 *   --settle-s <s>     before the steady window, wait (at most this long; default one telemetry period)
 *                      until the server has written a telemetry of every device and holds fewer than
 *                      1,000 messages unwritten (beacon_ingest_waiting) for 5 s running: the devices'
 *                      first telemetry (at 100,000, 2,000,000 client rows) is then not measured as
 *                      steady load. 0: the steady window starts when all are online, as before
 *   --storm-window-s <s>  seconds from the drop during which the storm's API latency is measured
 *                      (default 30, longer if the fleet takes longer to come back)
 *   --ramp <n>         devices started per second (default 1000)
 *   --parts <k>        the fleet in k simulator processes, each with its own Mosquitto bridged to a
 *                      central one the server uses (bench/broker.ts ownMosquittoTree); default 1, or
 *                      N / 18,000 rounded up when one process cannot hold N sockets (the open-file limit)
 *   --telemetry-ms <ms> each device's telemetry period (default 30000)
 *   --sim-nice <n>     the simulator processes (with --parts) run at this nice value (0–19; default 0):
 *                      on a machine that also holds the server, the load generator then takes only
 *                      the CPU the system under test leaves (real devices bring their own CPUs)
 * The API probes (device list, Status, client list; 2 loops, a call every 250 ms each) run during
 * the steady state and the storm.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clearRetained } from '@beacon/agent';
import { freePort } from '../packages/server/src/db/embedded.ts';
import { opt } from './args.ts';
import {
  checkOpenFiles,
  type Latency,
  openFileLimit,
  ownMosquitto,
  ownMosquittoTree,
  probeApi,
} from './broker.ts';
import { fleetInChildren, fleetInProcess } from './fleet-runner.ts';
import {
  apiCaller,
  jobSeconds,
  jobsBetween,
  metricValue,
  signUpWithProject,
  waitForHealth,
  watchServerLoad,
} from './http.ts';
import { type DeviceType, fleetSnPlan } from './plan.ts';

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 1000);
const timeScale = Number(opt('time-scale', '0.1'));
const types = opt('types', 'ap,switch').split(',') as DeviceType[];
const telemetryMs = Number(opt('telemetry-ms', '30000'));
const MQTT_URL = opt('mqtt-url', '');
const OWN_MOSQUITTO = args.includes('--own-mosquitto');
const LINK = opt('link', 'lean') as 'lean' | 'mqtt';
const BULK = Math.min(N, Number(opt('bulk', String(Math.min(N, 10_000)))));
const STORM = args.includes('--storm');
const STEADY_S = Number(opt('steady-s', String(telemetryMs / 1000)));
const SETTLE_S = Number(opt('settle-s', String(telemetryMs / 1000)));
const STORM_WINDOW_S = Number(opt('storm-window-s', '30'));
const RAMP = Number(opt('ramp', '1000'));
const SIM_NICE = Number(opt('sim-nice', '0'));
/** Devices per simulator process and edge broker when one process cannot hold the fleet's sockets. */
const PER_PART = 18_000;
const PARTS = Number(opt('parts', String(N + 500 > openFileLimit().soft ? Math.ceil(N / PER_PART) : 1)));
const root = path.resolve(import.meta.dirname, '..');

/** Clock ticks per second in /proc/PID/stat (USER_HZ, 100 on Linux). */
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

/**
 * CPU (user + system) and memory of a set of processes. The time of children that already exited
 * (PostgreSQL backends come and go) is counted through their parents' cutime/cstime. Memory is the
 * proportional set size (PSS: a shared page counts once, split among the processes that map it):
 * a sum of RSS counted PostgreSQL's shared buffers once per backend (14.5 GB "peak" with 1 GB of
 * them, decision 0078). RSS where smaps_rollup cannot be read.
 */
function proportionalKb(pid: number): number {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(rollup.match(/^Pss:\s+(\d+)/m)?.[1] ?? 0);
  } catch {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0);
  }
}

function usage(pids: number[]): { cpuSeconds: number; rssMb: number } {
  let ticks = 0;
  let rssKb = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      rssKb += proportionalKb(pid);
    } catch {}
  }
  return { cpuSeconds: ticks / TICK, rssMb: Math.round(rssKb / 1024) };
}

async function main() {
  checkOpenFiles(Math.ceil(N / PARTS));
  if (PARTS > 1 && MQTT_URL) throw new Error("--parts needs the benchmark's own brokers (not --mqtt-url)");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-bench-'));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const mqttPort = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // BENCH_CPU_PROF=<dir>: the server child writes a V8 CPU profile there when it exits (where the time goes).
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF]
    : [];
  // BENCH_SERVER_FLAGS="--trace-gc …": further Node.js flags for the server child.
  profile.push(...(process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean));
  const broker = OWN_MOSQUITTO && PARTS === 1 ? await ownMosquitto(await freePort(), N + 100) : null;
  const tree = PARTS > 1 ? await ownMosquittoTree(PARTS, Math.ceil(N / PARTS) + 100) : null;
  const external = tree?.url ?? broker?.url ?? MQTT_URL;
  // On a shared broker: serial numbers and a subscription group of this run's own.
  const tag = external ? (Date.now() % 46_656).toString(36).toUpperCase().padStart(3, '0') : '';
  const brokerUrl = external || `mqtt://127.0.0.1:${mqttPort}`;
  const server = spawn(process.execPath, [...profile, '--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      MQTT_URL: external,
      MQTT_SHARE_GROUP: `bench${tag}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(mqttPort),
      DATA_DIR: dataDir,
      DEMO: '0',
      DEV_OUTBOX: '1',
      // BENCH_LOG_LEVEL=debug: also the embedded PostgreSQL's own log lines (a deadlock's detail).
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      AUTH_RATE_LIMIT: '100000',
      COMMAND_TIMEOUT_MS: '120000',
      PUBLIC_URL: base,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const serverPid = server.pid!;
  // Retained states the devices left on a shared broker: cleared once the server has stopped.
  const sns: string[] = [];
  /** SIGTERM to the server; resolves with the milliseconds until it exited and its exit code. */
  const stopServer = async () => {
    const t = Date.now();
    if (server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    return { ms: Date.now() - t, exitCode: server.exitCode };
  };
  const stop = async () => {
    await stopServer();
    if (MQTT_URL && sns.length) await clearRetained(MQTT_URL, sns);
    await broker?.stop();
    await tree?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(base);
    const call = apiCaller(base);

    const project = await signUpWithProject(call, `Bench${N}`);

    const plan = fleetSnPlan(N, types, tag ? `B${tag}` : 'BENCH');
    const XLSX = await import('@e965/xlsx');
    const tProvision = Date.now();
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
      const result = await call<{ added: number; total: number }>(
        'POST',
        `/projects/${project.id}/devices/import`,
        form,
      );
      if (result.added !== rows.length) throw new Error(`import added ${result.added} of ${rows.length}`);
    }
    const provisionMs = Date.now() - tProvision;

    const online = async () =>
      (await call<{ total: number }>('GET', `/projects/${project.id}/devices?status=1&pageSize=1`)).total;
    const serverProcs = () => [serverPid, ...descendants(serverPid).filter((p) => !isPostgres(p))];
    const pgProcs = () => descendants(serverPid).filter(isPostgres);
    const sample = () => ({ server: usage(serverProcs()), postgres: usage(pgProcs()) });
    const peak = { serverRssMb: 0, postgresRssMb: 0 };
    const sampler = setInterval(() => {
      const s = sample();
      peak.serverRssMb = Math.max(peak.serverRssMb, s.server.rssMb);
      peak.postgresRssMb = Math.max(peak.postgresRssMb, s.postgres.rssMb);
    }, 500);

    const idle = sample();
    const t0 = Date.now();
    const fleetOptions = {
      link: LINK,
      devices: plan.map((d) => ({ sn: d.sn, model: d.model })),
      timeScale,
      telemetryMs,
      rampPerSecond: RAMP,
      clientEvents: false,
      keepalive: 60,
    };
    const fleet = tree
      ? await fleetInChildren(fleetOptions, tree.edgeUrls, SIM_NICE)
      : await fleetInProcess({ ...fleetOptions, url: brokerUrl });
    const startedMs = Date.now() - t0;
    let count = await online();
    while (count < N) {
      if (Date.now() - t0 > 15 * 60_000) throw new Error(`only ${count} of ${N} online after 15 minutes`);
      await new Promise((r) => setTimeout(r, 250));
      count = await online();
    }
    const onlineMs = Date.now() - t0;
    const atOnline = sample();

    // Settle: the first telemetry of every device written, nothing much left unwritten.
    const tSettle = Date.now();
    const telemetryWritten = () => metricValue(base, 'beacon_ingest_lag_seconds_count{kind="telemetry"}');
    let quietSince = 0;
    while (Date.now() - tSettle < SETTLE_S * 1000) {
      const waiting = await metricValue(base, 'beacon_ingest_waiting');
      if ((await telemetryWritten()) >= N && waiting < 1000) {
        quietSince ||= Date.now();
        if (Date.now() - quietSince >= 5000) break;
      } else quietSince = 0;
      await new Promise((r) => setTimeout(r, 500));
    }
    const settle = {
      ms: Date.now() - tSettle,
      telemetryWritten: await telemetryWritten(),
      waiting: await metricValue(base, 'beacon_ingest_waiting'),
    };
    // The steady window's CPU is counted from here.
    const afterSettle = sample();

    // Steady state: telemetry, with users' screens open (device list, Status, client list).
    const screens = {
      devices: `/projects/${project.id}/devices?pageSize=20`,
      status: `/projects/${project.id}/stats/status?range=24h`,
      clients: `/projects/${project.id}/clients?pageSize=20`,
    };
    const steadyProbe = probeApi(call, screens);
    const steadyLoad = watchServerLoad(base);
    const jobs0 = await jobSeconds(base);
    await new Promise((r) => setTimeout(r, STEADY_S * 1000));
    // The durable jobs of the steady window (the statistics rollup: decision 0075).
    const steadyJobs = jobsBetween(jobs0, await jobSeconds(base));
    const steadyApi = await steadyProbe.stop();
    const steadySlowCalls = steadyProbe.slowCalls();
    const steadyServerLoad = await steadyLoad.stop(steadySlowCalls);
    const steady = sample();

    const bulkJobs0 = await jobSeconds(base);
    const t1 = Date.now();
    const bulk = await call<{ results: { code: number }[]; succeeded: number; failed: number }>(
      'POST',
      `/projects/${project.id}/devices/actions/reboot`,
      { sns: plan.slice(0, BULK).map((d) => d.sn) },
    );
    const ackMs = Date.now() - t1;
    const afterReboot = sample();
    // What else held PostgreSQL meanwhile (an hourly rollup fold at 100,000 takes tens of seconds).
    const bulkJobs = jobsBetween(bulkJobs0, await jobSeconds(base));
    const codes: Record<number, number> = {};
    for (const r of bulk.results) codes[r.code] = (codes[r.code] ?? 0) + 1;
    // Give the devices time to report 8 before counting them back online.
    await new Promise((r) => setTimeout(r, 1000));
    count = await online();
    while (count < N && Date.now() - t1 < 15 * 60_000) {
      await new Promise((r) => setTimeout(r, 250));
      count = await online();
    }
    const backOnlineMs = Date.now() - t1;
    const onlineAfterReboot = count;
    const afterBack = sample();

    // The reconnect storm: every device drops at once and comes back (with backoff and jitter).
    let storm: {
      how: string;
      allReconnectedMs: number;
      reconnected: number;
      allOnlineAgainMs: number;
      onlineAgain: number;
      apiWindowS: number;
      api: Record<string, Latency>;
      slowCalls: { name: string; at: string; ms: number }[];
      serverLoad: Awaited<ReturnType<ReturnType<typeof watchServerLoad>['stop']>>;
      jobs: Record<string, { runs: number; seconds: number }>;
      serverCpuSeconds: number;
      postgresCpuSeconds: number;
    } | null = null;
    if (STORM) {
      const before = sample();
      const jobsBefore = await jobSeconds(base);
      const probe = probeApi(call, screens);
      const load = watchServerLoad(base);
      await fleet.mark();
      const t2 = Date.now();
      if (tree) await tree.restartEdges();
      else if (broker) await broker.restart();
      else await fleet.drop();
      // Back = every device has connected again (and subscribed: the lean link counts a connection
      // on its SUBACK) and the server counts all N online. A killed broker publishes no will, so the
      // server's count alone would not show the drop.
      let back = await fleet.reconnected();
      while (back < N && Date.now() - t2 < 15 * 60_000) {
        await new Promise((r) => setTimeout(r, 500));
        back = await fleet.reconnected();
      }
      const reconnectedMs = Date.now() - t2;
      count = await online();
      while (count < N && Date.now() - t2 < 15 * 60_000) {
        await new Promise((r) => setTimeout(r, 500));
        count = await online();
      }
      const onlineAgainMs = Date.now() - t2;
      // The API is probed for a fixed window from the drop (the burst of hellos and states that
      // follows the reconnection is what loads the server), not only until the count is back.
      while (Date.now() - t2 < STORM_WINDOW_S * 1000) await new Promise((r) => setTimeout(r, 250));
      const after = sample();
      storm = {
        how: tree
          ? `the ${PARTS} edge Mosquittos killed (SIGKILL) and restarted`
          : broker
            ? 'own Mosquitto killed (SIGKILL) and restarted'
            : 'every device socket destroyed at once',
        allReconnectedMs: reconnectedMs,
        reconnected: back,
        allOnlineAgainMs: onlineAgainMs,
        onlineAgain: count,
        apiWindowS: Math.max(STORM_WINDOW_S, Math.ceil(onlineAgainMs / 1000)),
        api: await probe.stop(),
        slowCalls: probe.slowCalls(),
        serverLoad: await load.stop(probe.slowCalls()),
        jobs: jobsBetween(jobsBefore, await jobSeconds(base)),
        serverCpuSeconds: +(after.server.cpuSeconds - before.server.cpuSeconds).toFixed(1),
        postgresCpuSeconds: +(after.postgres.cpuSeconds - before.postgres.cpuSeconds).toFixed(1),
      };
    }
    clearInterval(sampler);
    const simulator = usage(fleet.pids());
    // Graceful shutdown with the fleet still connected and reporting (a rolling restart): what the
    // server had received is written before it exits (main.ts exits after SHUTDOWN_TIMEOUT_SECONDS,
    // 20 by default, whatever is left).
    const shutdown = await stopServer();
    await fleet.stop();
    // Retained states on the machine's broker outlive the run; the benchmark's own brokers go with it.
    if (MQTT_URL)
      await clearRetained(
        MQTT_URL,
        plan.map((d) => d.sn),
      );

    const result = {
      date: new Date().toISOString(),
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, ${Math.round(os.totalmem() / 2 ** 30)} GB, ${os.type()} ${os.release()}, Node ${process.version}`,
      devices: N,
      types,
      timeScale,
      telemetryMs,
      provisionMs,
      fleetStartMs: startedMs,
      allOnlineMs: onlineMs,
      settle,
      bulkRebootAckMs: ackMs,
      bulkRebootCodes: codes,
      bulkJobs,
      broker: tree
        ? `${PARTS} own Mosquittos, each bridged to a central one the server uses`
        : broker
          ? 'own Mosquitto'
          : MQTT_URL
            ? `Mosquitto at ${MQTT_URL}`
            : 'embedded Aedes',
      simulatorProcesses: PARTS,
      simulatorNice: PARTS > 1 ? SIM_NICE : 0,
      link: LINK,
      bulkDevices: BULK,
      allOnlineAgainMs: backOnlineMs,
      onlineAgain: onlineAfterReboot,
      steadyApi,
      steadySlowCalls,
      steadyServerLoad,
      steadyJobs,
      storm,
      cpuMsPerDevice: {
        connectServer: +(((atOnline.server.cpuSeconds - idle.server.cpuSeconds) * 1000) / N).toFixed(2),
        connectPostgres: +(((atOnline.postgres.cpuSeconds - idle.postgres.cpuSeconds) * 1000) / N).toFixed(2),
        steadyServerPer30s: +(
          ((steady.server.cpuSeconds - afterSettle.server.cpuSeconds) * 1000 * (30 / STEADY_S)) /
          N
        ).toFixed(3),
        bulkServer: +(((afterReboot.server.cpuSeconds - steady.server.cpuSeconds) * 1000) / BULK).toFixed(2),
      },
      rssMbPer1000Devices: {
        server: +(((afterBack.server.rssMb - idle.server.rssMb) * 1000) / N).toFixed(1),
        postgres: +(((afterBack.postgres.rssMb - idle.postgres.rssMb) * 1000) / N).toFixed(1),
      },
      serverCpuSeconds: {
        connect: +(atOnline.server.cpuSeconds - idle.server.cpuSeconds).toFixed(1),
        settle: +(afterSettle.server.cpuSeconds - atOnline.server.cpuSeconds).toFixed(1),
        // Per 30 s of the steady window, whatever its length (--steady-s).
        steady30s: +(((steady.server.cpuSeconds - afterSettle.server.cpuSeconds) * 30) / STEADY_S).toFixed(1),
        bulkReboot: +(afterReboot.server.cpuSeconds - steady.server.cpuSeconds).toFixed(1),
      },
      postgresCpuSeconds: {
        connect: +(atOnline.postgres.cpuSeconds - idle.postgres.cpuSeconds).toFixed(1),
        settle: +(afterSettle.postgres.cpuSeconds - atOnline.postgres.cpuSeconds).toFixed(1),
        // Per 30 s of the steady window, whatever its length (--steady-s).
        steady30s: +(
          ((steady.postgres.cpuSeconds - afterSettle.postgres.cpuSeconds) * 30) /
          STEADY_S
        ).toFixed(1),
        bulkReboot: +(afterReboot.postgres.cpuSeconds - steady.postgres.cpuSeconds).toFixed(1),
      },
      serverRssMb: { idle: idle.server.rssMb, online: atOnline.server.rssMb, peak: peak.serverRssMb },
      postgresRssMb: { idle: idle.postgres.rssMb, peak: peak.postgresRssMb },
      benchProcessRssMb: Math.round(process.memoryUsage().rss / 2 ** 20),
      simulatorRssMb: simulator.rssMb,
      shutdown,
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await stop();
  }
}

function isPostgres(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim().startsWith('postgres');
  } catch {
    return false;
  }
}

await main();
process.exit(0);
