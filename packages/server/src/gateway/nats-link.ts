import { randomBytes } from 'node:crypto';
import { TUNNEL_KIND, topicRoot, UP_KINDS } from '@beacon/protocol';
import type { FastifyBaseLogger } from 'fastify';
import {
  AckPolicy,
  type ConsumerMessages,
  connect,
  DeliverPolicy,
  DiscardPolicy,
  Events,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
  nanos,
  RetentionPolicy,
  StorageType,
  type StreamConfig,
} from 'nats';
import { settlesWithin } from '../settles-within.ts';
import type { DeviceLinkClient, DeviceMessageHandler } from './link.ts';

/**
 * The device link over a NATS cluster (docs/decisions/0067). Devices speak plain MQTT to any node's
 * MQTT listener; NATS maps the MQTT topic `dev/{sn}/up/event` to the subject `dev.{sn}.up.event`
 * (`/` becomes `.`). Every device message the server ingests lands in one JetStream stream
 * (work-queue retention, file storage, replicated), which every server instance reads through one
 * durable pull consumer: a message goes to one instance, and is acknowledged only when that
 * instance has written it (Ingest's `done`), so an instance that dies, or a database that is away,
 * loses nothing — the message is delivered again after `ackWaitMs`.
 *
 * The tunnel's answers (`dev.*.up.http`) are live and go to every instance (a plain subscription);
 * commands and tunnel requests are plain publishes on `dev.{sn}.down.cmd` / `…down.http`.
 */

/** The subjects of the stream: every up kind the ingest takes (not the tunnel's answers). */
export const natsUpSubjects = (): string[] => UP_KINDS.map((kind) => `${topicRoot()}.*.up.${kind}`);
export const natsTunnelSubject = (): string => `${topicRoot()}.*.up.${TUNNEL_KIND}`;

/** The MQTT topic of a subject of ours (SNs and kinds have no `.` or `/`, so the mapping is plain). */
export const mqttTopicOf = (subject: string): string => subject.replaceAll('.', '/');
export const natsSubjectOf = (topic: string): string => topic.replaceAll('/', '.');

export interface NatsLinkOptions {
  servers: string[];
  user?: string;
  pass?: string;
  /** JetStream stream and durable consumer names (shared by every instance). */
  stream: string;
  consumer: string;
  /** Replicas of the stream; default 3 when the server is part of a cluster, else 1. */
  replicas?: number;
  ackWaitMs: number;
  onMessage: DeviceMessageHandler;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'debug'>;
}

/** The longest each step of close() may wait (the consumer's end, the connection's drain). */
const CLOSE_STEP_MS = 5000;

/** Unacknowledged messages an instance may hold; past it NATS keeps the rest in the stream. */
const MAX_ACK_PENDING = 20_000;

export class NatsLink implements DeviceLinkClient {
  connected = false;
  private nc: NatsConnection | null = null;
  private messages: ConsumerMessages | null = null;
  private stopped = false;
  /** Messages handed to the ingest and not yet acknowledged (kept alive with `working`). */
  private readonly pending = new Set<JsMsg>();
  private keepAlive: NodeJS.Timeout | null = null;
  private consuming: Promise<void> | null = null;

  constructor(private readonly o: NatsLinkOptions) {}

  /** How many messages this instance has taken and not yet acknowledged. */
  get held(): number {
    return this.pending.size;
  }

  async start(timeoutMs = 15_000): Promise<void> {
    const nc = await connect({
      servers: this.o.servers,
      user: this.o.user,
      pass: this.o.pass,
      name: `beacon-server-${randomBytes(6).toString('hex')}`,
      timeout: timeoutMs,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 1000,
      pingInterval: 10_000,
    });
    this.nc = nc;
    this.connected = true;
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === Events.Disconnect) {
          this.connected = false;
          this.o.log.warn({ server: s.data }, 'nats: server link lost; reconnecting');
        } else if (s.type === Events.Reconnect) {
          this.connected = true;
          this.o.log.info({ server: s.data }, 'nats: server link back');
        }
      }
    })().catch(() => undefined);
    const jsm = await nc.jetstreamManager();
    await this.ensureStream(jsm, nc);
    await this.ensureConsumer(jsm);
    nc.subscribe(natsTunnelSubject(), {
      callback: (err, m) => {
        if (!err) this.o.onMessage(mqttTopicOf(m.subject), Buffer.from(m.data));
      },
    });
    // A message waiting for a database that is away stays this instance's while it waits.
    this.keepAlive = setInterval(
      () => {
        for (const m of this.pending) m.working();
      },
      Math.max(500, Math.floor(this.o.ackWaitMs / 3)),
    );
    this.keepAlive.unref();
    this.consuming = this.consume(nc);
  }

  private async ensureStream(jsm: JetStreamManager, nc: NatsConnection): Promise<void> {
    const replicas = this.o.replicas ?? (nc.info?.cluster ? 3 : 1);
    const config: Partial<StreamConfig> & { name: string } = {
      name: this.o.stream,
      subjects: natsUpSubjects(),
      retention: RetentionPolicy.Workqueue,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      num_replicas: replicas,
    };
    try {
      await jsm.streams.add(config);
    } catch (err) {
      // Another instance made it, or it exists from a run with other settings: bring it to these.
      const info = await jsm.streams.info(this.o.stream).catch(() => {
        throw err;
      });
      const same =
        info.config.num_replicas === replicas &&
        info.config.subjects.length === config.subjects!.length &&
        config.subjects!.every((s) => info.config.subjects.includes(s));
      if (!same) await jsm.streams.update(this.o.stream, { ...info.config, ...config });
    }
    this.o.log.debug({ stream: this.o.stream, replicas }, 'nats: device stream ready');
  }

  private async ensureConsumer(jsm: JetStreamManager): Promise<void> {
    const config = {
      durable_name: this.o.consumer,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(this.o.ackWaitMs),
      max_deliver: -1,
      max_ack_pending: MAX_ACK_PENDING,
    };
    // Look first: on a work-queue stream, creating the durable again is refused as a second consumer.
    let info = await jsm.consumers.info(this.o.stream, this.o.consumer).catch(() => null);
    if (!info) {
      try {
        await jsm.consumers.add(this.o.stream, config);
        return;
      } catch (err) {
        // Another instance made it meanwhile.
        info = await jsm.consumers.info(this.o.stream, this.o.consumer).catch(() => {
          throw err;
        });
      }
    }
    if (info.config.ack_wait !== config.ack_wait || info.config.max_ack_pending !== MAX_ACK_PENDING) {
      await jsm.consumers.update(this.o.stream, this.o.consumer, {
        ack_wait: config.ack_wait,
        max_ack_pending: MAX_ACK_PENDING,
      });
    }
  }

  /** Pulls until stop(); a failure (a node gone, the consumer's leader moving) pulls again a second later. */
  private async consume(nc: NatsConnection): Promise<void> {
    const js = nc.jetstream();
    while (!this.stopped) {
      try {
        const consumer = await js.consumers.get(this.o.stream, this.o.consumer);
        // A pull lives 2 s, with a heartbeat every second: when the node that holds the consumer's
        // leader dies, the pull dies with it, and two missed heartbeats (2 s, not 5 s with the
        // default 5 s pull) have the client pull again from the new leader.
        const messages = await consumer.consume({ max_messages: 1000, expires: 2000 });
        this.messages = messages;
        if (this.stopped) messages.stop();
        for await (const m of messages) this.receive(m);
      } catch (err) {
        if (!this.stopped)
          this.o.log.warn({ err: (err as Error).message }, 'nats: consumer failed; retrying');
      }
      this.messages = null;
      if (!this.stopped) await new Promise((r) => setTimeout(r, 1000));
    }
  }

  private receive(m: JsMsg): void {
    this.pending.add(m);
    this.o.onMessage(mqttTopicOf(m.subject), Buffer.from(m.data), (outcome) => {
      if (!this.pending.delete(m)) return;
      // Written or refused for good: acknowledged. Not written: offered again (to any instance).
      if (outcome === 'later') m.nak(2000);
      else m.ack();
    });
  }

  publish(topic: string, payload: string): Promise<void> {
    const nc = this.nc;
    if (!nc || nc.isClosed()) return Promise.reject(new Error('the NATS link is closed'));
    try {
      nc.publish(natsSubjectOf(topic), payload);
      return Promise.resolve();
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** No more messages are taken; the ones taken can still be acknowledged until close(). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.messages?.stop();
    // Bounded (a shutdown must end): a pull that does not end in time is left to close().
    if (this.consuming && !(await settlesWithin(this.consuming, CLOSE_STEP_MS)))
      this.o.log.warn(`nats: the consumer did not stop within ${CLOSE_STEP_MS} ms; closing anyway`);
  }

  async close(): Promise<void> {
    await this.stop();
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = null;
    const nc = this.nc;
    this.nc = null;
    this.connected = false;
    // What is still unacknowledged (not written) is offered to another instance at once.
    for (const m of this.pending) m.nak();
    this.pending.clear();
    if (nc && !nc.isClosed()) {
      // drain() flushes: with no node reachable (the client reconnecting for ever) it would not end.
      const drained = nc.drain().catch(() => undefined);
      if (!(await settlesWithin(drained, CLOSE_STEP_MS))) {
        this.o.log.warn(`nats: the connection did not drain within ${CLOSE_STEP_MS} ms; closed`);
        await settlesWithin(nc.close(), CLOSE_STEP_MS);
      }
    }
  }
}
