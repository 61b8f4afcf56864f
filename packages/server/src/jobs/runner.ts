import { and, asc, eq, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, DbOrTx, Tx } from '../db/client.ts';
import { jobs } from '../db/schema.ts';
import { inTexts } from '../db/text-array.ts';
import { insertRows } from '../gateway/batch.ts';
import { settlesWithin } from '../settles-within.ts';

/**
 * The durable job runner (DESIGN.md "jobs", docs/decisions/0006-jobs-in-a-postgresql-table.md).
 *
 * A job is a row of `jobs` with a kind, a payload and the time it is due. Every instance polls;
 * a due job is claimed with `FOR UPDATE SKIP LOCKED`, so two instances never run the same job,
 * and its handler runs inside the claiming transaction (in a savepoint): the handler's writes and
 * the job's removal commit together, and a crash before commit leaves the job to be claimed
 * again. Handlers must therefore be short and idempotent; long work enqueues follow-up jobs.
 * A failing handler is retried with a growing delay and parked (failed_at) after MAX_ATTEMPTS.
 *
 * "Due" is decided by `now()` of the runner (deps.now()), so tests move the clock and call tick().
 */

export type JobRow = typeof jobs.$inferSelect;

export interface JobContext {
  tx: Tx;
  now: Date;
  job: JobRow;
  /** Runs after the job's transaction commits (e.g. in-process notifications). */
  afterCommit(fn: () => void): void;
}

export type JobHandler = (ctx: JobContext) => Promise<void>;

export interface JobOptions {
  /**
   * Housekeeping that can wait while the device link is busy (the runner's `busy`): a reconnect
   * storm of 100,000 devices met the statistics rollup, backup sync, clients upkeep and
   * configuration convergence, and every API call shared PostgreSQL with all of them. Such a job
   * waits at most MAX_DEFER_MS past its time.
   */
  deferWhileBusy?: boolean;
}

export interface JobRunner {
  register(kind: string, handler: JobHandler, options?: JobOptions): void;
  /** Runs every due job (up to `limit`); answers how many ran. */
  tick(limit?: number): Promise<number>;
  /** Polls every pollMs (0 = never; tests call tick()). */
  start(): void;
  stop(): Promise<void>;
}

export interface NewJob {
  kind: string;
  /** A job with a key exists once: scheduling the same key again moves it. */
  key?: string;
  payload?: Record<string, unknown>;
  runAt: Date;
}

export const MAX_ATTEMPTS = 5;

/** How long past its time a deferWhileBusy job may wait for the device link to calm down. */
export const MAX_DEFER_MS = 5 * 60_000;

/**
 * How long stop() waits for the job under way. One still running then (a statistics fold of 100,000
 * devices takes tens of seconds) is ended with the database's connections (server.ts closes them):
 * its transaction rolls back whole and the job runs again later, as after a crash.
 */
export const STOP_WAIT_MS = 5000;

/** Adds (or, with a key, moves) a job; call inside the transaction of the write that needs it. */
export async function scheduleJob(db: DbOrTx, job: NewJob): Promise<void> {
  const values = { kind: job.kind, key: job.key ?? null, payload: job.payload ?? {}, runAt: job.runAt };
  if (job.key === undefined) {
    await db.insert(jobs).values(values);
    return;
  }
  await db
    .insert(jobs)
    .values(values)
    .onConflictDoUpdate({
      target: jobs.key,
      set: {
        kind: values.kind,
        payload: values.payload,
        runAt: values.runAt,
        attempts: 0,
        failedAt: null,
        lastError: null,
      },
    });
}

/**
 * Adds many jobs in one statement (a hot path may need to schedule one per device); a job whose key
 * already exists is left as it is — unlike scheduleJob, nothing is moved, so the insert never waits
 * on a job row that a runner holds.
 */
export async function addJobs(db: DbOrTx, list: readonly NewJob[]): Promise<void> {
  // One JSON parameter, not four bound values a job: a bulk reboot schedules 10,000 at once.
  await insertRows(
    db,
    jobs,
    ['kind', 'key', 'payload', 'runAt'],
    list.map((j) => ({ kind: j.kind, key: j.key ?? null, payload: j.payload ?? {}, runAt: j.runAt })),
    { skipConflicts: true },
  );
}

/** Removes a keyed job that is no longer needed (it is fine if there is none). */
export async function cancelJob(db: DbOrTx, key: string): Promise<void> {
  await db.delete(jobs).where(eq(jobs.key, key));
}

/** Delay before retry n (1-based): 5 s, 20 s, 80 s, … capped at one hour. */
export function retryDelayMs(attempt: number): number {
  return Math.min(5_000 * 4 ** (attempt - 1), 3_600_000);
}

export function createJobRunner(options: {
  database: Database;
  now: () => Date;
  log: FastifyBaseLogger;
  pollMs: number;
  /** Counts each job run by kind and result (src/metrics/). */
  metrics?: { jobRun(kind: string, ok: boolean, seconds?: number): void };
  /** Whether the device link has more than it can write now (deferWhileBusy jobs then wait). */
  busy?: () => boolean;
  stopWaitMs?: number;
}): JobRunner {
  const { database, now, log, pollMs, metrics, busy, stopWaitMs = STOP_WAIT_MS } = options;
  const handlers = new Map<string, JobHandler>();
  const deferrable: string[] = [];
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  /** Claims and runs one due job; false when none is due. */
  async function runOne(): Promise<boolean> {
    const callbacks: (() => void)[] = [];
    const at = now();
    const started = performance.now();
    const took = () => (performance.now() - started) / 1000;
    const waiting =
      deferrable.length && busy?.()
        ? sql`not (${inTexts(jobs.kind, deferrable)} and ${jobs.runAt} > ${new Date(at.getTime() - MAX_DEFER_MS)})`
        : undefined;
    const claimed = await database.db.transaction(async (tx) => {
      const [job] = await tx
        .select()
        .from(jobs)
        .where(and(lte(jobs.runAt, at), isNull(jobs.failedAt), waiting))
        .orderBy(asc(jobs.runAt), asc(jobs.id))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!job) return false;
      const handler = handlers.get(job.kind);
      try {
        if (!handler) throw new Error(`no handler for job kind "${job.kind}"`);
        await tx.transaction((savepoint) =>
          handler({ tx: savepoint, now: at, job, afterCommit: (fn) => callbacks.push(fn) }),
        );
        await tx.delete(jobs).where(eq(jobs.id, job.id));
        metrics?.jobRun(job.kind, true, took());
      } catch (error) {
        // Cut by a shutdown (its connection closed under it): rolled back whole, not a failed attempt.
        if (stopped) throw error;
        metrics?.jobRun(job.kind, false, took());
        callbacks.length = 0;
        const attempts = job.attempts + 1;
        const message = error instanceof Error ? error.message : String(error);
        log.error({ err: error, jobId: job.id, kind: job.kind, attempts }, 'job failed');
        await tx
          .update(jobs)
          .set({
            attempts,
            lastError: message.slice(0, 2000),
            ...(attempts >= MAX_ATTEMPTS
              ? { failedAt: at }
              : { runAt: new Date(at.getTime() + retryDelayMs(attempts)) }),
          })
          .where(eq(jobs.id, job.id));
      }
      return true;
    });
    for (const fn of callbacks) {
      try {
        fn();
      } catch (error) {
        log.error({ err: error }, 'job after-commit callback failed');
      }
    }
    return claimed;
  }

  /** The poller's tick stops claiming once stop() is called: a shutdown waits for one job, not for the backlog. */
  async function tick(limit = 500, untilStopped = false): Promise<number> {
    let ran = 0;
    while (ran < limit && !(untilStopped && stopped) && (await runOne())) ran += 1;
    return ran;
  }

  function poll(): void {
    if (running || stopped) return;
    running = tick(500, true)
      .catch((error) => {
        if (stopped)
          log.warn({ err: (error as Error).message }, 'job ended by the shutdown; it runs again later');
        else log.error({ err: error }, 'job poll failed');
      })
      .finally(() => {
        running = undefined;
      });
  }

  return {
    register(kind, handler, jobOptions) {
      handlers.set(kind, handler);
      if (jobOptions?.deferWhileBusy && !deferrable.includes(kind)) deferrable.push(kind);
    },
    tick: (limit) => tick(limit),
    start() {
      stopped = false;
      if (pollMs > 0 && !timer) {
        timer = setInterval(poll, pollMs);
        timer.unref();
      }
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      if (running && !(await settlesWithin(running, stopWaitMs)))
        log.warn(
          `a job is still running ${stopWaitMs} ms into the shutdown; it ends with the database connections`,
        );
    },
  };
}

/** For health pages and tests: jobs due at `at` that are not parked. */
export async function countDueJobs(db: DbOrTx, at: Date): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(jobs)
    .where(and(lte(jobs.runAt, at), isNull(jobs.failedAt)));
  return row.n;
}
