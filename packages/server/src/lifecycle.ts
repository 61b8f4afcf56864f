import type { FastifyBaseLogger } from 'fastify';

/**
 * The process around a running server (main.ts): orderly shutdown on a signal, and no silent
 * deaths.
 * - SIGINT, SIGTERM, SIGHUP: `close()` once (server.ts stops device intake and jobs, drains, then
 *   HTTP, the database and the embedded PostgreSQL), then exit 0; a second signal is only logged.
 *   A shutdown that takes longer than `forceExitMs` exits 1.
 * - An unhandled promise rejection is logged and the server keeps running (Node would otherwise
 *   end the process with a stack trace outside the log).
 * - An uncaught exception is logged and shuts the server down in order, exit 1.
 * - A failed start is logged, exit 1.
 */

export const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export interface ProcessLike {
  // biome-ignore lint/suspicious/noExplicitAny: the listener signature of Node's process.on
  on(event: string, listener: (...args: any[]) => void): unknown;
  exit(code: number): void;
}

export interface Closable {
  close(): Promise<void>;
}

export interface ManagedProcess {
  /** Stops the server (once) and exits with `code` (1 if stopping failed). */
  shutdown(reason: string, code: number): Promise<void>;
  /** The running server, or undefined if it failed to start. */
  started: Promise<Closable | undefined>;
}

export function manageProcess(options: {
  start(): Promise<Closable>;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error' | 'fatal'>;
  proc?: ProcessLike;
  forceExitMs?: number;
}): ManagedProcess {
  const { log } = options;
  const proc = options.proc ?? process;
  const forceExitMs = options.forceExitMs ?? 20_000;
  let stopping: Promise<void> | null = null;

  const started: Promise<Closable | undefined> = options.start().catch((err: unknown) => {
    log.fatal({ err }, 'the server did not start');
    void shutdown('start failed', 1);
    return undefined;
  });

  function shutdown(reason: string, code: number): Promise<void> {
    if (stopping) return stopping;
    log.info(`${reason}: shutting down`);
    const force = setTimeout(() => {
      log.error(`shutdown took longer than ${forceExitMs} ms; exiting`);
      proc.exit(1);
    }, forceExitMs);
    force.unref();
    stopping = (async () => {
      let exitCode = code;
      const server = await started;
      try {
        await server?.close();
        if (server) log.info('stopped');
      } catch (err) {
        log.error({ err }, 'shutdown failed');
        exitCode = 1;
      }
      clearTimeout(force);
      proc.exit(exitCode);
    })();
    return stopping;
  }

  for (const signal of SHUTDOWN_SIGNALS) {
    proc.on(signal, () => {
      if (stopping) log.warn(`${signal}: already shutting down`);
      else void shutdown(signal, 0);
    });
  }
  proc.on('unhandledRejection', (reason: unknown) => {
    log.error({ err: reason }, 'unhandled promise rejection');
  });
  proc.on('uncaughtException', (err: Error) => {
    log.fatal({ err }, 'uncaught exception');
    void shutdown('uncaught exception', 1);
  });
  return { shutdown, started };
}
