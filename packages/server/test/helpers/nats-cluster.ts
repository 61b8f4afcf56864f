import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { deriveDeviceSecret, topicRoot } from '@beacon/protocol';
import { connect, type JetStreamManager } from 'nats';

/**
 * A NATS cluster on loopback for the broker-kind tests (docs/decisions/0067, docs/deployment.md):
 * N `nats-server` processes with cluster routes, JetStream (file store under `dir`) and an MQTT
 * listener each, and one user per device whose permissions keep it under its own `dev.{sn}.`.
 */

/** The nats-server binary (Debian's package installs /usr/sbin/nats-server), or null. */
export function natsServerBinary(): string | null {
  const candidates = [
    process.env.NATS_SERVER_BIN,
    '/usr/sbin/nats-server',
    '/usr/bin/nats-server',
    ...(process.env.PATH ?? '').split(':').map((d) => path.join(d, 'nats-server')),
  ];
  return candidates.find((c): c is string => Boolean(c && existsSync(c))) ?? null;
}

export interface NatsUser {
  user: string;
  password: string;
}

/** The server's user: the device stream and consumer (JetStream API), commands down, tunnel answers up. */
export function serverUserBlock(u: NatsUser): string {
  return `{ user: ${JSON.stringify(u.user)}, password: ${JSON.stringify(u.password)}, permissions: {
      publish: { allow: ["${topicRoot()}.*.down.>", "$JS.API.>", "$JS.ACK.BEACON_UP.>"] }
      subscribe: { allow: ["${topicRoot()}.*.up.http", "_INBOX.>"] } } }`;
}

/**
 * A device's user: it logs in over MQTT only, publishes only under `dev.{sn}.up.`, subscribes only
 * under `dev.{sn}.down.`. `$MQTT.sub.>` is where nats-server delivers its QoS 1 subscriptions
 * (an MQTT client cannot subscribe to a `$MQTT/…` topic itself, and the user cannot log in over
 * the NATS protocol).
 */
export function deviceUserBlock(sn: string, secret: string): string {
  return `{ user: ${JSON.stringify(sn)}, password: ${JSON.stringify(secret)}, allowed_connection_types: ["MQTT"], permissions: {
      publish: { allow: ["${topicRoot()}.${sn}.up.>"] }
      subscribe: { allow: ["${topicRoot()}.${sn}.down.>", "$MQTT.sub.>"] } } }`;
}

export interface NatsNodeConfig {
  name: string;
  clientPort: number;
  routePort: number;
  mqttPort: number;
  storeDir: string;
  /** Every node's route port (the node's own is ignored by nats-server). */
  routePorts: number[];
  users: string[];
}

/** One node's nats-server.conf: exactly what docs/deployment.md shows. */
export function natsNodeConfig(c: NatsNodeConfig): string {
  return `server_name: ${c.name}
listen: 127.0.0.1:${c.clientPort}
jetstream {
  store_dir: ${JSON.stringify(c.storeDir)}
  max_memory_store: 64MB
  max_file_store: 1GB
}
cluster {
  name: beacon
  listen: 127.0.0.1:${c.routePort}
  routes: [
${c.routePorts.map((p) => `    nats-route://127.0.0.1:${p}`).join('\n')}
  ]
}
mqtt {
  listen: 127.0.0.1:${c.mqttPort}
  # A device's QoS 1 message waits this long for its PUBACK before it is sent again.
  ack_wait: "30s"
}
authorization {
  users = [
    ${c.users.join('\n    ')}
  ]
}
`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface NatsNode extends NatsNodeConfig {
  process: ChildProcess | null;
  log: string[];
}

export class NatsCluster {
  private constructor(
    readonly nodes: NatsNode[],
    private readonly binary: string,
    readonly server: NatsUser,
  ) {}

  /** Starts `size` nodes and resolves when JetStream answers (its meta leader is elected). */
  static async start(o: {
    binary: string;
    dir: string;
    size: number;
    server: NatsUser;
    factoryKey: string;
    sns: string[];
  }): Promise<NatsCluster> {
    const users = [serverUserBlock(o.server)];
    for (const sn of o.sns) users.push(deviceUserBlock(sn, await deriveDeviceSecret(o.factoryKey, sn)));
    const ports: { client: number; route: number; mqtt: number }[] = [];
    for (let i = 0; i < o.size; i++)
      ports.push({ client: await freePort(), route: await freePort(), mqtt: await freePort() });
    const nodes: NatsNode[] = ports.map((p, i) => ({
      name: `n${i + 1}`,
      clientPort: p.client,
      routePort: p.route,
      mqttPort: p.mqtt,
      storeDir: path.join(o.dir, `n${i + 1}`),
      routePorts: ports.map((q) => q.route),
      users,
      process: null,
      log: [],
    }));
    const cluster = new NatsCluster(nodes, o.binary, o.server);
    for (const node of nodes) {
      await mkdir(node.storeDir, { recursive: true });
      await writeFile(path.join(o.dir, `${node.name}.conf`), natsNodeConfig(node));
    }
    for (let i = 0; i < nodes.length; i++) cluster.spawn(i, o.dir);
    await cluster.waitForJetStream();
    return cluster;
  }

  private spawn(i: number, dir: string): void {
    const node = this.nodes[i];
    const child = spawn(this.binary, ['-c', path.join(dir, `${node.name}.conf`)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (b: Buffer) => {
      node.log.push(...b.toString().split('\n').filter(Boolean));
      if (node.log.length > 400) node.log.splice(0, node.log.length - 400);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    node.process = child;
  }

  /** nats:// URLs of the nodes (for NATS_URL). */
  get natsUrls(): string[] {
    return this.nodes.map((n) => `nats://127.0.0.1:${n.clientPort}`);
  }

  mqttUrl(i: number): string {
    return `mqtt://127.0.0.1:${this.nodes[i].mqttPort}`;
  }

  private async waitForJetStream(timeoutMs = 30_000): Promise<void> {
    await this.withJetStream((jsm) => jsm.getAccountInfo(), timeoutMs).catch((err: Error) => {
      throw new Error(`the NATS cluster's JetStream did not come up: ${err.message}`);
    });
  }

  /**
   * Runs `op` with a JetStream manager on a fresh connection. JetStream's API may not answer for a
   * few seconds after a node dies (its meta group electing a leader): tried again until `timeoutMs`.
   */
  private async withJetStream<T>(op: (jsm: JetStreamManager) => Promise<T>, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const nc = await connect({
          servers: this.natsUrls,
          user: this.server.user,
          pass: this.server.password,
        });
        try {
          return await op(await nc.jetstreamManager());
        } finally {
          await nc.close();
        }
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  /** The node that leads a stream's replicas now (its server_name), or null. */
  async streamLeader(stream: string): Promise<string | null> {
    return this.withJetStream(async (jsm) => (await jsm.streams.info(stream)).cluster?.leader ?? null);
  }

  /** How many consumers a stream has (nats-server makes one on `$MQTT_msgs` per QoS 1 MQTT subscription). */
  async consumerCount(stream: string): Promise<number> {
    return this.withJetStream(async (jsm) => (await jsm.streams.info(stream)).state.consumer_count);
  }

  /** Messages of a consumer not delivered yet, delivered but not acknowledged, and delivered again. */
  async consumerBacklog(
    stream: string,
    consumer: string,
  ): Promise<{ pending: number; unacked: number; redelivered: number }> {
    return this.withJetStream(async (jsm) => {
      const info = await jsm.consumers.info(stream, consumer);
      // Deliveries beyond one per message (the consumer was made with the stream, so both sequences
      // count from its first message); num_redelivered forgets a message once it is acknowledged.
      const redelivered = info.delivered.consumer_seq - info.delivered.stream_seq;
      return { pending: info.num_pending, unacked: info.num_ack_pending, redelivered };
    });
  }

  /** A crash: SIGKILL, nothing flushed. */
  kill(i: number): void {
    this.nodes[i].process?.kill('SIGKILL');
    this.nodes[i].process = null;
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.nodes.map(
        (n) =>
          new Promise<void>((resolve) => {
            const p = n.process;
            n.process = null;
            if (!p || p.exitCode !== null) return resolve();
            p.once('exit', () => resolve());
            p.kill('SIGTERM');
            setTimeout(() => {
              p.kill('SIGKILL');
              resolve();
            }, 5000).unref();
          }),
      ),
    );
  }
}
