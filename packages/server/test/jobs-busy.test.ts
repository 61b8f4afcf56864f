import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../src/db/schema.ts';
import { addJobs, createJobRunner, MAX_DEFER_MS } from '../src/jobs/runner.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Housekeeping jobs (deferWhileBusy) wait while the device link is busy — a reconnect storm — so
 * that the API does not share PostgreSQL with them too; other jobs run as usual, and a deferred job
 * runs anyway once it is MAX_DEFER_MS late. And a runner that stops (a shutdown) claims no more.
 */

let server: TestServer;

beforeAll(async () => {
  // The server's own runner never polls: this test's runner is the only one.
  server = await startTestServer({ JOB_POLL_MS: '0' });
  await server.database.db.delete(jobs);
});

afterAll(async () => {
  await server?.close();
});

describe('the job runner while the device link is busy', () => {
  it('lets housekeeping wait, runs the rest, and runs housekeeping once it is too late to wait', async () => {
    let busy = true;
    const ran: string[] = [];
    const runner = createJobRunner({
      database: server.database,
      now: () => new Date(),
      log: pino({ level: 'silent' }),
      pollMs: 0,
      busy: () => busy,
    });
    runner.register(
      'test.housekeeping',
      async ({ job }) => {
        ran.push(`housekeeping ${(job.payload as { n: number }).n}`);
      },
      { deferWhileBusy: true },
    );
    runner.register('test.urgent', async () => {
      ran.push('urgent');
    });
    const now = Date.now();
    await addJobs(server.database.db, [
      { kind: 'test.housekeeping', payload: { n: 1 }, runAt: new Date(now - 1000) },
      { kind: 'test.urgent', runAt: new Date(now - 500) },
    ]);

    expect(await runner.tick()).toBe(1);
    expect(ran).toEqual(['urgent']);
    expect(await runner.tick()).toBe(0);

    // Due longer ago than a job may be deferred: it runs even though the link is still busy.
    await addJobs(server.database.db, [
      { kind: 'test.housekeeping', payload: { n: 2 }, runAt: new Date(now - MAX_DEFER_MS - 1000) },
    ]);
    expect(await runner.tick()).toBe(1);
    expect(ran).toEqual(['urgent', 'housekeeping 2']);

    busy = false;
    expect(await runner.tick()).toBe(1);
    expect(ran).toEqual(['urgent', 'housekeeping 2', 'housekeeping 1']);
    expect(await server.database.db.select().from(jobs)).toEqual([]);
  });

  it('claims no further job once stopped: a shutdown waits for the job under way, not for the backlog', async () => {
    const runner = createJobRunner({
      database: server.database,
      now: () => new Date(),
      log: pino({ level: 'silent' }),
      pollMs: 20,
    });
    const ran: number[] = [];
    let started!: () => void;
    const first = new Promise<void>((r) => {
      started = r;
    });
    runner.register('test.slow', async ({ job }) => {
      ran.push((job.payload as { n: number }).n);
      started();
      await new Promise((r) => setTimeout(r, 300));
    });
    const now = Date.now();
    await addJobs(
      server.database.db,
      [1, 2, 3, 4, 5].map((n) => ({ kind: 'test.slow', payload: { n }, runAt: new Date(now - 1000 + n) })),
    );
    runner.start();
    await first;
    await runner.stop();
    // The one under way finished (its row removed with its commit); the four others wait for a runner.
    expect(ran).toEqual([1]);
    const left = await server.database.db.select().from(jobs);
    expect(left.map((j) => (j.payload as { n: number }).n).sort()).toEqual([2, 3, 4, 5]);
    await server.database.db.delete(jobs);
  });

  it('waits for a long job only so long when stopped: the shutdown goes on and the job ends with the connections', async () => {
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
    const runner = createJobRunner({
      database: server.database,
      now: () => new Date(),
      log,
      pollMs: 20,
      stopWaitMs: 100,
    });
    const order: string[] = [];
    let started!: () => void;
    const first = new Promise<void>((r) => {
      started = r;
    });
    runner.register('test.long', async () => {
      started();
      await new Promise((r) => setTimeout(r, 3000));
      order.push('job finished');
    });
    await addJobs(server.database.db, [{ kind: 'test.long', runAt: new Date(Date.now() - 1000) }]);
    runner.start();
    await first;
    await runner.stop();
    order.push('stop returned');
    expect(warnings).toEqual([
      'a job is still running 100 ms into the shutdown; it ends with the database connections',
    ]);
    // Here nothing closes the connections: the job finishes after all, and commits.
    await expect.poll(() => order, { timeout: 10_000 }).toEqual(['stop returned', 'job finished']);
    await expect.poll(() => server.database.db.select().from(jobs), { timeout: 5000 }).toEqual([]);
  });

  it('rolls a job cut by the shutdown back whole: it runs again later, not counted as a failed attempt', async () => {
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
    const runner = createJobRunner({
      database: server.database,
      now: () => new Date(),
      log,
      pollMs: 20,
      stopWaitMs: 100,
    });
    let stopping!: () => void;
    const stopCalled = new Promise<void>((r) => {
      stopping = r;
    });
    let started!: () => void;
    const first = new Promise<void>((r) => {
      started = r;
    });
    runner.register('test.cut', async ({ tx }) => {
      await tx.insert(jobs).values({ kind: 'test.written-by-the-cut-job', runAt: new Date() });
      started();
      await stopCalled;
      // What closing the pool does to a connection still in use (db/client.ts endPool).
      await tx.execute(sql`select pg_terminate_backend(pg_backend_pid())`);
    });
    await addJobs(server.database.db, [{ kind: 'test.cut', runAt: new Date(Date.now() - 1000) }]);
    runner.start();
    await first;
    const stopped = runner.stop();
    stopping();
    await stopped;
    await expect
      .poll(() => warnings.filter((w) => w === 'job ended by the shutdown; it runs again later'), {
        timeout: 5000,
      })
      .toHaveLength(1);
    // Not logged as a failure, and nothing of it kept: not its write, not an attempt.
    expect(warnings).not.toContain('job failed');
    const left = await server.database.db.select().from(jobs);
    expect(left.map((j) => ({ kind: j.kind, attempts: j.attempts, failedAt: j.failedAt }))).toEqual([
      { kind: 'test.cut', attempts: 0, failedAt: null },
    ]);
    await server.database.db.delete(jobs);
  });
});
