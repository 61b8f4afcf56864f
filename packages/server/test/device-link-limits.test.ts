import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { DEVICE_LIMITS, deriveDeviceSecret, upTopic } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceEvents } from '../src/db/schema.ts';
import { deviceRow, EXTERNAL_BROKER, testSn, waitFor } from './devices.helpers.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/** Issue 7: the packet size limit, the broker's listen address and the public factory key. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function deviceClient(sn: string): Promise<mqtt.MqttClient> {
  return mqtt.connectAsync(server.gateway.brokerUrl, {
    clientId: sn,
    username: sn,
    password: await deriveDeviceSecret(server.config.factoryKey, sn),
    reconnectPeriod: 0,
  });
}

const helloOf = (sn: string, capabilities: string[]) => ({
  sn,
  model: 'BA-W1200C',
  type: 'ap',
  firmware: '4.2.0',
  capabilities,
  mac: '02:00:00:00:00:01',
  ip: '10.0.0.9',
  mode: 1,
  revision: 0,
  uptime: 1,
  bootId: 'boot',
  protocol: 1,
  ts: Date.now(),
});

async function marker(client: mqtt.MqttClient, sn: string, id: string): Promise<void> {
  const event = { id, ts: Date.now(), event: 'booted', level: 'info', message: 'marker' };
  await client.publishAsync(upTopic(sn, 'event'), JSON.stringify(event), { qos: 1 });
  await waitFor(async () => {
    const rows = await server.database.db.select().from(deviceEvents).where(eq(deviceEvents.sn, sn));
    return rows.some((r) => r.eventId === id);
  }, `marker ${id}`);
}

describe('MQTT packet size limit', () => {
  it('drops a packet over the limit (the embedded broker closes its connection) and stores nothing', async () => {
    const sn = testSn('Z');
    let client = await deviceClient(sn);
    let closed = false;
    client.on('close', () => {
      closed = true;
    });
    // 120,000 short capabilities: over the packet limit, and a list the old schema let through.
    const giant = JSON.stringify(
      helloOf(
        sn,
        Array.from({ length: 120_000 }, (_, i) => `c${i}`),
      ),
    );
    expect(Buffer.byteLength(giant)).toBeGreaterThan(DEVICE_LIMITS.MQTT_PACKET_BYTES);
    client.publish(upTopic(sn, 'hello'), giant, { qos: 0 });
    if (!EXTERNAL_BROKER) {
      await waitFor(() => closed, 'the broker closes the connection of the oversized packet');
      client.end(true);
      client = await deviceClient(sn);
    }
    // A message after it, handled after it: the oversized hello is handled (dropped) by then.
    await marker(client, sn, `after-giant-${sn}`);
    expect(await deviceRow(server, sn)).toBeUndefined();
    await client.endAsync(true);
  });

  it('still takes a message just under the limit', async () => {
    const sn = testSn('Y');
    const client = await deviceClient(sn);
    const event = {
      id: `large-${sn}`,
      ts: Date.now(),
      event: 'booted',
      level: 'info',
      message: 'large',
      data: { blob: 'x'.repeat(DEVICE_LIMITS.DATA_BYTES - 20) },
    };
    await client.publishAsync(upTopic(sn, 'event'), JSON.stringify(event), { qos: 1 });
    await waitFor(async () => {
      const rows = await server.database.db.select().from(deviceEvents).where(eq(deviceEvents.sn, sn));
      return rows.length === 1;
    }, 'the large event');
    await client.endAsync(true);
  });
});

/** Answers whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe.skipIf(EXTERNAL_BROKER)('the embedded broker listens where it is told', () => {
  it('follows HOST: with HOST=127.0.0.1 another loopback address is refused', async () => {
    const port = server.gateway.broker!.port;
    expect(server.config.host).toBe('127.0.0.1');
    expect(await accepts('127.0.0.1', port)).toBe(true);
    expect(await accepts('127.0.0.2', port)).toBe(false);
  });

  it('follows MQTT_HOST when set, and the server connects there itself', async () => {
    const other = await startTestServer({ MQTT_HOST: '127.0.0.2' });
    try {
      const port = other.gateway.broker!.port;
      expect(other.gateway.brokerUrl).toBe(`mqtt://127.0.0.2:${port}`);
      expect(other.gateway.link.connected).toBe(true);
      expect(await accepts('127.0.0.2', port)).toBe(true);
      expect(await accepts('127.0.0.1', port)).toBe(false);
    } finally {
      await other.close();
    }
  });
});

describe('the public development factory key', () => {
  const root = path.resolve(import.meta.dirname, '../../..');
  const main = path.join(root, 'packages/server/src/main.ts');

  /** Runs src/main.ts as `npm start` does; answers its exit code and output. */
  function run(env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', main], {
        cwd: root,
        // Nothing listens on port 1: after its first lines the server stops on the database.
        env: {
          ...process.env,
          DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/none',
          PORT: '0',
          MQTT_PORT: '0',
          DEMO: '0',
          BEACON_FACTORY_KEY: undefined,
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => {
        output += c.toString('utf8');
      });
      child.stderr.on('data', (c: Buffer) => {
        output += c.toString('utf8');
      });
      child.on('exit', (code) => resolve({ code, output }));
    });
  }

  it('refuses to start with it when NODE_ENV=production, naming BEACON_FACTORY_KEY', async () => {
    const { code, output } = await run({ NODE_ENV: 'production' });
    expect(code).not.toBe(0);
    expect(output).toContain('BEACON_FACTORY_KEY');
    expect(output).toContain('NODE_ENV=production');
    // Refused before anything else: it never got to the database.
    expect(output).not.toContain('ECONNREFUSED');
  });

  it('logs a loud warning naming BEACON_FACTORY_KEY when it runs with it outside production', async () => {
    const { output } = await run({ NODE_ENV: 'development' });
    const warning = output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .find((l) => l.msg.includes('BEACON_FACTORY_KEY'));
    expect(warning?.level).toBe(40);
    expect(warning?.msg).toContain('anyone can log in as any device');
  });

  it('starts in production with a key of its own, without the warning', async () => {
    const { output } = await run({
      NODE_ENV: 'production',
      BEACON_FACTORY_KEY: 'a-real-secret-key',
      BEACON_FIRMWARE_KEY: '5e'.repeat(32),
    });
    expect(output).not.toContain('BEACON_FACTORY_KEY');
    // It went on to the database (and stopped there: nothing listens on port 1).
    expect(output).toMatch(/ECONNREFUSED|connect/);
  });
});
