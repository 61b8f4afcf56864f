import {
  type DeviceTopics,
  DOWN_SUBSCRIBE_QOS,
  deviceTopics,
  lastWillPayload,
  type TunnelResponse,
  tunnelDownTopic,
  tunnelUpTopic,
  UP_PUBLISH_OPTIONS,
  type UpKind,
} from '@beacon/protocol';
import mqtt, { type MqttClient } from 'mqtt';
import type { Link } from './core.ts';

export interface MqttLinkOptions {
  /** Broker URL; several comma-separated (a broker cluster's nodes): the next one after each lost or failed connection. */
  url: string;
  sn: string;
  secret: string;
  /** Reconnect backoff: first delay and ceiling, ms (doubling, with jitter). */
  backoffMinMs: number;
  backoffMaxMs: number;
  keepalive: number;
  onConnected(): void;
  onDisconnected(): void;
  onMessage(payload: Buffer): void;
  /** A request of the remote-management tunnel (`dev/{sn}/down/http`). */
  onTunnel(payload: Buffer): void;
  log(message: string): void;
}

/**
 * The device's own MQTT connection: username = SN, password = per-device secret, a retained last will
 * on `dev/{sn}/up/state`, and reconnection with exponential backoff after a broker or network failure.
 * While away, replies and events wait in a small outbox; state is re-sent on connection anyway and
 * telemetry is dropped.
 */
export class MqttLink implements Link {
  private client: MqttClient | null = null;
  private readonly topics: DeviceTopics;
  private attempts = 0;
  private retry: NodeJS.Timeout | null = null;
  private suspended = false;
  private stopped = false;
  /** Test hook (pauseListening): commands arrive but are not handed to the device. */
  private deaf = false;
  private outbox: { kind: UpKind; payload: string }[] = [];
  connected = false;
  /** When the current (or last) connection was made: its will's ts, announced in the hello. */
  connectedAt = 0;
  /** Successful connections so far. */
  connections = 0;
  /** Which of the comma-separated URLs the next connection tries. */
  private urlIndex = 0;
  /** The broker URL of the current (or last) connection. */
  url = '';

  constructor(private readonly o: MqttLinkOptions) {
    this.topics = deviceTopics(o.sn);
  }

  start(): void {
    this.connect();
  }

  private connect(): void {
    if (this.stopped || this.suspended) return;
    this.connectedAt = Date.now();
    const urls = this.o.url.split(',');
    this.url = urls[this.urlIndex % urls.length].trim();
    const client = mqtt.connect(this.url, {
      clientId: this.o.sn,
      username: this.o.sn,
      password: this.o.secret,
      protocolVersion: 4,
      clean: true,
      keepalive: this.o.keepalive,
      reconnectPeriod: 0,
      connectTimeout: 15_000,
      will: {
        topic: this.topics.state,
        payload: Buffer.from(JSON.stringify(lastWillPayload(this.connectedAt))),
        qos: 1,
        retain: true,
      },
    });
    this.client = client;
    client.on('connect', () => {
      if (client !== this.client) return;
      client.subscribe([this.topics.cmd, tunnelDownTopic(this.o.sn)], { qos: DOWN_SUBSCRIBE_QOS }, (err) => {
        if (err || client !== this.client) {
          if (err) this.o.log(`subscribe failed: ${err.message}`);
          client.end(true);
          return;
        }
        this.attempts = 0;
        this.connected = true;
        this.connections++;
        const waiting = this.outbox;
        this.outbox = [];
        this.o.onConnected();
        for (const m of waiting) this.send(m.kind, m.payload);
      });
    });
    client.on('message', (topic, payload) => {
      if (client !== this.client || this.deaf) return;
      if (topic === this.topics.cmd) this.o.onMessage(payload);
      else this.o.onTunnel(payload);
    });
    client.on('error', (err) => this.o.log(`mqtt: ${err.message}`));
    client.on('close', () => {
      if (client !== this.client) return;
      const was = this.connected;
      this.connected = false;
      this.client = null;
      client.removeAllListeners('message');
      client.end(true);
      if (was) this.o.onDisconnected();
      this.urlIndex++;
      this.scheduleReconnect();
    });
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.suspended || this.retry) return;
    const base = Math.min(this.o.backoffMaxMs, this.o.backoffMinMs * 2 ** this.attempts);
    const delay = Math.round(base * (0.5 + Math.random() * 0.5));
    this.attempts = Math.min(this.attempts + 1, 20);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.connect();
    }, delay);
  }

  private send(kind: UpKind, payload: string): void {
    const { qos, retain } = UP_PUBLISH_OPTIONS[kind];
    this.client?.publish(this.topics[kind], payload, { qos, retain });
  }

  /** Tunnel answers are live: sent when connected, else dropped (the browser's request times out). */
  publishTunnel(payload: TunnelResponse): void {
    if (this.connected && this.client)
      this.client.publish(tunnelUpTopic(this.o.sn), JSON.stringify(payload), { qos: 0, retain: false });
  }

  publish(kind: UpKind, payload: object): void {
    const text = JSON.stringify(payload);
    if (this.connected && this.client) {
      this.send(kind, text);
      return;
    }
    if (kind === 'reply' || kind === 'event') {
      this.outbox.push({ kind, payload: text });
      if (this.outbox.length > 100) this.outbox.shift();
    }
  }

  private async close(force: boolean): Promise<void> {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.client = null;
    const was = this.connected;
    this.connected = false;
    if (client) {
      client.removeAllListeners('close');
      // Not connected (the broker is gone): nothing to flush, and a clean end would wait for it.
      await client.endAsync(force || !was);
    }
    if (was) this.o.onDisconnected();
  }

  async suspend(): Promise<void> {
    this.suspended = true;
    await this.close(false);
  }

  resume(): void {
    this.suspended = false;
    this.attempts = 0;
    this.connect();
  }

  /** Leaves cleanly (DISCONNECT: the broker drops the will). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.close(false);
  }

  /** Drops the connection without DISCONNECT, as a power cut would: the broker publishes the will. */
  async kill(): Promise<void> {
    this.stopped = true;
    await this.close(true);
  }

  /**
   * Test hook: publishes `payload` as it is on `topic` over the device's own connection (the
   * broker's ACL still applies), e.g. a message that breaks the protocol schemas. Rejects when the
   * link is not connected or the broker refuses it.
   */
  publishRaw(topic: string, payload: string | Buffer, qos: 0 | 1 = 1): Promise<void> {
    const client = this.client;
    if (!client || !this.connected) return Promise.reject(new Error(`${this.o.sn}: not connected`));
    return client.publishAsync(topic, payload, { qos }).then(() => undefined);
  }

  /** Test hook: commands are no longer handed to the device (it stays connected, "online", silent). */
  pauseListening(): void {
    this.deaf = true;
  }

  resumeListening(): void {
    this.deaf = false;
  }

  /** Drops the TCP connection as a network failure would; the link reconnects with backoff. */
  drop(): void {
    (this.client as unknown as { stream?: { destroy(): void } } | null)?.stream?.destroy();
  }
}
