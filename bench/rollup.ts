/**
 * bench/rollup — the statistics rollup job at N devices (issue 16, decision 0075).
 *
 *   npx tsx bench/rollup.ts [N=100000] [--minutes 75] [--telemetry-min 5] [--runs-per-minute 1]
 *
 * Starts an embedded PostgreSQL in a temporary directory, runs the migrations and makes one project
 * of N APs in SQL (no fleet, no server). Then a virtual clock moves a minute at a time for
 * `--minutes`, from ten minutes before an hour: each minute the devices whose telemetry falls in it
 * (N / `--telemetry-min`) add one sample to their 5-minute rows exactly as ingest does (the additive
 * upsert of stats/merge.ts: one device row and five dimension rows — two radios, three SSIDs — each),
 * and the job's `rollUp` runs at that clock, as the server's job does every minute. Each run's time
 * per level and per top-list range is recorded (`rollUp`'s timings). Prints the runs' median, p90 and
 * max, the median of each part, and the slowest runs with their parts. Wall time of one serial
 * transaction: run it on a quiet machine. Not part of `npm test`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, runMigrations } from '../packages/server/src/db/client.ts';
import { freePort, startEmbeddedPostgres } from '../packages/server/src/db/embedded.ts';
import {
  DEVICE_MERGE,
  DEVICE_ROLLUP_COLUMNS,
  DIM_MERGE,
  DIM_ROLLUP_COLUMNS,
} from '../packages/server/src/stats/merge.ts';
import { maintainPartitions, rollUp } from '../packages/server/src/stats/rollup.ts';
import { opt } from './args.ts';
import { seedOwnerProject } from './seed.ts';

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 100_000);
const MINUTES = Number(opt('minutes', '75'));
const TELEMETRY_MIN = Number(opt('telemetry-min', '5'));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-rollup-'));
fs.chmodSync(dir, 0o755);
const pgDb = await startEmbeddedPostgres(path.join(dir, 'pg'), await freePort(), () => {});
const admin = connect(pgDb.url, 2);
const q = (text: string, params: unknown[] = []) => admin.pool.query(text, params);
const quantile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
};
try {
  await runMigrations(admin);
  const { projectId } = await seedOwnerProject(admin.pool, 'rollup', 'Rollup');
  await q(
    `insert into devices (sn, project_id, name, model, type, capabilities)
     select 'ROLL' || lpad(i::text, 7, '0'), $1, 'AP ' || i, 'BA-W1200C', 'ap', '["wifi"]'::jsonb
       from generate_series(0, $2::int - 1) i`,
    [projectId, N],
  );
  await q('analyze');
  const hour = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
  const start = hour - 10 * 60_000;
  await maintainPartitions(admin, new Date(start));
  const runs: { minute: number; total: number; parts: Record<string, number> }[] = [];
  for (let m = 0; m < MINUTES; m++) {
    const clock = start + m * 60_000;
    const bucket = new Date(Math.floor(clock / 300_000) * 300_000).toISOString();
    const slot = m % TELEMETRY_MIN;
    const devicesOf = `from generate_series(0, $2::int - 1) i where i % ${TELEMETRY_MIN} = ${slot}`;
    await q(
      `insert into stats_device_5m as t (${DEVICE_ROLLUP_COLUMNS})
       select $3::timestamptz, $1, 'ROLL' || lpad(i::text, 7, '0'), 1, 10 + (i % 50), 10 + (i % 50), 40, 40,
              i % 30, i % 30, 1000000 + i, 3000000 + i, null, null ${devicesOf}
       order by 3 ${DEVICE_MERGE}`,
      [projectId, N, bucket],
    );
    await q(
      `insert into stats_dim_5m as t (${DIM_ROLLUP_COLUMNS})
       select $3::timestamptz, $1, 'ROLL' || lpad(i::text, 7, '0'), k.kind, k.key, 1, i % 15, i % 15,
              100000 + i, 300000 + i
         from generate_series(0, $2::int - 1) i,
              (values ('radio', '2.4G'), ('radio', '5G'), ('ssid', 'Staff'), ('ssid', 'Guest'), ('ssid', 'IoT')) k(kind, key)
        where i % ${TELEMETRY_MIN} = ${slot}
        order by 3, 4, 5 ${DIM_MERGE}`,
      [projectId, N, bucket],
    );
    const parts: Record<string, number> = {};
    const t0 = performance.now();
    await admin.db.transaction((tx) => rollUp(tx, new Date(clock), { timings: parts }));
    runs.push({ minute: m, total: Math.round(performance.now() - t0), parts });
  }
  const totals = runs.map((r) => r.total);
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r.parts)))];
  const result = {
    date: new Date().toISOString(),
    machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? '?'}, Node ${process.version}`,
    devices: N,
    telemetryEveryMinutes: TELEMETRY_MIN,
    runs: runs.length,
    runMs: { median: quantile(totals, 0.5), p90: quantile(totals, 0.9), max: Math.max(...totals) },
    // What the job costs on average: seconds of its transaction per minute of the clock.
    secondsPerMinute: +(totals.reduce((a, b) => a + b, 0) / 1000 / runs.length).toFixed(2),
    partMedianMs: Object.fromEntries(
      keys.map((k) => [
        k,
        quantile(
          runs.map((r) => r.parts[k] ?? 0),
          0.5,
        ),
      ]),
    ),
    slowest: [...runs]
      .sort((a, b) => b.total - a.total)
      .slice(0, 5)
      .map((r) => ({ ...r, minute: r.minute - 10 })),
  };
  console.log(JSON.stringify(result, null, 2));
} finally {
  await admin.pool.end().catch(() => {});
  await pgDb.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
