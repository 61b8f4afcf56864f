/**
 * bench/import — the time of one 500-row batch import (SPEC.md §5: at most 500 devices a file).
 *
 *   npm run bench:import -w @beacon/bench            (--runs 3)
 *
 * Starts the server as a child process (embedded PostgreSQL in a temporary DATA_DIR, DEMO=0), signs
 * up, then for each run creates a project and imports an xlsx of 500 pre-provisioned serial numbers
 * (SN and model, the devices never connected), timing the whole request: upload, the checks and
 * parse on the worker thread (src/devices/sheet-reader.ts), and the 500 rows bound in one
 * transaction; and, apart, the same file path with 500 rows the validation refuses (nothing bound).
 * Wall time and the server process's CPU time (all its threads; PostgreSQL not included) are
 * printed as JSON with every run, the median and the spread (paste into RESULTS.md).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { freePort } from '../packages/server/src/db/embedded.ts';
import { apiCaller, waitForHealth } from './http.ts';
import { fleetSnPlan } from './plan.ts';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
const ROWS = 500;
const root = path.resolve(import.meta.dirname, '..');

/** CPU (user + system, every thread: the worker threads too) of a process, in ms. */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-bench-'));
  fs.chmodSync(dataDir, 0o755);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      MQTT_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      DEMO: '0',
      DEV_OUTBOX: '1',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '100000',
      PUBLIC_URL: base,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitForHealth(base);
    const call = apiCaller(base);
    const email = `bench-import-${Date.now()}@example.com`;
    await call('POST', '/auth/codes', { email, purpose: 'signup' });
    const outbox = await call<{ body: string }[]>('GET', `/dev/outbox?email=${encodeURIComponent(email)}`);
    const code = outbox[0].body.match(/\b(\d{6})\b/)![1];
    await call('POST', '/auth/signup', {
      email,
      password: 'bench-pass-1',
      confirmPassword: 'bench-pass-1',
      code,
    });

    const plan = fleetSnPlan(ROWS * RUNS, ['ap', 'switch']);
    const upload = async (projectId: number, rows: string[][]) => {
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(
        book,
        XLSX.utils.aoa_to_sheet([['Serial number', 'Model'], ...rows]),
        'Devices',
      );
      const form = new FormData();
      form.append(
        'file',
        new Blob([new Uint8Array(XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }))]),
        'd.xlsx',
      );
      const cpu0 = cpuMs(server.pid!);
      const started = performance.now();
      const result = await call<{ added: number }>('POST', `/projects/${projectId}/devices/import`, form);
      return {
        ms: Math.round(performance.now() - started),
        cpuMs: cpuMs(server.pid!) - cpu0,
        added: result.added,
      };
    };
    const full: Array<{ ms: number; cpuMs: number }> = [];
    const fileOnly: Array<{ ms: number; cpuMs: number }> = [];
    for (let run = 0; run < RUNS; run++) {
      const project = await call<{ id: number }>('POST', '/projects', {
        name: `Import${run}`,
        scenario: 'enterprise',
      });
      // The file path alone: 500 rows the validation refuses (no device is looked up or bound).
      const refused = await upload(
        project.id,
        Array.from({ length: ROWS }, (_, i) => [`BAD-${i}`, '']),
      );
      if (refused.added !== 0) throw new Error('refused rows were added');
      fileOnly.push({ ms: refused.ms, cpuMs: refused.cpuMs });
      const rows = plan.slice(run * ROWS, (run + 1) * ROWS).map((d) => [d.sn, d.model]);
      const added = await upload(project.id, rows);
      if (added.added !== ROWS) throw new Error(`import added ${added.added} of ${ROWS}`);
      full.push({ ms: added.ms, cpuMs: added.cpuMs });
    }
    const summary = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return {
        runs: xs,
        median: sorted[Math.floor(sorted.length / 2)],
        spread: sorted[sorted.length - 1] - sorted[0],
      };
    };
    console.log(
      JSON.stringify(
        {
          rows: ROWS,
          load: os.loadavg().map((l) => Math.round(l * 10) / 10),
          importWallMs: summary(full.map((r) => r.ms)),
          importServerCpuMs: summary(full.map((r) => r.cpuMs)),
          fileOnlyWallMs: summary(fileOnly.map((r) => r.ms)),
          fileOnlyServerCpuMs: summary(fileOnly.map((r) => r.cpuMs)),
        },
        null,
        2,
      ),
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
