import path from 'node:path';
import {
  DEFAULT_TOPIC_ROOT,
  DEV_FACTORY_KEY,
  DEV_FIRMWARE_SEED,
  isFirmwareSeed,
  LIMITS,
  TOPIC_ROOT_PATTERN,
} from '@beacon/protocol';
import { loadSignInConfig, type SignInConfig } from './auth/sign-in-config.ts';

/** Every setting of the server, read once from the environment (README.md lists them). */
export interface Config {
  port: number;
  host: string;
  /** PostgreSQL URL; when absent an embedded PostgreSQL is started under dataDir. */
  databaseUrl: string | undefined;
  mqttUrl: string | undefined;
  mqttPort: number;
  /** Address the embedded broker listens on: MQTT_HOST, else HOST. */
  mqttHost: string;
  /** MQTT_PORT was given: a taken port is then an error instead of moving to the next one. */
  mqttPortExplicit: boolean;
  /** The server's own MQTT credentials (MQTT_USERNAME / MQTT_PASSWORD); generated for the embedded broker when absent. */
  mqttUsername: string | undefined;
  mqttPassword: string | undefined;
  /** Shared-subscription group with an external broker (`$share/{group}/dev/+/up/#`); '' = plain subscription. */
  mqttShareGroup: string;
  /** The first level of every device topic (MQTT_TOPIC_ROOT, default `dev`): consoles sharing a broker. */
  mqttTopicRoot: string;
  /**
   * MQTT_SESSION_NAME: set, the server's link to an external MQTT broker keeps a persistent session
   * (client id `beacon-server-{name}`, clean session off), so the broker queues what devices send
   * while this instance restarts (docs/decisions/0074). Unset: a clean session with a random id.
   */
  mqttSessionName: string | undefined;
  /**
   * NATS servers (NATS_URL, comma-separated): set, the broker kind is NATS (docs/decisions/0067):
   * devices speak MQTT to the NATS cluster's MQTT listeners, the server consumes a JetStream stream.
   */
  natsServers: string[];
  /** Where devices connect with NATS (the demo fleet): NATS_MQTT_URL, else port 1883 of the first NATS host. */
  natsMqttUrl: string | undefined;
  /** Replicas of the device stream (NATS_REPLICAS); undefined: 3 in a cluster, 1 on a single server. */
  natsReplicas: number | undefined;
  /** How long a message an instance took may stay unacknowledged before another takes it (NATS_ACK_WAIT_SECONDS), ms. */
  natsAckWaitMs: number;
  /** Key from which every device's MQTT secret is derived (HMAC-SHA256, protocol device/secret.ts). */
  factoryKey: string;
  /** factoryKey is the public development key (allowed outside production, with a warning at start). */
  factoryKeyIsPublic: boolean;
  /** Ed25519 seed (64 hex) firmware is signed with (docs/decisions/0061); BEACON_FIRMWARE_KEY. */
  firmwareKey: string;
  /** firmwareKey is the public development key (allowed outside production, with a warning at start). */
  firmwareKeyIsPublic: boolean;
  /** Key that seals device secrets at rest (BEACON_SECRET_KEY); undefined = the development key, with a warning. */
  secretKey: string | undefined;
  /** How long a command waits for the device's reply before its outcome is 5025 (timeout), ms. */
  commandTimeoutMs: number;
  /** First delay before a pending configuration is pushed again (doubling, at most an hour), ms. */
  configRetryBaseMs: number;
  /** How long a device may stay away for an upgrade or restart (status 3 or 8, silent) before it is marked offline, ms. */
  awayDeadlineMs: number;
  dataDir: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  publicUrl: string;
  /** Web session lifetime in seconds when "remember me" is ticked; otherwise a browser-session cookie. */
  sessionTtlSeconds: number;
  /** Server-side lifetime of a browser-session cookie's session, seconds. */
  sessionIdleTtlSeconds: number;
  /** Idle time after which the web app logs out (0 = never), seconds. */
  idleTimeoutSeconds: number;
  maxProjectsPerAccount: number;
  /** OpenAPI keys one account may hold (MAX_API_KEYS_PER_ACCOUNT; 5047 beyond). */
  maxApiKeysPerAccount: number;
  /** GET /metrics needs `Authorization: Bearer <token>`; unset: loopback callers only (docs/decisions/0064). */
  metricsToken: string | undefined;
  /**
   * On SIGTERM, how long /readyz answers 503 while HTTP is still served, before the server stops
   * (SHUTDOWN_DRAIN_SECONDS, default 0), ms: time for a load balancer to take the instance out.
   */
  shutdownDrainMs: number;
  /**
   * How long the orderly stop after the drain may take before the process exits anyway
   * (SHUTDOWN_TIMEOUT_SECONDS, default 20, 5–3600), ms: what the device intake still holds then is
   * lost on an MQTT broker (acknowledged on receipt); set it within the orchestrator's grace period.
   */
  shutdownTimeoutMs: number;
  /** How long the database-backed gauges (devices, jobs) are kept between reads, ms. */
  metricsCacheMs: number;
  /** Exposes GET /api/v1/dev/outbox for local installs and tests. */
  devOutbox: boolean;
  /** Extra allowed Origins for state-changing requests (besides publicUrl and same host). */
  allowedOrigins: string[];
  /** Requests per minute and IP on the sign-in, sign-up, code and reset routes. */
  authRateLimitPerMinute: number;
  /** Trust X-Forwarded-* from a reverse proxy (only behind one: otherwise clients could spoof their IP). */
  trustProxy: boolean;
  logLevel: string;
  webDist: string;
  /** Demo data and simulated devices on start. */
  demo: boolean;
  /** Unexpired read-only / read-write shares one account may hold (codes 61 / 62; docs/decisions/0005). */
  shareMaxRead: number;
  shareMaxReadWrite: number;
  /** How often each instance looks for due jobs, ms (0 = never; tests call jobs.tick()). */
  jobPollMs: number;
  /** Alarms (src/alarms/): webhooks may reach private and loopback addresses (tests, labs). */
  alarmWebhookAllowPrivate: boolean;
  /** How often the alarm rules sweep runs. */
  alarmSweepMs: number;
  alarmWebhookTimeoutMs: number;
  /** Social sign-in providers (OIDC_*) and the SMS relay (SMS_WEBHOOK_URL): auth/sign-in-config.ts. */
  signIn: SignInConfig;
}

/** An integer setting within bounds; a malformed or out-of-range value stops the start, named. */
function boundedInt(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name];
  // Decimal digits only: Number() would also take '0x10', '1e3' and ' 8 '.
  const n = raw === undefined || raw === '' ? fallback : /^-?\d{1,12}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max}`);
  }
  return n;
}

const DAY_S = 86_400;

/**
 * JOB_POLL_MS: 0 (this instance runs no jobs; tests tick the runner), else 50 ms to a minute — a
 * poll every few milliseconds would keep PostgreSQL busy answering "nothing due".
 */
function jobPollOf(env: NodeJS.ProcessEnv): number {
  const ms = boundedInt(env, 'JOB_POLL_MS', 1000, 0, 60_000);
  if (ms > 0 && ms < 50) throw new Error('JOB_POLL_MS must be 0 or an integer between 50 and 60000');
  return ms;
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

/**
 * The message when the public development factory key would be used in production: with it anyone
 * can compute every device's MQTT password and log in as any device.
 */
export const PUBLIC_FACTORY_KEY_REFUSED =
  'BEACON_FACTORY_KEY is not set (or is the public development key) and NODE_ENV=production: anyone could log in as any device. Set BEACON_FACTORY_KEY to your own secret.';
export const PUBLIC_FACTORY_KEY_WARNING =
  'BEACON_FACTORY_KEY is not set: devices log in with secrets derived from the public development key, so anyone can log in as any device. Set BEACON_FACTORY_KEY before real devices connect (the server refuses to start without it when NODE_ENV=production).';

export const PUBLIC_FIRMWARE_KEY_REFUSED =
  'BEACON_FIRMWARE_KEY is not set (or is the public development key) and NODE_ENV=production: anyone could sign firmware your devices accept. Set BEACON_FIRMWARE_KEY to your own Ed25519 seed (64 hex characters).';
export const PUBLIC_FIRMWARE_KEY_WARNING =
  'BEACON_FIRMWARE_KEY is not set: firmware is signed with the public development key, so anyone can sign images that devices built with its public key accept. Set BEACON_FIRMWARE_KEY (an Ed25519 seed, 64 hex characters) and build devices with its public key (the server refuses to start without it when NODE_ENV=production).';

function topicRootOf(value: string | undefined): string {
  if (!value) return DEFAULT_TOPIC_ROOT;
  if (!TOPIC_ROOT_PATTERN.test(value)) {
    throw new Error('MQTT_TOPIC_ROOT must be one topic level of 1 to 32 letters, digits, "-" or "_"');
  }
  return value;
}

/** An instance's session name: one client-id-safe word, unique per instance (0074). */
const SESSION_NAME_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

function sessionNameOf(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.MQTT_SESSION_NAME;
  if (!value) return undefined;
  if (!SESSION_NAME_PATTERN.test(value)) {
    throw new Error('MQTT_SESSION_NAME must be 1 to 32 letters, digits, "-" or "_", unique per instance');
  }
  if (env.NATS_URL) {
    throw new Error(
      'MQTT_SESSION_NAME applies to an MQTT broker; with NATS_URL the durable consumer keeps messages',
    );
  }
  return value;
}

function natsConfig(env: NodeJS.ProcessEnv) {
  const natsServers = (env.NATS_URL ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (natsServers.length && env.MQTT_URL)
    throw new Error('MQTT_URL and NATS_URL are both set: choose one broker (docs/deployment.md)');
  let natsMqttUrl = env.NATS_MQTT_URL || undefined;
  if (!natsMqttUrl && natsServers.length) {
    const first = new URL(natsServers[0].includes('://') ? natsServers[0] : `nats://${natsServers[0]}`);
    natsMqttUrl = `mqtt://${first.hostname}:1883`;
  }
  const replicas = env.NATS_REPLICAS ? boundedInt(env, 'NATS_REPLICAS', 1, 1, 5) : undefined;
  return {
    natsServers,
    natsMqttUrl,
    natsReplicas: replicas,
    natsAckWaitMs: boundedInt(env, 'NATS_ACK_WAIT_SECONDS', 30, 1, 3600) * 1000,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = boundedInt(env, 'PORT', 8080, 0, 65_535);
  const host = env.HOST ?? '0.0.0.0';
  const factoryKey = env.BEACON_FACTORY_KEY || DEV_FACTORY_KEY;
  const factoryKeyIsPublic = factoryKey === DEV_FACTORY_KEY;
  if (factoryKeyIsPublic && env.NODE_ENV === 'production') throw new Error(PUBLIC_FACTORY_KEY_REFUSED);
  const firmwareKey = (env.BEACON_FIRMWARE_KEY || DEV_FIRMWARE_SEED).toLowerCase();
  if (!isFirmwareSeed(firmwareKey))
    throw new Error('BEACON_FIRMWARE_KEY must be 64 hex characters (an Ed25519 seed)');
  const firmwareKeyIsPublic = firmwareKey === DEV_FIRMWARE_SEED;
  if (firmwareKeyIsPublic && env.NODE_ENV === 'production') throw new Error(PUBLIC_FIRMWARE_KEY_REFUSED);
  return {
    port,
    host,
    databaseUrl: env.DATABASE_URL || undefined,
    mqttUrl: env.MQTT_URL || undefined,
    mqttPort: boundedInt(env, 'MQTT_PORT', 1883, 0, 65_535),
    mqttPortExplicit: Boolean(env.MQTT_PORT),
    mqttHost: env.MQTT_HOST || host,
    mqttUsername: env.MQTT_USERNAME || undefined,
    mqttPassword: env.MQTT_PASSWORD || undefined,
    mqttShareGroup: env.MQTT_SHARE_GROUP ?? 'beacon',
    mqttTopicRoot: topicRootOf(env.MQTT_TOPIC_ROOT),
    mqttSessionName: sessionNameOf(env),
    ...natsConfig(env),
    factoryKey,
    factoryKeyIsPublic,
    firmwareKey,
    firmwareKeyIsPublic,
    secretKey: env.BEACON_SECRET_KEY || undefined,
    commandTimeoutMs: boundedInt(env, 'COMMAND_TIMEOUT_MS', 30_000, 1000, 3_600_000),
    awayDeadlineMs: boundedInt(env, 'AWAY_DEADLINE_SECONDS', 900, 60, 86_400) * 1000,
    configRetryBaseMs: boundedInt(env, 'CONFIG_RETRY_BASE_SECONDS', 30, 1, 3600) * 1000,
    dataDir: path.resolve(env.DATA_DIR ?? path.join(repoRoot, 'data')),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Beacon <no-reply@beacon.local>',
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    sessionTtlSeconds: boundedInt(env, 'SESSION_TTL_SECONDS', 30 * DAY_S, 60, 366 * DAY_S),
    sessionIdleTtlSeconds: boundedInt(env, 'SESSION_IDLE_TTL_SECONDS', 12 * 3600, 60, 366 * DAY_S),
    idleTimeoutSeconds: boundedInt(env, 'IDLE_TIMEOUT_SECONDS', 30 * 60, 0, DAY_S),
    maxProjectsPerAccount: boundedInt(env, 'MAX_PROJECTS_PER_ACCOUNT', 200, 1, 100_000),
    maxApiKeysPerAccount: boundedInt(env, 'MAX_API_KEYS_PER_ACCOUNT', LIMITS.API_KEYS_PER_ACCOUNT, 1, 1000),
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownDrainMs: boundedInt(env, 'SHUTDOWN_DRAIN_SECONDS', 0, 0, 300) * 1000,
    shutdownTimeoutMs: boundedInt(env, 'SHUTDOWN_TIMEOUT_SECONDS', 20, 5, 3600) * 1000,
    metricsCacheMs: boundedInt(env, 'METRICS_CACHE_SECONDS', 15, 0, 3600) * 1000,
    devOutbox:
      env.DEV_OUTBOX === '1' ||
      (env.DEV_OUTBOX === undefined && !env.SMTP_URL && env.NODE_ENV !== 'production'),
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    authRateLimitPerMinute: boundedInt(env, 'AUTH_RATE_LIMIT', 30, 1, 1_000_000),
    trustProxy: env.TRUST_PROXY === '1',
    logLevel: env.LOG_LEVEL ?? 'info',
    webDist: path.resolve(env.WEB_DIST ?? path.join(repoRoot, 'packages/web/dist')),
    demo: env.DEMO !== '0',
    shareMaxRead: boundedInt(env, 'SHARE_MAX_READ', LIMITS.SHARE_READ_ONLY_MAX, 1, 10_000),
    shareMaxReadWrite: boundedInt(env, 'SHARE_MAX_READ_WRITE', LIMITS.SHARE_READ_WRITE_MAX, 1, 10_000),
    jobPollMs: jobPollOf(env),
    alarmWebhookAllowPrivate: env.ALARM_WEBHOOK_ALLOW_PRIVATE === '1',
    alarmSweepMs: boundedInt(env, 'ALARM_SWEEP_SECONDS', 60, 5, 86_400) * 1000,
    alarmWebhookTimeoutMs: boundedInt(env, 'ALARM_WEBHOOK_TIMEOUT_MS', 5000, 100, 60_000),
    signIn: loadSignInConfig(env),
  };
}
