import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { EventBus } from './events/bus.ts';
import type { Gateway } from './gateway/gateway.ts';
import type { Mailer } from './mail/mailer.ts';
import type { Metrics } from './metrics/metrics.ts';

/** What every domain's routes and services are built from. */
export interface Deps {
  config: Config;
  database: Database;
  mailer: Mailer;
  /** Live events across instances (PostgreSQL LISTEN/NOTIFY), src/events/. */
  bus: EventBus;
  /** The device link: broker, ingest, commands (src/gateway/). */
  gateway: Gateway;
  log: FastifyBaseLogger;
  /** Prometheus metrics of this instance and its readiness (src/metrics/). */
  metrics: Metrics;
  /** Current time; tests move it to check lockouts and once-per-year rules. */
  now(): Date;
}
