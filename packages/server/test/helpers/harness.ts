import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { inject } from 'vitest';
import { type Config, loadConfig } from '../../src/config.ts';
import { type RunningServer, startServer } from '../../src/server.ts';

/** A clock the test can move: lockouts, code expiry and once-per-year rules read it. */
export class TestClock {
  offsetMs = 0;
  now = (): Date => new Date(Date.now() + this.offsetMs);
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface TestServer extends RunningServer {
  clock: TestClock;
  config: Config;
  /** A new HTTP client with its own cookie jar (one browser). */
  client(): HttpClient;
}

/** A new empty database on the test run's PostgreSQL; answers its URL. */
export async function createDatabase(adminUrl: string, prefix = 'beacon_t'): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Boots the real server on a fresh database of its own, listening on a free loopback port. */
export async function startTestServer(
  env: Record<string, string> = {},
  options: { logger?: pino.Logger } = {},
): Promise<TestServer> {
  const databaseUrl = await createDatabase(inject('adminDatabaseUrl'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DEV_OUTBOX: '1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    PUBLIC_URL: 'http://localhost:8080',
    DEMO: '0',
    // The embedded MQTT broker on a free port; with MQTT_URL set (CI), that broker instead.
    MQTT_PORT: '0',
    // Every test server has a database of its own, so on a shared broker it must not split the
    // devices' messages with other test servers through one shared-subscription group.
    ...(process.env.MQTT_URL
      ? { MQTT_URL: process.env.MQTT_URL, MQTT_SHARE_GROUP: `t${randomBytes(4).toString('hex')}` }
      : {}),
    // Its own topics on a shared broker (topic-root-setup.ts).
    ...(process.env.MQTT_TOPIC_ROOT ? { MQTT_TOPIC_ROOT: process.env.MQTT_TOPIC_ROOT } : {}),
    AUTH_RATE_LIMIT: '1000',
    BEACON_SECRET_KEY: 'test-secret-key',
    ...env,
  });
  const clock = new TestClock();
  const server = await startServer(config, { now: clock.now, logger: options.logger });
  return { ...server, clock, config, client: () => new HttpClient(server.url) };
}

/** A logger that keeps its lines (parsed) for a test to read, at `level` and above. */
export function capturingLogger(level = 'warn'): { logger: pino.Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

export interface HttpResult<T = unknown> {
  status: number;
  /** The parsed envelope: `{ code, data }` or `{ code, message, fields, requestId }`. */
  body: { code: number; data: T; message?: string; fields?: Record<string, string>; requestId?: string };
  headers: Headers;
}

/** A fetch client that keeps cookies like a browser would (one jar per client). */
export class HttpClient {
  private cookies = new Map<string, string>();
  /** Sent on every request when set, as a browser page would. */
  origin: string | undefined;
  bearer: string | undefined;

  constructor(readonly baseUrl: string) {}

  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  get cookieToken(): string | undefined {
    return this.cookies.get('token');
  }

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.origin) headers.origin = this.origin;
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${this.baseUrl}/api/v1${path}`, {
      method,
      headers,
      body: payload,
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /max-age=0/i.test(a) || /expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    // A file (a log download: CSV, xlsx) is not an envelope: a 2xx one reads as code 0 with its text.
    const json = /json/.test(res.headers.get('content-type') ?? 'application/json');
    const parsed = !text
      ? undefined
      : json
        ? JSON.parse(text)
        : { code: res.ok ? 0 : res.status, data: text };
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get<T = unknown>(path: string): Promise<HttpResult<T>> {
    return this.request<T>('GET', path);
  }
  post<T = unknown>(path: string, body?: unknown): Promise<HttpResult<T>> {
    return this.request<T>('POST', path, body ?? {});
  }
  patch<T = unknown>(path: string, body: unknown): Promise<HttpResult<T>> {
    return this.request<T>('PATCH', path, body);
  }
  delete<T = unknown>(path: string): Promise<HttpResult<T>> {
    return this.request<T>('DELETE', path);
  }
}

/**
 * A second instance of `first`: the same database, the same broker and the same shared-subscription
 * group (DESIGN.md "Growing past one machine"), its own HTTP port, job runner and server link. Only
 * meaningful with an external broker (`first` started with MQTT_URL): with the embedded Aedes, each
 * instance would start a broker of its own.
 */
export async function startSecondInstance(first: TestServer): Promise<TestServer> {
  if (!first.config.mqttUrl) throw new Error('a second instance needs an external broker (MQTT_URL)');
  const config: Config = { ...first.config, port: 0 };
  const server = await startServer(config, { now: first.clock.now });
  return { ...server, clock: first.clock, config, client: () => new HttpClient(server.url) };
}
