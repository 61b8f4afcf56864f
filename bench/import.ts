/**
 * bench/import — the time of one 500-row batch import (SPEC.md §5: at most 500 devices a file).
 *
 *   npm run bench:import -w @beacon/bench            (--runs 3)
 *
 * Starts the server as a child process (embedded PostgreSQL in a temporary DATA_DIR, DEMO=0), signs
 * up, then for each run creates a project and imports an xlsx of 500 pre-provisioned serial numbers
 * (SN and model, the devices never connected), timing the whole request: upload, the checks and
 * parse on the worker thread (src/devices/sheet-reader.ts), and the 500 rows bound in one
 * transaction. Prints JSON with every run, the median and the spread (paste into RESULTS.md).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as XLSX from '@e965/xlsx';
import { freePort } from '../packages/server/src/db/embedded.ts';
import { fleetSnPlan } from './plan.ts';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
const ROWS = 500;
const root = path.resolve(import.meta.dirname, '..');

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
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/v1/health`)).ok) break;
      } catch {}
      if (i > 600) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
    let cookie = '';
    const call = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
      const headers: Record<string, string> = cookie ? { cookie } : {};
      let payload: string | FormData | undefined;
      if (body instanceof FormData) payload = body;
      else if (body !== undefined) {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body);
      }
      const res = await fetch(`${base}/api/v1${p}`, { method, headers, body: payload });
      const token = res.headers.getSetCookie().find((c) => c.startsWith('token='));
      if (token) cookie = token.split(';')[0];
      const json = (await res.json()) as { code: number; data: T; message?: string };
      if (json.code !== 0) throw new Error(`${method} ${p}: ${json.code} ${json.message}`);
      return json.data;
    };
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
    const runs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const project = await call<{ id: number }>('POST', '/projects', {
        name: `Import${run}`,
        scenario: 'enterprise',
      });
      const rows = plan.slice(run * ROWS, (run + 1) * ROWS).map((d) => [d.sn, d.model]);
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
      const started = performance.now();
      const result = await call<{ added: number }>('POST', `/projects/${project.id}/devices/import`, form);
      runs.push(Math.round(performance.now() - started));
      if (result.added !== ROWS) throw new Error(`import added ${result.added} of ${ROWS}`);
    }
    const sorted = [...runs].sort((a, b) => a - b);
    console.log(
      JSON.stringify(
        {
          rows: ROWS,
          runsMs: runs,
          medianMs: sorted[Math.floor(sorted.length / 2)],
          spreadMs: sorted[sorted.length - 1] - sorted[0],
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
