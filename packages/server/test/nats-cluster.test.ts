import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type MqttLink, type SimulatedDevice, startDevice } from '@beacon/agent';
import { downTopic, upTopic } from '@beacon/protocol';
import { and, eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../src/db/embedded.ts';
import { deviceEvents } from '../src/db/schema.ts';
import { SYSTEM_ACTOR } from '../src/gateway/commands.ts';
import type { NatsLink } from '../src/gateway/nats-link.ts';
import { deviceRow, testSn, waitFor } from './devices.helpers.ts';
import { eventLoad, unstoredEvents } from './helpers/event-load.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';
import { NatsCluster, natsServerBinary } from './helpers/nats-cluster.ts';

/**
 * Issue 16 "Past one broker" (docs/decisions/0067, docs/deployment.md): the broker kind NATS on a
 * real 3-node cluster. Devices speak plain MQTT to the nodes' MQTT listeners; two server instances
 * (one in this process, one a child process) share one database and one JetStream consumer. One
 * NATS node and one server instance are killed (SIGKILL) while devices publish and PostgreSQL
 * refuses both instances; every device must still answer a command through the surviving instance,
 * every event a device had acknowledged (PUBACK) must be stored, and the devices of the killed node
 * must be on another node.
 */

const BINARY = natsServerBinary();
if (!BINARY && process.env.CI === 'true') {
  throw new Error('nats-server is not installed: CI installs it (apt-get install nats-server, .ci/run)');
}
const SKIP_REASON = BINARY ? '' : ' (skipped: no nats-server binary; apt-get install nats-server)';

const FLEET = 20;
const ACK_WAIT_SECONDS = 5;
const repoRoot = path.resolve(import.meta.dirname, '../../..');

let dir: string;
let cluster: NatsCluster;
let a: TestServer;
let b: ChildProcess | null = null;
const bLog: string[] = [];
const sns: string[] = [];
const devices: SimulatedDevice[] = [];
const serverUser = { user: 'beacon-server', password: randomBytes(12).toString('hex') };

function natsEnv(): Record<string, string> {
  return {
    MQTT_URL: '',
    NATS_URL: cluster.natsUrls.join(','),
    NATS_MQTT_URL: cluster.mqttUrl(0),
    MQTT_USERNAME: serverUser.user,
    MQTT_PASSWORD: serverUser.password,
    NATS_ACK_WAIT_SECONDS: String(ACK_WAIT_SECONDS),
    // Every instance reads through the same durable consumer (the harness picks a group per server).
    MQTT_SHARE_GROUP: 'beacon',
  };
}

/** Instance B: the real server in a process of its own (so that it can die as a process dies). */
async function startInstanceB(): Promise<void> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      ...natsEnv(),
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: a.config.databaseUrl!,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO: '0',
      JOB_POLL_MS: '0',
      BEACON_SECRET_KEY: 'test-secret-key',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d: Buffer) => bLog.push(...d.toString().split('\n').filter(Boolean));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  b = child;
  await waitFor(
    async () => {
      if (child.exitCode !== null) throw new Error(`instance B exited: ${bLog.slice(-5).join('\n')}`);
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/health`).catch(() => null);
      return res?.status === 200;
    },
    'instance B healthy',
    40_000,
  );
}

beforeAll(async () => {
  if (!BINARY) return;
  dir = await mkdtemp(path.join(os.tmpdir(), 'beacon-nats-'));
  for (let i = 0; i < FLEET; i++) sns.push(testSn('N'));
  // A stranger the cluster knows (a device of another owner) for the permission check below.
  sns.push(testSn('S'));
  const factoryKey = (await import('@beacon/protocol')).DEV_FACTORY_KEY;
  cluster = await NatsCluster.start({ binary: BINARY, dir, size: 3, server: serverUser, factoryKey, sns });
  a = await startTestServer(natsEnv());
  await startInstanceB();
  // Each device knows every node, starting from its own (i mod 3), as a cluster-aware device would.
  for (let i = 0; i < FLEET; i++) {
    const urls = [0, 1, 2].map((k) => cluster.mqttUrl((i + k) % 3)).join(',');
    devices.push(
      await startDevice({
        url: urls,
        sn: sns[i],
        model: 'BA-W1200C',
        factoryKey,
        timeScale: 0.01,
        telemetryMs: 1000,
        backoffMinMs: 100,
        backoffMaxMs: 500,
        keepalive: 5,
        clientEvents: false,
      }),
    );
  }
  await waitFor(
    async () => {
      for (const sn of sns.slice(0, FLEET)) if ((await deviceRow(a, sn))?.status !== 1) return false;
      return true;
    },
    'every device online',
    30_000,
  );
}, 90_000);

afterAll(async () => {
  // Each step is bounded: a step that hangs is named in the log and the clean-up goes on, so the
  // cluster's processes are always stopped.
  const step = async (what: string, run: () => Promise<unknown> | undefined) => {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<'timeout'>((r) => {
      timer = setTimeout(() => r('timeout'), 25_000);
    });
    const outcome = await Promise.race([Promise.resolve(run()).catch((err) => err), limit]);
    clearTimeout(timer);
    if (outcome === 'timeout') console.log(`afterAll: ${what} did not finish in 25 s`);
    else if (Date.now() - started > 5000) console.log(`afterAll: ${what} took ${Date.now() - started} ms`);
  };
  await step('devices', () =>
    Promise.all(devices.map((d) => (d.connected ? d.stop().catch(() => undefined) : undefined))),
  );
  b?.kill('SIGKILL');
  await step('instance A', () => a?.close());
  await step('cluster', () => cluster?.stop());
  if (dir) await rm(dir, { recursive: true, force: true });
}, 90_000);

describe(`NATS broker kind: a 3-node cluster, two instances${SKIP_REASON}`, () => {
  it.skipIf(!BINARY)('holds no stored consumer per device: devices subscribe with QoS 0', async () => {
    // Every device is connected and subscribed (beforeAll waited for it); a QoS 1 subscription
    // would be a JetStream consumer on nats-server's $MQTT_msgs stream (decision 0073).
    expect(devices.every((d) => d.connected)).toBe(true);
    expect(await cluster.consumerCount('$MQTT_msgs')).toBe(0);
  });

  it.skipIf(!BINARY)('keeps a device under its own dev/{sn}/ on the cluster', async () => {
    // The stranger logs in with its own secret and tries another device's topics.
    const { DEV_FACTORY_KEY, deriveDeviceSecret } = await import('@beacon/protocol');
    const stranger = sns[FLEET];
    const victim = sns[0];
    const client = await mqtt.connectAsync(cluster.mqttUrl(1), {
      clientId: stranger,
      username: stranger,
      password: await deriveDeviceSecret(DEV_FACTORY_KEY, stranger),
      protocolVersion: 4,
      clean: true,
      reconnectPeriod: 0,
    });
    try {
      const granted = await client
        .subscribeAsync(downTopic(victim), { qos: 1 })
        .then((g) => g.map((x) => x.qos))
        .catch(() => [128]);
      expect(granted).toEqual([128]);
      await client.publishAsync(
        upTopic(victim, 'event'),
        JSON.stringify({
          id: 'forged-1',
          ts: Date.now(),
          event: 'password-changed',
          level: 'info',
          message: 'x',
        }),
        { qos: 1 },
      );
      // A wrong password is refused.
      await expect(
        mqtt.connectAsync(cluster.mqttUrl(1), {
          clientId: victim,
          username: victim,
          password: 'not-the-secret',
          reconnectPeriod: 0,
        }),
      ).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 1000));
      const forged = await a.database.db
        .select()
        .from(deviceEvents)
        .where(and(eq(deviceEvents.sn, victim), eq(deviceEvents.eventId, 'forged-1')));
      expect(forged).toHaveLength(0);
    } finally {
      await client.endAsync(true);
    }
  });

  it.skipIf(!BINARY)(
    'loses no acknowledged message and no device when a NATS node and a server instance die during a database outage',
    // Not retried (decision 0012): the cluster and the instances are not the same after a first run.
    { timeout: 120_000, retry: 0 },
    async () => {
      // Events every 150 ms from every device; an event counts once its PUBACK has come back.
      let sending = true;
      const events = eventLoad(devices, () => sending, 'nats');
      await new Promise((r) => setTimeout(r, 2000));

      // The node to kill: one that carries devices and a replica, but does not lead the stream
      // (decision 0067: a stream leader's crash loses what devices publish during the election).
      // Of the others, the one with the most devices: a device whose first connection failed has
      // moved to its next node, so a node may carry none (CI once picked such a node).
      const leader = await cluster.streamLeader('BEACON_UP');
      const devicesOn = (i: number) => devices.filter((d) => (d.link as MqttLink).url === cluster.mqttUrl(i));
      const victimIndex = cluster.nodes
        .map((n, i) => ({ i, leads: n.name === leader, carries: devicesOn(i).length }))
        .filter((n) => !n.leads)
        .sort((x, y) => y.carries - x.carries)[0].i;
      const victimUrl = cluster.mqttUrl(victimIndex);
      const onVictim = devicesOn(victimIndex);
      expect(
        onVictim.length,
        `devices per node (${leader} leads): ${cluster.nodes.map((n, i) => `${n.name} ${devicesOn(i).length}`).join(', ')}`,
      ).toBeGreaterThan(0);
      // PostgreSQL refuses both instances first (decision 0016's gap): each holds the messages it
      // took, unacknowledged; B dies holding its share, which must reach A once the database is back.
      const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
      await admin.connect();
      const dbName = new URL(a.config.databaseUrl!).pathname.slice(1);
      try {
        await admin.query(`alter database ${dbName} allow_connections false`);
        await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [
          dbName,
        ]);
        await waitFor(() => a.gateway.ingest.stats().retrying > 0, 'A holding messages for a retry');
        await new Promise((r) => setTimeout(r, 1500));
        // B must die holding some (the consumer's unacknowledged ones beyond A's): the redelivery
        // checked at the end is of those. Read in this order, the difference never overstates B's.
        await waitFor(
          async () => {
            const { unacked } = await cluster.consumerBacklog('BEACON_UP', 'beacon');
            return unacked - (a.gateway.link as NatsLink).held > 0;
          },
          'B holding messages',
          10_000,
        ).catch((err) => {
          throw new Error(`${(err as Error).message}; B's log:\n${bLog.slice(-10).join('\n')}`);
        });
        cluster.kill(victimIndex);
        b!.kill('SIGKILL');
        await new Promise((r) => setTimeout(r, 3000));
      } finally {
        await admin.query(`alter database ${dbName} allow_connections true`);
        await admin.end();
      }
      await new Promise((r) => setTimeout(r, 2000));
      sending = false;
      await events.done;

      // The killed node's devices are back, on another node (their only other choices).
      const killedAt = Date.now();
      await waitFor(() => devices.every((d) => d.connected), 'every device connected', 60_000).catch(
        (err) => {
          const away = devices.filter((d) => !d.connected).map((d) => `${d.sn} ${(d.link as MqttLink).url}`);
          const logs = cluster.nodes.flatMap((n) =>
            n.log
              .filter((l) => /ERR|WRN/.test(l))
              .slice(-15)
              .map((l) => `${n.name} ${l}`),
          );
          throw new Error(`${(err as Error).message}: ${away.join(', ')}\n${logs.join('\n')}`);
        },
      );
      console.log(`every device connected ${Date.now() - killedAt} ms after the kill`);
      for (const d of onVictim) expect((d.link as MqttLink).url).not.toBe(victimUrl);

      // The server sees every device online again (a hello B held comes back after ack_wait).
      await waitFor(
        async () => {
          for (const d of devices) if ((await deviceRow(a, d.sn))?.status !== 1) return false;
          return true;
        },
        'every device online for the server',
        30_000,
      );
      console.log(`every device online for the server ${Date.now() - killedAt} ms after the kill`);
      // Every acknowledged event is stored (what B held unacknowledged comes back after ack_wait).
      // A floor that says the load ran, not a rate: about 460 acknowledged in ~9 s on a quiet runner,
      // 364 with every integration file in one run beside it (the devices of the killed node publish
      // nothing until they are back on another).
      const total = events.acked.length;
      expect(total).toBeGreaterThan(FLEET * 10);
      const missing = await waitFor(
        async () => ((await unstoredEvents(a.database.db, events.acked)).length === 0 ? [] : null),
        'every acknowledged event stored',
        (ACK_WAIT_SECONDS + 15) * 1000,
      ).catch(() => unstoredEvents(a.database.db, events.acked));
      expect({ total, missing }).toEqual({ total, missing: [] });
      console.log(
        `${total} events acknowledged by the broker, all stored ${Date.now() - killedAt} ms after the kill`,
      );
      // Every device answers a command through the surviving instance (its consumer delivers again:
      // the events above came through it).
      const outcomes = await Promise.all(
        devices.map((d) =>
          a.gateway.commands.send(d.sn, 'locate', { seconds: 5 }, SYSTEM_ACTOR, { timeoutMs: 15_000 }),
        ),
      );
      const failed = outcomes.filter((o) => o.state !== 'success');
      // With how each one's link and row stand (once 5 devices of the surviving nodes were offline
      // here, cause not found: the row and the link's connection count say where to look next).
      const failures = [];
      for (const o of failed) {
        const link = devices.find((d) => d.sn === o.sn)!.link as MqttLink;
        const row = await deviceRow(a, o.sn);
        failures.push({
          sn: o.sn,
          state: o.state,
          code: o.code,
          onVictim: onVictim.some((d) => d.sn === o.sn),
          link: { url: link.url, connections: link.connections, connectedAt: link.connectedAt },
          row: { status: row?.status, connectedAt: row?.connectedAt?.getTime() },
        });
      }
      expect(failures).toEqual([]);

      // And nothing is left in the stream once the devices are off: what was written was acknowledged.
      await Promise.all(devices.map((d) => d.stop()));
      await waitFor(
        async () => {
          const backlog = await cluster.consumerBacklog('BEACON_UP', 'beacon');
          return backlog.pending === 0 && backlog.unacked === 0;
        },
        'the stream drained',
        15_000,
      );
      // B died holding messages it had taken: they were delivered again (to A), not lost.
      const { redelivered } = await cluster.consumerBacklog('BEACON_UP', 'beacon');
      console.log(`${redelivered} messages delivered again after B died`);
      expect(redelivered).toBeGreaterThan(0);
    },
  );
});
