import net, { type AddressInfo } from 'node:net';
import { DEV_FACTORY_KEY } from '@beacon/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { runConformance, type StepResult } from '../src/conformance.ts';
import { type SimulatedDevice, startDevice } from '../src/device.ts';

/**
 * The conformance kit against the simulator (the reference device): every step passes, including a
 * remote-management session through the device-opened tunnel and a bad-checksum upgrade; a device
 * with the wrong secret fails at the first step.
 */

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

const devices: SimulatedDevice[] = [];
afterAll(async () => {
  await Promise.all(devices.map((d) => d.kill().catch(() => {})));
});

async function bench(model: string, sn: string, secret?: string) {
  const port = await freePort();
  const url = `mqtt://127.0.0.1:${port}`;
  const lines: string[] = [];
  const run = runConformance({
    url,
    sn,
    key: DEV_FACTORY_KEY,
    timeScale: 0.01,
    connectTimeoutMs: secret ? 5_000 : 30_000,
    log: (l) => lines.push(l),
  });
  // The device starts once the kit's broker listens (it retries with backoff until then).
  const device = await startDevice({
    url,
    sn,
    model,
    timeScale: 0.01,
    telemetryMs: 1000,
    backoffMinMs: 100,
    backoffMaxMs: 500,
    ...(secret ? { secret } : {}),
  });
  devices.push(device);
  const results = await run;
  // The kit's broker is gone: cut the device off (a clean stop would wait for it).
  await device.kill();
  return { results, lines };
}

const failures = (results: StepResult[]) => results.filter((r) => !r.ok);

describe('the conformance kit', () => {
  it('passes every step with the simulated access point', async () => {
    const { results, lines } = await bench('BA-W1200C', 'CONFAP0000000001');
    expect(failures(results), lines.join('\n')).toEqual([]);
    const steps = results.map((r) => r.step).join('\n');
    for (const expected of [
      'credentials',
      'hello',
      'telemetry',
      'malformed JSON answers 19',
      'an unknown command answers 16',
      'rate-limit',
      'refused with the rule’s code',
      'tunnel: the page comes over the device’s own link',
      'bad checksum',
      'comes back on the new firmware',
      'reboot',
      'reset',
    ])
      expect(steps).toContain(expected);
  }, 120_000);

  it('a switch: PoE reboot, no Wi-Fi commands it lacks', async () => {
    const { results, lines } = await bench('BS-S1008P', 'CONFSW0000000001');
    expect(failures(results), lines.join('\n')).toEqual([]);
    expect(results.map((r) => r.step).join('\n')).toContain('poe-reboot');
  }, 120_000);

  it('a device with the wrong secret fails the credentials step', async () => {
    const { results } = await bench('BA-W1200C', 'CONFAP0000000002', '0'.repeat(32));
    expect(results[0]).toMatchObject({ ok: false });
    expect(results[0].step).toContain('credentials');
  }, 60_000);
});
