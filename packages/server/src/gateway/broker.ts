import { createHmac, timingSafeEqual } from 'node:crypto';
import net from 'node:net';
import { Readable } from 'node:stream';
import { DEVICE_LIMITS, isDeviceTopicAllowed, validateSn } from '@beacon/protocol';
import { Aedes, type AedesOptions, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The embedded MQTT broker (Aedes), used when no MQTT_URL is set (DESIGN.md invariant 5):
 * - a device logs in with username = its SN, password = its per-device secret
 *   (HMAC of the factory key, protocol device/secret.ts) and client id = its SN;
 * - it may publish only under its own `dev/{sn}/up/…` and subscribe only to its own
 *   `dev/{sn}/down/…` (wildcards refused);
 * - the server's own client (serverUsername / serverPassword) may do everything.
 * Aedes ignores `$share`, so the server subscribes without it here (one instance per embedded broker).
 */

export interface EmbeddedBrokerOptions {
  port: number;
  /** Address to listen on (MQTT_HOST, else HOST); default 0.0.0.0. */
  host?: string;
  /** Largest MQTT packet accepted; a larger one closes its connection (default DEVICE_LIMITS). */
  maxPacketBytes?: number;
  serverUsername: string;
  serverPassword: string;
  factoryKey: string;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'debug'>;
}

const SERVER = Symbol('beacon-server-client');
type Tagged = Client & { [SERVER]?: boolean };

function authError(code: 3 | 4 | 5, message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: code }) as AuthenticateError;
}

type HookLog = Pick<FastifyBaseLogger, 'warn'>;
type Hook<K extends 'authenticate' | 'authorizePublish' | 'authorizeSubscribe'> = NonNullable<
  AedesOptions[K]
>;
type LastParameter<F> = F extends (...args: [...infer _, infer Last]) => void ? Last : never;

/**
 * Wraps one of our Aedes hooks (authenticate, authorizePublish, authorizeSubscribe). Aedes calls
 * them from a socket's event handler, so an exception thrown in one would be uncaught (and an
 * uncaught exception stops the server, lifecycle.ts): here it is logged and `fail` answers the
 * request instead, so Aedes refuses that one packet or connection as usual. An exception thrown
 * after the hook has answered comes from Aedes itself (its callback runs Aedes' next steps in the
 * same stack): that one is not ours to swallow and is rethrown.
 */
// biome-ignore lint/suspicious/noExplicitAny: any hook whose last parameter is its callback
export function guarded<H extends (...args: any[]) => void>(
  log: HookLog,
  what: string,
  hook: H,
  fail: (done: LastParameter<H>, err: Error) => void,
): H {
  return ((...args: unknown[]) => {
    const done = args[args.length - 1] as (...result: unknown[]) => void;
    let answered = false;
    args[args.length - 1] = (...result: unknown[]) => {
      answered = true;
      done(...result);
    };
    try {
      hook(...args);
    } catch (thrown) {
      if (answered) throw thrown;
      const err = thrown instanceof Error ? thrown : new Error(String(thrown));
      log.warn({ err: err.message, stack: err.stack }, `mqtt: ${what} failed`);
      fail(done as LastParameter<H>, err);
    }
  }) as H;
}

/**
 * The device's secret, as `deriveDeviceSecret` of the protocol package computes it
 * (HMAC-SHA256(factoryKey, sn), first 16 bytes in hex; broker.test.ts checks they agree). That one
 * uses Web Crypto (it also runs in browsers) and imports the key again for every call, which
 * costs more than the HMAC itself; node:crypto does the same in one synchronous call.
 */
export function deviceSecret(factoryKey: string, sn: string): string {
  return createHmac('sha256', factoryKey).update(sn).digest().subarray(0, 16).toString('hex');
}

function sameSecret(given: Buffer | undefined, expected: string): boolean {
  if (!given) return false;
  const want = Buffer.from(expected);
  return given.length === want.length && timingSafeEqual(given, want);
}

/**
 * Aedes' memory persistence answers a subscription's retained messages by testing the filter
 * against every retained topic. Every device retains its state, and every device subscribes to its
 * own command topic on each connection: O(devices) per connection, O(devices²) for a fleet coming
 * online (the largest cost of 10,000 devices connecting). A filter without wildcards matches one
 * topic only, so with an index of the retained topics the usual answer ("none") is immediate;
 * wildcard filters (the server's dev/+/up/#) still get the full scan.
 */
function indexRetained(aedes: Aedes): void {
  type Persistence = {
    storeRetained(packet: { topic: string; payload: Buffer }, ...rest: unknown[]): unknown;
    createRetainedStreamCombi(patterns: string[]): Readable;
  };
  const persistence = (aedes as unknown as { persistence: Persistence }).persistence;
  const topics = new Set<string>();
  const store = persistence.storeRetained.bind(persistence);
  const scan = persistence.createRetainedStreamCombi.bind(persistence);
  persistence.storeRetained = (packet, ...rest) => {
    if (packet.payload.length === 0) topics.delete(packet.topic);
    else topics.add(packet.topic);
    return store(packet, ...rest);
  };
  persistence.createRetainedStreamCombi = (patterns) => {
    const exact = patterns.every((p) => !p.includes('+') && !p.includes('#'));
    if (exact && !patterns.some((p) => topics.has(p))) return Readable.from([]);
    return scan(patterns);
  };
}

interface PacketParser {
  packet: { length: number };
  _parseLength(): boolean;
  _emitError(err: Error): void;
}

/**
 * Aedes (1.2) and its parser (mqtt-packet) have no packet size limit: a packet is buffered whole
 * before it is handled, so one 72 MB hello took 72 MB of memory and was stored. The parser reads
 * the packet's length from its fixed header first; here a length over the limit is a parse error,
 * so Aedes closes that connection before the payload arrives. The parser is Aedes' own
 * (`client._parser`, not a public API): broker.test.ts and the oversized-packet test in
 * test/device-link-limits.test.ts fail if an upgrade moves it.
 */
export function limitPacketSize(client: Client, maxBytes: number): boolean {
  const parser = (client as unknown as { _parser?: PacketParser })._parser;
  if (!parser || typeof parser._parseLength !== 'function') return false;
  const parseLength = parser._parseLength;
  parser._parseLength = function (this: PacketParser) {
    const done = parseLength.call(this);
    if (done && this.packet.length > maxBytes) {
      this._emitError(new Error(`packet of ${this.packet.length} bytes is over the limit of ${maxBytes}`));
      return false;
    }
    return done;
  };
  return true;
}

/** The address clients of this machine reach a listener on `host` at (a wildcard means every address). */
export function connectHost(host: string): string {
  if (host === '0.0.0.0' || host === '' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export class EmbeddedBroker {
  private aedes: Aedes | null = null;
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  /** The port actually listened on (options.port may be 0). */
  port = 0;

  private constructor(private readonly options: EmbeddedBrokerOptions) {}

  static async start(options: EmbeddedBrokerOptions): Promise<EmbeddedBroker> {
    const broker = new EmbeddedBroker(options);
    await broker.listen(options.port);
    return broker;
  }

  get url(): string {
    return `mqtt://${connectHost(this.options.host ?? '0.0.0.0')}:${this.port}`;
  }

  private async listen(port: number): Promise<void> {
    const o = this.options;
    const aedes = await Aedes.createBroker({
      // No cap on the messages in flight in Aedes' emitter (mqemitter). With a cap (Aedes' default
      // 100), messages wait in mqemitter's queue while the slots are held by slow deliveries (the
      // server's own link while it writes a burst to the database), and the queue is drained
      // recursively: each finished message starts the next one in the same stack
      // (released → _do → fastparallel → released …). A message nobody subscribes to finishes
      // synchronously, and a mass disconnect queues two of those per client
      // ($SYS/…/new/unsubscribes, $SYS/…/disconnect/clients): ~1,500 devices leaving at once while
      // the server reads slowly overflowed the stack ("Maximum call stack size exceeded", an
      // uncaught exception that stops the server). Without a cap nothing queues there; each
      // client's own reading still waits for its publishes to be delivered, and a subscriber that
      // stops reading is dropped after Aedes' drainTimeout instead of stalling every delivery.
      concurrency: 0,
      authenticate: guarded<Hook<'authenticate'>>(
        o.log,
        'authenticate',
        (client, username, password, done) => {
          const c = client as Tagged;
          if (username === o.serverUsername) {
            if (sameSecret(password, o.serverPassword)) {
              c[SERVER] = true;
              done(null, true);
            } else done(authError(4, 'bad server credentials'), false);
            return;
          }
          if (!username || validateSn(username) !== null || client.id !== username) {
            done(authError(5, 'a device logs in with its serial number as username and client id'), false);
            return;
          }
          if (sameSecret(password, deviceSecret(o.factoryKey, username))) done(null, true);
          else done(authError(4, 'bad device credentials'), false);
        },
        (done) => done(authError(3, 'the broker could not check these credentials'), false),
      ),
      authorizePublish: guarded<Hook<'authorizePublish'>>(
        o.log,
        'authorizePublish',
        (client, packet, done) => {
          const c = client as Tagged | null;
          if (!c || c[SERVER]) return done(null);
          if (c.id && isDeviceTopicAllowed(c.id, packet.topic, 'publish')) return done(null);
          done(new Error(`device ${c.id} may not publish to ${packet.topic}`));
        },
        (done, err) => done(err),
      ),
      authorizeSubscribe: guarded<Hook<'authorizeSubscribe'>>(
        o.log,
        'authorizeSubscribe',
        (client, subscription, done) => {
          const c = client as Tagged;
          if (c[SERVER]) return done(null, subscription);
          if (c.id && isDeviceTopicAllowed(c.id, subscription.topic, 'subscribe')) {
            return done(null, subscription);
          }
          o.log.warn({ client: c.id, topic: subscription.topic }, 'mqtt: subscription refused');
          done(null, null);
        },
        (done, err) => done(err, null),
      ),
    });
    indexRetained(aedes);
    // A client's errors (a dropped connection, a refused packet, a failed hook above) close that
    // client only; with these listeners Aedes reports them here.
    aedes.on('clientError', (client, err) =>
      o.log.debug({ client: client.id, err: err.message }, 'mqtt client error'),
    );
    aedes.on('connectionError', (_client, err) =>
      o.log.debug({ err: err.message }, 'mqtt connection error (before CONNECT)'),
    );
    const maxPacketBytes = o.maxPacketBytes ?? DEVICE_LIMITS.MQTT_PACKET_BYTES;
    const server = net.createServer((socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      try {
        const client = aedes.handle(socket);
        if (!limitPacketSize(client, maxPacketBytes)) {
          // Fail closed: without the limit one client could fill the memory.
          o.log.warn('mqtt: no packet size limit could be set on this Aedes version; connection refused');
          socket.destroy();
        }
      } catch (err) {
        o.log.warn({ err: (err as Error).message }, 'mqtt: could not accept a connection');
        socket.destroy();
      }
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        aedes.close();
        reject(
          err.code === 'EADDRINUSE'
            ? Object.assign(
                new Error(
                  `MQTT port ${port} is in use (another broker?): set MQTT_PORT to a free port, or MQTT_URL to use that broker`,
                ),
                { code: 'EADDRINUSE' },
              )
            : err,
        );
      });
      server.listen(port, o.host ?? '0.0.0.0', () => {
        server.removeAllListeners('error');
        resolve();
      });
    });
    this.aedes = aedes;
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
    o.log.info({ port: this.port }, 'embedded MQTT broker listening');
  }

  /** Stops the broker: every connection drops (no last wills are sent by a broker that goes away). */
  async close(): Promise<void> {
    const aedes = this.aedes;
    const server = this.server;
    this.aedes = null;
    this.server = null;
    if (server) {
      for (const s of this.sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    if (aedes) await new Promise<void>((resolve) => aedes.close(() => resolve()));
  }

  /** Stops and starts the broker on the same port (tests: "the broker restarted mid-command"). */
  async restart(downMs = 0): Promise<void> {
    const port = this.port;
    await this.close();
    if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
    await this.listen(port);
  }
}
