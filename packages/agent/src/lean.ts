import net from 'node:net';
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
import type { MqttLinkOptions } from './link.ts';

/**
 * A lean device link (issue 16; docs/decisions/0063-lean-simulator-link.md): the same MQTT 3.1.1
 * session as MqttLink — client id and username = SN, password = the device secret, clean session, a
 * retained QoS 1 last will on `dev/{sn}/up/state`, a QoS 1 subscription to its command topic,
 * reconnection with doubling backoff and jitter — written as raw packets over one socket, so that one
 * process holds 100,000 devices: no stream pipeline, store or timers per connection. Keepalive pings
 * come from one shared timer for all lean links. Outgoing QoS 1 publishes are sent once (a clean
 * session forgets them on a drop, as MqttLink's does); incoming QoS 1 publishes are acknowledged.
 */

/** MQTT 3.1.1 control packet types (the high nibble of the first byte). */
const Packet = {
  CONNECT: 1,
  CONNACK: 2,
  PUBLISH: 3,
  PUBACK: 4,
  SUBSCRIBE: 8,
  SUBACK: 9,
  PINGREQ: 12,
  DISCONNECT: 14,
} as const;

export interface LeanLinkOptions extends MqttLinkOptions {
  /**
   * Local address to connect from. Loopback has one source address per 28,000 ephemeral ports, so a
   * fleet of 100,000 on one machine spreads its devices over 127.0.0.x (fleet.ts does).
   */
  localAddress?: string;
}

const str = (s: string | Buffer): Buffer => {
  const b = typeof s === 'string' ? Buffer.from(s) : s;
  const out = Buffer.allocUnsafe(2 + b.length);
  out.writeUInt16BE(b.length, 0);
  b.copy(out, 2);
  return out;
};

function remainingLength(n: number): Buffer {
  const bytes: number[] = [];
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    bytes.push(byte);
  } while (n > 0);
  return Buffer.from(bytes);
}

const packet = (first: number, ...parts: Buffer[]): Buffer => {
  const body = Buffer.concat(parts);
  return Buffer.concat([Buffer.from([first]), remainingLength(body.length), body]);
};

const PINGREQ = Buffer.from([Packet.PINGREQ << 4, 0]);
const DISCONNECT = Buffer.from([Packet.DISCONNECT << 4, 0]);

export function connectPacket(o: {
  clientId: string;
  username: string;
  password: string;
  keepalive: number;
  will: { topic: string; payload: Buffer; qos: 0 | 1; retain: boolean };
}): Buffer {
  const flags = 0x80 | 0x40 | (o.will.retain ? 0x20 : 0) | (o.will.qos << 3) | 0x04 | 0x02;
  const header = Buffer.concat([str('MQTT'), Buffer.from([4, flags, o.keepalive >> 8, o.keepalive & 0xff])]);
  return packet(
    Packet.CONNECT << 4,
    header,
    str(o.clientId),
    str(o.will.topic),
    str(o.will.payload),
    str(o.username),
    str(o.password),
  );
}

export function publishPacket(
  topic: string,
  payload: Buffer,
  qos: 0 | 1,
  retain: boolean,
  id: number,
): Buffer {
  const first = (Packet.PUBLISH << 4) | (qos << 1) | (retain ? 1 : 0);
  return qos
    ? packet(first, str(topic), Buffer.from([id >> 8, id & 0xff]), payload)
    : packet(first, str(topic), payload);
}

/** Every lean link of the process, for the shared keepalive timer. */
const links = new Set<LeanMqttLink>();
let ticker: NodeJS.Timeout | null = null;
function track(link: LeanMqttLink, on: boolean): void {
  if (on) links.add(link);
  else links.delete(link);
  if (links.size && !ticker) {
    ticker = setInterval(() => {
      const now = Date.now();
      for (const l of links) l.tick(now);
    }, 1000);
    ticker.unref();
  } else if (!links.size && ticker) {
    clearInterval(ticker);
    ticker = null;
  }
}

export class LeanMqttLink {
  private socket: net.Socket | null = null;
  private readonly topics: DeviceTopics;

  private attempts = 0;
  private retry: NodeJS.Timeout | null = null;
  private suspended = false;
  private stopped = false;
  private deaf = false;
  private buffer: Buffer | null = null;
  private nextId = 1;
  private lastSent = 0;
  private lastHeard = 0;
  private lastPing = 0;
  private outbox: { kind: UpKind; payload: string }[] | null = null;
  connected = false;
  /** When the current (or last) connection was made: its will's ts, announced in the hello. */
  connectedAt = 0;
  connections = 0;

  constructor(private readonly o: LeanLinkOptions) {
    this.topics = deviceTopics(o.sn);
  }

  /** CONNECT of this connection: the will carries the time it was made (as MqttLink's does). */
  private connectPacket(): Buffer {
    this.connectedAt = Date.now();
    return connectPacket({
      clientId: this.o.sn,
      username: this.o.sn,
      password: this.o.secret,
      keepalive: this.o.keepalive,
      will: {
        topic: this.topics.state,
        payload: Buffer.from(JSON.stringify(lastWillPayload(this.connectedAt))),
        qos: 1,
        retain: true,
      },
    });
  }

  start(): void {
    this.open();
  }

  private open(): void {
    if (this.stopped || this.suspended) return;
    const url = new URL(this.o.url);
    const socket = net.connect({
      host: url.hostname,
      port: Number(url.port || 1883),
      localAddress: this.o.localAddress,
    });
    socket.setNoDelay(true);
    this.socket = socket;
    this.buffer = null;
    let opened = false;
    const timeout = setTimeout(() => socket.destroy(), 15_000);
    socket.on('connect', () => {
      this.write(this.connectPacket());
    });
    socket.on('data', (chunk: Buffer) => {
      if (socket !== this.socket) return;
      this.lastHeard = Date.now();
      this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
      this.parse(() => {
        if (!opened) {
          opened = true;
          clearTimeout(timeout);
        }
      });
    });
    socket.on('error', (err) => this.o.log(`mqtt: ${err.message}`));
    socket.on('close', () => {
      clearTimeout(timeout);
      if (socket !== this.socket) return;
      this.socket = null;
      this.buffer = null;
      track(this, false);
      const was = this.connected;
      this.connected = false;
      if (was) this.o.onDisconnected();
      this.scheduleReconnect();
    });
  }

  private write(data: Buffer): void {
    this.lastSent = Date.now();
    this.socket?.write(data);
  }

  private parse(onConnack: () => void): void {
    while (this.buffer && this.buffer.length >= 2) {
      const b = this.buffer;
      let len = 0;
      let mult = 1;
      let i = 1;
      for (;;) {
        if (i >= b.length) return;
        const byte = b[i++];
        len += (byte & 0x7f) * mult;
        mult *= 128;
        if (!(byte & 0x80)) break;
        if (i > 4) {
          this.socket?.destroy();
          return;
        }
      }
      if (b.length < i + len) return;
      const type = b[0] >> 4;
      const body = b.subarray(i, i + len);
      this.buffer = b.length === i + len ? null : b.subarray(i + len);
      this.handle(type, b[0] & 0x0f, body, onConnack);
    }
  }

  private handle(type: number, flags: number, body: Buffer, onConnack: () => void): void {
    switch (type) {
      case Packet.CONNACK: {
        if (body[1] !== 0) {
          this.o.log(`connection refused: ${body[1]}`);
          this.socket?.destroy();
          return;
        }
        onConnack();
        const id = this.id();
        this.write(
          packet(
            (Packet.SUBSCRIBE << 4) | 2,
            Buffer.from([id >> 8, id & 0xff]),
            str(this.topics.cmd),
            Buffer.from([DOWN_SUBSCRIBE_QOS]),
            str(tunnelDownTopic(this.o.sn)),
            Buffer.from([DOWN_SUBSCRIBE_QOS]),
          ),
        );
        return;
      }
      case Packet.SUBACK: {
        // One return code per topic filter (the commands, the tunnel) after the packet id.
        if (body.subarray(2).includes(0x80)) {
          this.o.log('subscribe failed');
          this.socket?.destroy();
          return;
        }
        this.attempts = 0;
        this.connected = true;
        this.connections++;
        track(this, true);
        const waiting = this.outbox ?? [];
        this.outbox = null;
        this.o.onConnected();
        for (const m of waiting) this.send(m.kind, m.payload);
        return;
      }
      case Packet.PUBLISH: {
        const qos = (flags >> 1) & 3;
        const topicLength = body.readUInt16BE(0);
        const topic = body.toString('utf8', 2, 2 + topicLength);
        let at = 2 + topicLength;
        if (qos > 0) {
          const id = body.readUInt16BE(at);
          at += 2;
          this.write(Buffer.from([Packet.PUBACK << 4, 2, id >> 8, id & 0xff]));
        }
        if (this.deaf) return;
        if (topic === this.topics.cmd) this.o.onMessage(Buffer.from(body.subarray(at)));
        else this.o.onTunnel(Buffer.from(body.subarray(at)));
        return;
      }
      default:
        // PUBACK, PINGRESP: nothing to do (heard: lastHeard moved).
        return;
    }
  }

  private id(): number {
    const id = this.nextId;
    this.nextId = id >= 0xffff ? 1 : id + 1;
    return id;
  }

  /**
   * Shared timer: a ping when nothing was sent or heard for half the keepalive (QoS 0 telemetry
   * brings no answer, so the ping is how a silent broker is told from a dead one); a broker not
   * heard for twice the keepalive is dropped and the link reconnects.
   */
  tick(now: number): void {
    if (!this.connected || !this.socket) return;
    const keepMs = this.o.keepalive * 1000;
    if (now - this.lastHeard > keepMs * 2) {
      this.socket.destroy();
      return;
    }
    const quiet = now - Math.min(this.lastSent, this.lastHeard) >= keepMs / 2;
    if (quiet && now - this.lastPing >= keepMs / 2) {
      this.lastPing = now;
      this.write(PINGREQ);
    }
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.suspended || this.retry) return;
    const base = Math.min(this.o.backoffMaxMs, this.o.backoffMinMs * 2 ** this.attempts);
    const delay = Math.round(base * (0.5 + Math.random() * 0.5));
    this.attempts = Math.min(this.attempts + 1, 20);
    this.retry = setTimeout(() => {
      this.retry = null;
      this.open();
    }, delay);
  }

  private send(kind: UpKind, payload: string): void {
    const { qos, retain } = UP_PUBLISH_OPTIONS[kind];
    this.write(
      publishPacket(this.topics[kind], Buffer.from(payload), qos as 0 | 1, retain, qos ? this.id() : 0),
    );
  }

  /** Tunnel answers are live (as MqttLink's): sent when connected, else dropped. */
  publishTunnel(payload: TunnelResponse): void {
    if (this.connected)
      this.write(publishPacket(tunnelUpTopic(this.o.sn), Buffer.from(JSON.stringify(payload)), 0, false, 0));
  }

  publish(kind: UpKind, payload: object): void {
    const text = JSON.stringify(payload);
    if (this.connected && this.socket) {
      this.send(kind, text);
      return;
    }
    if (kind === 'reply' || kind === 'event') {
      this.outbox ??= [];
      this.outbox.push({ kind, payload: text });
      if (this.outbox.length > 100) this.outbox.shift();
    }
  }

  private async close(force: boolean): Promise<void> {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const socket = this.socket;
    this.socket = null;
    track(this, false);
    const was = this.connected;
    this.connected = false;
    if (socket) {
      if (!force && socket.writable) {
        // DISCONNECT, then wait (bounded) for the broker to close: it drops the will.
        await new Promise<void>((resolve) => {
          const done = setTimeout(resolve, 1000);
          socket.once('close', () => {
            clearTimeout(done);
            resolve();
          });
          socket.end(DISCONNECT);
        });
      }
      socket.destroy();
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
    this.open();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.close(false);
  }

  async kill(): Promise<void> {
    this.stopped = true;
    await this.close(true);
  }

  /** Test hook (as MqttLink.publishRaw): a raw message on any topic; QoS 1 resolves when written. */
  publishRaw(topic: string, payload: string | Buffer, qos: 0 | 1 = 1): Promise<void> {
    const socket = this.socket;
    if (!socket || !this.connected) return Promise.reject(new Error(`${this.o.sn}: not connected`));
    const data = publishPacket(topic, Buffer.from(payload), qos, false, qos ? this.id() : 0);
    this.lastSent = Date.now();
    return new Promise((resolve, reject) => socket.write(data, (err) => (err ? reject(err) : resolve())));
  }

  pauseListening(): void {
    this.deaf = true;
  }

  resumeListening(): void {
    this.deaf = false;
  }

  drop(): void {
    this.socket?.destroy();
  }
}

/**
 * Clears the retained state the devices `sns` left on a broker (an empty retained message deletes
 * it): benchmarks on a shared broker leave nothing behind. Anonymous or `username`/`password`.
 */
export function clearRetained(
  url: string,
  sns: string[],
  auth?: { username: string; password: string },
): Promise<void> {
  return new Promise<void>((resolve) => {
    const u = new URL(url);
    const socket = net.connect(Number(u.port || 1883), u.hostname, () => {
      const flags = (auth ? 0xc0 : 0) | 0x02;
      socket.write(
        packet(
          Packet.CONNECT << 4,
          str('MQTT'),
          Buffer.from([4, flags, 0, 60]),
          str(`beacon-clear-${process.pid}-${Date.now()}`),
          ...(auth ? [str(auth.username), str(auth.password)] : []),
        ),
      );
      for (const sn of sns) socket.write(publishPacket(deviceTopics(sn).state, Buffer.alloc(0), 0, true, 0));
      socket.end(DISCONNECT);
    });
    // Read (and drop) what the broker sends: a paused socket never sees the broker close it.
    socket.resume();
    socket.on('close', () => resolve());
    socket.on('error', () => resolve());
  });
}
