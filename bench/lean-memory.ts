/**
 * bench/lean-memory — how much one process needs to hold N simulated devices (issue 16).
 *
 *   npx tsx bench/lean-memory.ts [N=10000] [--link lean|mqtt] [--mqtt-url mqtt://127.0.0.1:1883 | --own-mosquitto]
 *        [--prefix LM] [--ramp 2000] [--hold-s 40]
 *
 * Starts N simulated APs (packages/agent startFleet, sites of 10 sharing a client world, telemetry
 * every 30 s) against a broker and no server: the devices connect, say hello, report state and
 * telemetry, as they would to a server that never answers. Prints the process's RSS and V8 heap once
 * all are connected and after `--hold-s` seconds of telemetry, per 1,000 devices, and the CPU the
 * process spent. `--own-mosquitto`: a Mosquitto of its own with an open-file limit above N
 * (bench/broker.ts), for N over the machine's broker's limit; its RSS is printed too. At the end every device leaves cleanly and its retained state is cleared (the
 * machine's broker is shared). The broker needs a file-descriptor limit above N (the machine's
 * Mosquitto has 20,000 now: see bench/RESULTS.md).
 */
import fs from 'node:fs';
import { clearRetained, startFleet } from '@beacon/agent';
import { freePort } from '../packages/server/src/db/embedded.ts';
import { opt } from './args.ts';
import { checkOpenFiles, ownMosquitto } from './broker.ts';

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 10000);
const LINK = opt('link', 'lean') as 'lean' | 'mqtt';
checkOpenFiles(N);
const broker = args.includes('--own-mosquitto') ? await ownMosquitto(await freePort(), N + 100) : null;
const URL_ = broker?.url ?? opt('mqtt-url', process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883');
const brokerRssMb = () => {
  if (!broker) return null;
  const status = fs.readFileSync(`/proc/${broker.pid()}/status`, 'utf8');
  return Math.round(Number(status.match(/VmRSS:\s+(\d+)/)?.[1] ?? 0) / 1024);
};
const PREFIX = opt('prefix', `LM${(Date.now() % 1e6).toString(36).toUpperCase()}`);
const RAMP = Number(opt('ramp', '2000'));
const HOLD_S = Number(opt('hold-s', '40'));
const mb = (b: number) => Math.round(b / 2 ** 20);
const mem = () => {
  global.gc?.();
  const m = process.memoryUsage();
  return { rssMb: mb(m.rss), heapMb: mb(m.heapUsed), externalMb: mb(m.external + m.arrayBuffers) };
};

const before = mem();
const cpu0 = process.cpuUsage();
const t0 = Date.now();
const fleet = await startFleet({
  url: URL_,
  count: N,
  prefix: PREFIX,
  link: LINK,
  rampPerSecond: RAMP,
  keepalive: 60,
  telemetryMs: 30_000,
  clientEvents: false,
});
const started = Date.now() - t0;
await fleet.waitOnline(10 * 60_000);
const online = Date.now() - t0;
const atOnline = mem();
await new Promise((r) => setTimeout(r, HOLD_S * 1000));
const held = mem();
const cpu = process.cpuUsage(cpu0);
const per1k = (m: number) => +(((m - before.rssMb) * 1000) / N).toFixed(1);
console.log(
  JSON.stringify(
    {
      n: N,
      link: LINK,
      broker: URL_,
      startedMs: started,
      allConnectedMs: online,
      memory: { before, atOnline, afterHold: held, rssMbPer1000Devices: per1k(held.rssMb) },
      cpuSeconds: +((cpu.user + cpu.system) / 1e6).toFixed(1),
      holdSeconds: HOLD_S,
      brokerRssMb: brokerRssMb(),
    },
    null,
    2,
  ),
);
const sns = fleet.devices.map((d) => d.sn);
await fleet.stop();
if (broker) await broker.stop();
else await clearRetained(URL_, sns);
process.exit(0);
