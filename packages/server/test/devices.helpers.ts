import { randomBytes } from 'node:crypto';
import { type SimulatedDevice, startDevice } from '@beacon/agent';
import { deriveDeviceSecret, type LiveEvent } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import type pg from 'pg';
import type { Database } from '../src/db/client.ts';
import { deviceState, devices, projects } from '../src/db/schema.ts';
import { type DeviceRow, STATE_KEYS, selectDevices } from '../src/devices/row.ts';
import { EVENT_CHANNEL } from '../src/events/bus.ts';
import type { TestServer } from './helpers/harness.ts';

/** Helpers of the device tests (gateway, devices, events): real simulated devices over the real broker. */

/** True when the tests run against an external broker (MQTT_URL), where per-device auth may not apply. */
export const EXTERNAL_BROKER = Boolean(process.env.MQTT_URL);

/** A prefix unique to this test file's run, so files sharing one external broker never collide. */
export const RUN = randomBytes(3).toString('hex').toUpperCase();
let counter = 0;

/** A fresh serial number: `T{run}{kind}{counter}` padded to 16 characters. */
export function testSn(kind = 'X'): string {
  counter += 1;
  const body = `T${RUN}${kind}`;
  return `${body}${String(counter).padStart(16 - body.length, '0')}`;
}

export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  what: string | (() => string),
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as T;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

export type { DeviceRow };

export async function deviceRow(server: TestServer, sn: string): Promise<DeviceRow | undefined> {
  const [row] = await selectDevices(server.database.db).where(eq(devices.sn, sn));
  return row;
}

export interface StartOptions {
  model?: string;
  timeScale?: number;
  secret?: string;
  /** The firmware it runs at first (default the model's oldest). */
  firmware?: string;
  /** The public key it checks firmware signatures with (default the development key). */
  firmwareKey?: string;
}

/** A device as a bare MQTT client with its own credentials (the test writes every message itself). */
export async function rawDeviceClient(server: TestServer, sn: string): Promise<mqtt.MqttClient> {
  return mqtt.connectAsync(server.gateway.brokerUrl, {
    clientId: sn,
    username: sn,
    password: await deriveDeviceSecret(server.config.factoryKey, sn),
    reconnectPeriod: 0,
  });
}

/** Starts a simulated device against the test server's broker (fast reconnects, quick telemetry). */
export function simulate(
  server: TestServer,
  sn: string,
  options: StartOptions = {},
): Promise<SimulatedDevice> {
  return startDevice({
    url: server.gateway.brokerUrl,
    sn,
    model: options.model ?? 'BA-W1200C',
    factoryKey: server.config.factoryKey,
    secret: options.secret,
    firmware: options.firmware,
    firmwareKey: options.firmwareKey,
    timeScale: options.timeScale ?? 0.01,
    telemetryMs: 500,
    backoffMinMs: 100,
    backoffMaxMs: 400,
    keepalive: 5,
    clientEvents: false,
  });
}

/** Starts a device and waits until the server has recorded it online. */
export async function simulateOnline(
  server: TestServer,
  sn: string,
  options: StartOptions = {},
): Promise<SimulatedDevice> {
  const device = await simulate(server, sn, options);
  await waitFor(async () => (await deviceRow(server, sn))?.status === 1, `${sn} online`);
  return device;
}

/** A project of `ownerId` straight in the database (netMode 0 WLAN, 1 MESH). */
export async function insertProject(server: TestServer, ownerId: number, netMode = 0): Promise<number> {
  counter += 1;
  const [row] = await server.database.db
    .insert(projects)
    .values({ ownerId, name: `dev${RUN}${counter}`, scenario: 'hotel', netMode })
    .returning({ id: projects.id });
  return row.id;
}

/** A device row as if it had connected once (seen, unclaimed unless projectId). */
export async function insertSeen(
  server: TestServer,
  sn: string,
  values: Partial<DeviceValues> & { model: string; type: string },
): Promise<void> {
  const now = new Date();
  await insertDevice(server.database, { sn, status: 1, firstSeenAt: now, lastSeenAt: now, ...values });
}

/** Inserted values of a device, inventory and reported state alike (docs/decisions/0031). */
export type DeviceValues = typeof devices.$inferInsert & Partial<typeof deviceState.$inferInsert>;

/** A device straight in the database: its inventory row, then the state row the trigger made. */
export async function insertDevice(database: Database, values: DeviceValues): Promise<void> {
  const inventory: Record<string, unknown> = {};
  const state: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    if (k !== 'sn' && (STATE_KEYS as string[]).includes(k)) state[k] = v;
    else inventory[k] = v;
  }
  await database.db.insert(devices).values(inventory as typeof devices.$inferInsert);
  if (Object.keys(state).length) {
    await database.db.update(deviceState).set(state).where(eq(deviceState.sn, values.sn));
  }
}

/** Every live event published through PostgreSQL while the collector runs. */
export class EventCollector {
  readonly events: Exclude<LiveEvent, { type: 'hello' }>[] = [];
  private constructor(private readonly client: pg.PoolClient) {}

  static async start(server: TestServer): Promise<EventCollector> {
    const client = await server.database.pool.connect();
    const collector = new EventCollector(client);
    client.on('notification', (msg) => {
      if (msg.channel === EVENT_CHANNEL && msg.payload) collector.events.push(JSON.parse(msg.payload));
    });
    await client.query(`listen ${EVENT_CHANNEL}`);
    return collector;
  }

  statuses(sn: string): number[] {
    return this.events.flatMap((e) => (e.type === 'device.status' && e.sn === sn ? [e.status] : []));
  }

  async stop(): Promise<void> {
    await this.client.query(`unlisten ${EVENT_CHANNEL}`);
    this.client.release();
  }
}
