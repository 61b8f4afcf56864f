import { afterEach, describe, expect, it } from 'vitest';
import { INCIDENTS, triggerIncident } from './incidents.ts';
import { type TestDevice, testDevice } from './testkit.ts';

let device: TestDevice | null = null;
afterEach(async () => {
  await device?.core.stop();
  device = null;
});

describe('incidents', () => {
  it('reports each incident with valid protocol messages', async () => {
    device = await testDevice('BS-S1008P');
    for (const kind of INCIDENTS) triggerIncident(device.core, kind);
    expect(device.link.invalid).toEqual([]);
    const events = device.link.of('event').map((e) => e.event);
    expect(events).toEqual(
      expect.arrayContaining([
        'high-cpu',
        'high-memory',
        'ip-conflict',
        'poe-overload',
        'upgrade-failed',
        'booted',
      ]),
    );
    const crash = device.link.of('event').find((e) => e.event === 'booted');
    // Not a commanded restart: no operation named.
    expect(crash?.data).toEqual({ reason: 'watchdog' });
  });

  it('holds a high load in the telemetry until it ends', async () => {
    device = await testDevice();
    triggerIncident(device.core, 'high-cpu', { percent: 98, durationMs: 60_000 });
    const telemetry = device.link.of('telemetry');
    expect(telemetry.at(-1)?.cpu).toBe(98);
    expect(device.core.telemetry().cpu).toBe(98);
    device.core.options.live.stress = { cpu: 99, until: Date.now() - 1 };
    expect(device.core.telemetry().cpu).toBeLessThan(99);
  });
});
