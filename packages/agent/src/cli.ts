#!/usr/bin/env -S npx tsx
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEVICE_TYPES, type DeviceType, setTopicRoot } from '@beacon/protocol';
import { startFleet } from './fleet.ts';
import { INCIDENTS, type Incident } from './incidents.ts';

const USAGE = `Usage: npm run agent -- [options]

Runs simulated Beacon devices against an MQTT broker.

  --url <url>              broker (default $MQTT_URL or mqtt://localhost:1883)
  --topic-root <level>     first level of every topic (default $MQTT_TOPIC_ROOT or dev; as the server's)
  --count <n>              devices to run (default 1)
  --types <list>           device types, round-robin: ${DEVICE_TYPES.join(',')} (default ap)
  --prefix <text>          serial number prefix, letters and digits (default SIM)
  --start-index <n>        first serial number index (default 0)
  --site-size <n>          devices per site: they share clients and are wired together (default 10)
  --sn <list>              explicit serial numbers instead of generated ones (with --types)
  --time-scale <x>         scales reboot/reset/upgrade durations (default 1; 0.01 = 100x faster)
  --state-dir <dir>        where devices keep their configuration (default packages/agent/.state)
  --factory-key <key>      derives per-device secrets (default $BEACON_FACTORY_KEY or the development key)
  --firmware-key <base64>  Ed25519 public key images must be signed with (default the development key)
  --telemetry <seconds>    telemetry interval (default 30)
  --ramp <n>               devices started per second (default 500)
  --incident <kind>        every device has this incident again and again: ${INCIDENTS.join(', ')}
  --incident-every <s>     seconds between incidents (default 60)
  --verbose                log every device's connection messages
  --help`;

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    'topic-root': { type: 'string' },
    count: { type: 'string' },
    types: { type: 'string' },
    prefix: { type: 'string' },
    'start-index': { type: 'string' },
    'site-size': { type: 'string' },
    sn: { type: 'string' },
    'time-scale': { type: 'string' },
    'state-dir': { type: 'string' },
    'factory-key': { type: 'string' },
    'firmware-key': { type: 'string' },
    telemetry: { type: 'string' },
    ramp: { type: 'string' },
    incident: { type: 'string' },
    'incident-every': { type: 'string' },
    verbose: { type: 'boolean' },
    help: { type: 'boolean' },
  },
});

function num(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`--${name} must be a non-negative number`);
    process.exit(2);
  }
  return n;
}

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const types = (values.types ?? 'ap').split(',').map((t) => t.trim()) as DeviceType[];
const badType = types.find((t) => !DEVICE_TYPES.includes(t));
if (badType) {
  console.error(`Unknown type ${badType}; use ${DEVICE_TYPES.join(', ')}`);
  process.exit(2);
}
const incident = values.incident as Incident | undefined;
if (incident !== undefined && !INCIDENTS.includes(incident)) {
  console.error(`Unknown incident ${incident}; use ${INCIDENTS.join(', ')}`);
  process.exit(2);
}
const sns = values.sn
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);

const topicRoot = values['topic-root'] ?? process.env.MQTT_TOPIC_ROOT;
if (topicRoot) {
  try {
    setTopicRoot(topicRoot);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
}

const fleet = await startFleet({
  url: values.url ?? process.env.MQTT_URL ?? 'mqtt://localhost:1883',
  count: num('count', values.count, 1),
  types,
  prefix: values.prefix ?? 'SIM',
  startIndex: num('start-index', values['start-index'], 0),
  siteSize: num('site-size', values['site-size'], 10) || 10,
  devices: sns?.map((sn, i) => ({ sn, type: types[i % types.length] })),
  timeScale: num('time-scale', values['time-scale'], 1) || 1,
  stateDir: values['state-dir'] ?? fileURLToPath(new URL('../.state', import.meta.url)),
  factoryKey: values['factory-key'] ?? process.env.BEACON_FACTORY_KEY,
  firmwareKey: values['firmware-key'],
  telemetryMs: num('telemetry', values.telemetry, 30) * 1000 || 30_000,
  rampPerSecond: num('ramp', values.ramp, 500) || 500,
  incident: incident
    ? { kind: incident, everyMs: (num('incident-every', values['incident-every'], 60) || 60) * 1000 }
    : undefined,
  log: values.verbose ? (m) => console.log(m) : undefined,
});

console.log(
  `Started ${fleet.devices.length} devices: ${fleet.devices
    .slice(0, 5)
    .map((d) => d.sn)
    .join(', ')}${fleet.devices.length > 5 ? ', …' : ''}`,
);
let last = -1;
const report = setInterval(() => {
  const online = fleet.online();
  if (online !== last) console.log(`${new Date().toISOString()} online ${online}/${fleet.devices.length}`);
  last = online;
}, 2000);

let stopping = false;
const shutdown = async () => {
  if (stopping) process.exit(1);
  stopping = true;
  clearInterval(report);
  console.log('Stopping devices…');
  await fleet.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
