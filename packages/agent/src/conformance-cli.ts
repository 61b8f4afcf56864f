/**
 * `npm run conformance -- --url mqtt://host:1883 --sn SN --key FACTORY_KEY [--firmware-seed HEX]
 * [--http-host HOST] [--time-scale N] [--skip-restarts]`: the conformance kit (conformance.ts).
 * Point the device at the URL; the kit prints pass or fail per step and exits 1 when one fails.
 */
import { parseArgs } from 'node:util';
import { runConformance } from './conformance.ts';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    sn: { type: 'string' },
    key: { type: 'string' },
    'firmware-seed': { type: 'string' },
    'http-host': { type: 'string' },
    'time-scale': { type: 'string' },
    'skip-restarts': { type: 'boolean' },
    'connect-timeout': { type: 'string' },
  },
});
if (!values.url || !values.sn || !values.key) {
  console.error('usage: npm run conformance -- --url mqtt://host:1883 --sn <SN> --key <factory key>');
  process.exit(2);
}
const results = await runConformance({
  url: values.url,
  sn: values.sn,
  key: values.key,
  firmwareSeed: values['firmware-seed'],
  httpHost: values['http-host'],
  timeScale: values['time-scale'] ? Number(values['time-scale']) : undefined,
  skipRestarts: values['skip-restarts'],
  connectTimeoutMs: values['connect-timeout'] ? Number(values['connect-timeout']) * 1000 : undefined,
});
const failed = results.filter((r) => !r.ok);
console.log(`${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length ? 1 : 0);
