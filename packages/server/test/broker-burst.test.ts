import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type SimulatedDevice, startDevice } from '@beacon/agent';
import { upTopic } from '@beacon/protocol';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/db/embedded.ts';
import { deviceRow, testSn, waitFor } from './devices.helpers.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';
import { listening } from './helpers/ports.ts';

/**
 * The server takes every device's messages through one broker connection, so a broker's per-client
 * queue limits apply to all of them together. Mosquitto holds at most `max_inflight_messages` QoS 1
 * messages unacknowledged to a client and `max_queued_messages` more, and silently drops the rest:
 * with the limits docs/protocol/mosquitto.md once gave (20 and 100), a few hundred devices
 * rebooting at once lost their "online again" state (bench/fleet left 121 of 2,000 "rebooting").
 * This Mosquitto runs with the limits the page gives now, read from the page itself, and a burst of
 * 2,250 QoS 1 events from 15 devices at once must all be stored.
 * Skipped where no `mosquitto` binary is installed.
 */

const HAS_MOSQUITTO = !spawnSync('mosquitto', ['-h']).error;
const DEVICES = 15;
/** Under a device's message burst (DEVICE_LIMITS.MESSAGE_BURST, 200): the server drops none itself. */
const EACH = 150;

/** The queue limits of the documented configuration (docs/protocol/mosquitto.md). */
function documentedLimits(): string[] {
  const page = fs.readFileSync(
    path.resolve(import.meta.dirname, '../../../docs/protocol/mosquitto.md'),
    'utf8',
  );
  const lines = page.split('\n').filter((l) => /^max_(inflight|queued)_messages \d+$/.test(l.trim()));
  if (lines.length !== 2) throw new Error('docs/protocol/mosquitto.md: the two queue limits not found');
  return lines.map((l) => l.trim());
}

let server: TestServer;
let broker: ChildProcess | null = null;
let port: number;
let dir: string;
const running: SimulatedDevice[] = [];

describe.skipIf(!HAS_MOSQUITTO)('a burst through Mosquitto configured as documented', () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-broker-burst-'));
    port = await freePort();
    fs.writeFileSync(
      path.join(dir, 'mosquitto.conf'),
      [
        `listener ${port} 127.0.0.1`,
        'allow_anonymous true',
        'persistence false',
        'log_type error',
        ...documentedLimits(),
        '',
      ].join('\n'),
    );
    broker = spawn('mosquitto', ['-c', path.join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
    await waitFor(() => listening(port), 'mosquitto listening');
    server = await startTestServer({
      MQTT_URL: `mqtt://127.0.0.1:${port}`,
      MQTT_SHARE_GROUP: `t${randomBytes(4).toString('hex')}`,
    });
  });

  afterAll(async () => {
    await Promise.all(running.map((d) => d.kill().catch(() => {})));
    await server?.close();
    broker?.kill('SIGKILL');
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stores every one of 2,250 QoS 1 events that 15 devices send at once', async () => {
    const sns = Array.from({ length: DEVICES }, () => testSn('U'));
    for (const sn of sns) {
      running.push(
        await startDevice({
          url: `mqtt://127.0.0.1:${port}`,
          sn,
          model: 'BA-W1200C',
          factoryKey: server.config.factoryKey,
          timeScale: 0.01,
          telemetryMs: 60_000,
          keepalive: 30,
          clientEvents: false,
          link: 'lean',
        }),
      );
    }
    for (const sn of sns)
      await waitFor(async () => (await deviceRow(server, sn))?.status === 1, `${sn} online`);
    const tag = randomBytes(3).toString('hex');
    // Every device hands over all of its events at once (each resolves at the broker's PUBACK).
    await Promise.all(
      running.flatMap((d) =>
        Array.from({ length: EACH }, (_, i) =>
          d.link.publishRaw(
            upTopic(d.sn, 'event'),
            JSON.stringify({
              id: `${tag}-${i}`,
              ts: Date.now(),
              event: 'high-cpu',
              level: 'warning',
              message: 'burst',
            }),
            1,
          ),
        ),
      ),
    );
    let stored = 0;
    await waitFor(
      async () => {
        const { rows } = await server.database.db.execute<{ n: number }>(
          sql`select count(*)::int as n from device_events where event_id like ${`${tag}-%`}`,
        );
        stored = rows[0].n;
        return stored === DEVICES * EACH;
      },
      () => `every event of the burst stored (${stored} of ${DEVICES * EACH})`,
      30_000,
    );
    expect(server.gateway.ingest.stats().dropped).toBe(0);
  });
});
