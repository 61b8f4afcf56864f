/**
 * bench/metrics-scrape — what a /metrics scrape costs the database at N devices (issue 16,
 * docs/decisions/0064).
 *
 *   npx tsx bench/metrics-scrape.ts [N=100000] [--admin postgresql://postgres@127.0.0.1:5432/test] [--scrapes 20]
 *
 * Creates a database of its own on the given PostgreSQL (dropped at the end), runs the migrations,
 * inserts N devices (their device_state rows, status 1 for two thirds, 0 for the rest, with
 * telemetry-sized JSON so the rows are as wide as live ones) and 2,000 jobs. Then:
 * - the plan and time of the gauges' two queries (EXPLAIN ANALYZE, BUFFERS);
 * - `--scrapes` scrapes in a row with the default cache (15 s): the database reads made (1 expected)
 *   and the wall time per scrape (median, max);
 * - the same with the cache off (METRICS_CACHE_SECONDS=0): every scrape reads.
 * Not part of `npm test`.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { connect, runMigrations } from '../packages/server/src/db/client.ts';
import { Metrics } from '../packages/server/src/metrics/metrics.ts';
import { opt } from './args.ts';

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000);
const ADMIN = opt('admin', 'postgresql://postgres@127.0.0.1:5432/test');
const SCRAPES = Number(opt('scrapes', '20'));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function scrapes(metrics: Metrics): Promise<{ reads: number; ms: number[] }> {
  const reads = () =>
    metrics.registry.getSingleMetric('beacon_metrics_database_reads_total')?.get() as unknown as Promise<{
      values: { value: number }[];
    }>;
  const before = (await reads()).values[0]?.value ?? 0;
  const ms: number[] = [];
  for (let i = 0; i < SCRAPES; i++) {
    const t = performance.now();
    await metrics.expose();
    ms.push(performance.now() - t);
  }
  return { reads: ((await reads()).values[0]?.value ?? 0) - before, ms };
}

async function main() {
  const name = `beacon_bench_metrics_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN);
  url.pathname = `/${name}`;
  const database = connect(url.toString());
  try {
    await runMigrations(database);
    const q = (text: string, values?: unknown[]) => database.pool.query(text, values);
    let t = performance.now();
    await q(
      `insert into devices (sn, name, model, type, capabilities)
       select 'MTRC' || lpad(i::text, 12, '0'), 'AP ' || i, 'BA-W1200C', 'ap', '["wifi"]'::jsonb
         from generate_series(1, $1::int) i`,
      [N],
    );
    await q(
      `update device_state set status = case when right(sn, 1)::int % 3 = 0 then 0 else 1 end,
              client_count = 20, telemetry_at = now(), last_seen_at = now(),
              telemetry = jsonb_build_object('cpu', 12, 'memory', 40, 'pad', repeat('x', 600))`,
    );
    await q(
      `insert into jobs (kind, key, run_at)
       select case when i % 2 = 0 then 'away-check' else 'config-retry' end, 'bench-' || i,
              now() + (i % 3 - 1) * interval '1 minute'
         from generate_series(1, 2000) i`,
    );
    await q('vacuum analyze device_state');
    await q('vacuum analyze jobs');
    console.log(`seeded ${N} devices and 2,000 jobs in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    for (const sql of [
      'select status, count(*)::int as n from device_state group by status',
      `select kind, case when failed_at is not null then 'parked' when run_at <= now() then 'due' else 'scheduled' end as state,
              count(*)::int as n from jobs group by 1, 2`,
    ]) {
      const plan = await q(`explain (analyze, buffers) ${sql}`);
      console.log(`\n${sql.replace(/\s+/g, ' ')}`);
      for (const row of plan.rows) console.log(`  ${row['QUERY PLAN']}`);
    }

    for (const cacheMs of [15_000, 0]) {
      const metrics = new Metrics({ cacheMs });
      metrics.attach({ pool: database.pool });
      t = performance.now();
      const { reads, ms } = await scrapes(metrics);
      console.log(
        `\ncache ${cacheMs / 1000} s: ${SCRAPES} scrapes in ${(performance.now() - t).toFixed(0)} ms, ` +
          `${reads} database read(s); per scrape median ${median(ms).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms`,
      );
    }
  } finally {
    await database.close();
    await admin.query(`drop database ${name}`);
    await admin.end();
  }
}

await main();
