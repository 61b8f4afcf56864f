import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import type { MessageDone } from './ingest.ts';

/** A device message as the server receives it: its MQTT topic, and `done` when the broker waits for the outcome. */
export type DeviceMessageHandler = (topic: string, payload: Buffer, done?: MessageDone) => void;

/**
 * The server's side of the device link, whatever the broker (docs/decisions/0067): an MQTT client
 * (embedded Aedes, Mosquitto, EMQX…: ServerLink) or NATS JetStream (nats-link.ts). The rest of the
 * server speaks MQTT topics to it and never knows which.
 */
export interface DeviceLinkClient {
  readonly connected: boolean;
  /** Connects and subscribes; rejects when the broker cannot be reached in `timeoutMs`. */
  start(timeoutMs?: number): Promise<void>;
  publish(topic: string, payload: string, qos?: 0 | 1): Promise<void>;
  /** No more device messages; what was taken can still be acknowledged until close(). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export interface ServerLinkOptions {
  url: string;
  username?: string;
  password?: string;
  /**
   * What to subscribe to after every (re)connection, e.g. dev/+/up/# or $share/beacon/dev/+/up/#,
   * and dev/+/up/http (the tunnel's answers, to every instance).
   */
  filter: string | string[];
  /**
   * Set: a persistent session under client id `beacon-server-{sessionName}` (clean session off), so
   * the broker queues the QoS 1 messages that arrive while this instance is away and hands them over
   * when it connects again (docs/decisions/0074). Unset: a clean session with a random id.
   */
  sessionName?: string;
  onMessage: DeviceMessageHandler;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'debug'>;
}

/**
 * The server's own MQTT client: reconnects every second after a broker failure and subscribes
 * again after each connection. Publishing while the broker is away queues in mqtt.js and is sent on
 * reconnection; the command's own timeout still bounds it.
 */
export class ServerLink implements DeviceLinkClient {
  private client: MqttClient | null = null;
  connected = false;

  constructor(private readonly o: ServerLinkOptions) {}

  /** Connects; resolves on the first successful subscription (rejects after `timeoutMs`). */
  start(timeoutMs = 15_000): Promise<void> {
    const client = mqtt.connect(this.o.url, {
      clientId: `beacon-server-${this.o.sessionName ?? randomBytes(6).toString('hex')}`,
      username: this.o.username,
      password: this.o.password,
      protocolVersion: 4,
      clean: this.o.sessionName === undefined,
      keepalive: 30,
      reconnectPeriod: 1000,
      connectTimeout: 10_000,
      resubscribe: false,
    });
    this.client = client;
    client.on('message', (topic, payload) => this.o.onMessage(topic, payload));
    client.on('close', () => {
      if (this.connected) this.o.log.warn('mqtt: server link lost; reconnecting');
      this.connected = false;
    });
    client.on('error', (err) => this.o.log.warn({ err: err.message }, 'mqtt: server link error'));
    return new Promise((resolve, reject) => {
      let first = true;
      const timer = setTimeout(() => {
        if (first) reject(new Error(`could not connect to the MQTT broker at ${this.o.url}`));
      }, timeoutMs);
      client.on('connect', () => {
        const filters = typeof this.o.filter === 'string' ? [this.o.filter] : this.o.filter;
        client.subscribe(filters, { qos: 1 }, (err, granted) => {
          if (err || granted?.some((g) => g.qos === 128)) {
            this.o.log.warn({ err: err?.message, filter: this.o.filter }, 'mqtt: subscription refused');
            return;
          }
          this.connected = true;
          this.o.log.debug({ filter: this.o.filter }, 'mqtt: server link subscribed');
          if (first) {
            first = false;
            clearTimeout(timer);
            resolve();
          }
        });
      });
    });
  }

  publish(topic: string, payload: string, qos: 0 | 1 = 1): Promise<void> {
    const client = this.client;
    if (!client) return Promise.reject(new Error('the MQTT link is closed'));
    return new Promise((resolve, reject) =>
      client.publish(topic, payload, { qos, retain: false }, (err) => (err ? reject(err) : resolve())),
    );
  }

  /** MQTT acknowledges on receipt (decision 0016): nothing waits, so stopping is leaving. */
  stop(): Promise<void> {
    return this.close();
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.connected = false;
    if (client) await client.endAsync(true);
  }
}
