import type { SimulatedDevice } from '@beacon/agent';
import { DEVICE_LIMITS, upTopic } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceEvents } from '../src/db/schema.ts';
import { SYSTEM_ACTOR } from '../src/gateway/commands.ts';
import { deviceRow, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { capturingLogger, startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Issue 7: one device's burst of 15,000 telemetry messages took five minutes to drain (each waited
 * for the previous one's write) and its commands timed out meanwhile. Telemetry is now coalesced
 * per device and never holds a reply back.
 */

let server: TestServer;
const running: SimulatedDevice[] = [];
const log = capturingLogger('warn');

beforeAll(async () => {
  // Far above what a reply takes, far below what 15,000 writes one after another took.
  server = await startTestServer({ COMMAND_TIMEOUT_MS: '20000' }, { logger: log.logger });
});

/** A counter of the server's /metrics (loopback callers need no token). */
async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1] ?? Number.NaN);
}
afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

const telemetry = (cpu: number) =>
  JSON.stringify({
    ts: Date.now(),
    uptime: 100,
    cpu,
    memory: 20,
    clientCount: 0,
    clients: [],
    led: false,
    locating: false,
  });

describe('a device that floods telemetry', () => {
  it('gets its command replies through, and so does another device, while its 15,000 messages pass', async () => {
    const noisy = testSn('F');
    const quiet = testSn('Q');
    const a = await simulateOnline(server, noisy);
    const b = await simulateOnline(server, quiet);
    running.push(a, b);
    const coalescedBefore = server.gateway.ingest.stats().coalesced;
    const payload = telemetry(55.5);
    // In rounds of 500, as a device's network stack would hand them over (not 15,000 writes queued at once).
    const flood = (async () => {
      for (let round = 0; round < 30; round++) {
        await Promise.all(
          Array.from({ length: 500 }, () => a.publishRaw(upTopic(noisy, 'telemetry'), payload, 0)),
        );
      }
    })();
    // The commands go while the flood is on its way: the noisy device's reply travels behind it.
    const commands = server.gateway.commands;
    const [toNoisy, toQuiet] = await Promise.all([
      commands.send(noisy, 'locate', { seconds: 1 }, SYSTEM_ACTOR),
      commands.send(quiet, 'locate', { seconds: 1 }, SYSTEM_ACTOR),
    ]);
    await flood;
    expect(toNoisy).toMatchObject({ state: 'success', code: 0 });
    expect(toQuiet).toMatchObject({ state: 'success', code: 0 });
    // The flood was coalesced, not written message by message, and its values arrived.
    await server.gateway.ingest.drain();
    expect(server.gateway.ingest.stats().coalesced - coalescedBefore).toBeGreaterThan(10_000);
    await waitFor(async () => (await deviceRow(server, noisy))?.telemetryAt, 'telemetry of the noisy device');
  }, 60_000);

  it('has events over its message budget dropped, and its commands still answered', async () => {
    const sn = testSn('G');
    const d = await simulateOnline(server, sn);
    running.push(d);
    const dropped = server.gateway.ingest.stats().dropped;
    const droppedMetric = await metric('beacon_ingest_dropped_total');
    const started = Date.now();
    const count = 1000;
    const flood = (async () => {
      for (let round = 0; round < count / 100; round++) {
        await Promise.all(
          Array.from({ length: 100 }, (_, i) => {
            const e = {
              id: `f${round}-${i}`,
              ts: Date.now(),
              event: 'high-cpu',
              level: 'warning',
              message: 'x',
            };
            return d.publishRaw(upTopic(sn, 'event'), JSON.stringify(e), 0);
          }),
        );
      }
    })();
    const outcome = await server.gateway.commands.send(sn, 'locate', { seconds: 1 }, SYSTEM_ACTOR);
    await flood;
    expect(outcome).toMatchObject({ state: 'success', code: 0 });
    await server.gateway.ingest.drain();
    const stored = await server.database.db.select().from(deviceEvents).where(eq(deviceEvents.sn, sn));
    // The burst and what the sustained rate allowed meanwhile were stored; the rest was dropped.
    expect(stored.length).toBeGreaterThanOrEqual(DEVICE_LIMITS.MESSAGE_BURST - 10);
    expect(stored.length).toBeLessThan(count);
    // Every flood message not stored was counted as dropped (other devices may add their own).
    const storedFlood = stored.filter((r) => r.eventId.startsWith('f')).length;
    expect(server.gateway.ingest.stats().dropped - dropped).toBeGreaterThanOrEqual(count - storedFlood);
    // And logged, as an operator sees it: the counter on /metrics, and a warning naming the device —
    // at most one line a second, so the flood does not become one of log lines.
    expect(await metric('beacon_ingest_dropped_total')).toBeGreaterThanOrEqual(
      droppedMetric + count - storedFlood,
    );
    const lines = log.lines.filter((l) => l.msg === 'mqtt: message dropped' && l.sn === sn);
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines[0]).toMatchObject({ kind: 'event', reason: expect.any(String) });
    expect(lines.length).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 1000) + 1);
  }, 60_000);

  it('cuts a flood on arrival while the intake is busy: one telemetry and at most QUEUED_PER_DEVICE others wait', async () => {
    // The intake looks at what the link hands over in slices of a few ms, from the next turn of the
    // event loop (a storm): what arrives meanwhile waits raw, and one device must not fill memory.
    const ingest = server.gateway.ingest;
    const noisy = testSn('H');
    const outcomes: string[] = [];
    const count = 1000;
    for (let i = 0; i < count; i++) {
      const e = { id: `h${i}`, ts: Date.now(), event: 'high-cpu', level: 'warning', message: 'x' };
      ingest.accept(upTopic(noisy, 'event'), Buffer.from(JSON.stringify(e)), (o) =>
        outcomes.push(`event ${o}`),
      );
    }
    for (let i = 0; i < count; i++) {
      ingest.accept(upTopic(noisy, 'telemetry'), Buffer.from(telemetry(i)), (o) =>
        outcomes.push(`telemetry ${o}`),
      );
    }
    // Decided on arrival, before any of them was looked at: the events past the device's share of
    // the intake dropped, every telemetry but the newest replaced (as its lane would replace it).
    const arrival = outcomes.splice(0);
    expect(arrival.filter((o) => o === 'event dropped')).toHaveLength(
      count - DEVICE_LIMITS.QUEUED_PER_DEVICE,
    );
    expect(arrival.filter((o) => o === 'telemetry handled')).toHaveLength(count - 1);
    expect(arrival).toHaveLength(2 * count - DEVICE_LIMITS.QUEUED_PER_DEVICE - 1);
    await ingest.drain();
    const line = log.lines.find((l) => l.msg === 'mqtt: message dropped' && l.sn === noisy);
    expect(line).toMatchObject({ kind: 'event', reason: 'too many waiting to be looked at' });
    // What waited is handled as before: every one of them answered once.
    expect(outcomes).toHaveLength(DEVICE_LIMITS.QUEUED_PER_DEVICE + 1);
  }, 60_000);
});
