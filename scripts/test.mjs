#!/usr/bin/env node
// `npm test`: every test (unit, integration, end-to-end), then one closing line
// "N passed, N failed" that CI reads. Extra arguments go to Vitest (e.g. `npm test -- --project unit`).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-vitest-')), 'report.json');
const args = [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report}`,
  ...process.argv.slice(2),
];
const run = spawnSync('npx', args, { cwd: root, stdio: 'inherit', env: process.env });

let passed = 0;
let failed = 0;
let skipped = 0;
let flaky = 0;
if (fs.existsSync(report)) {
  const json = JSON.parse(fs.readFileSync(report, 'utf8'));
  passed = json.numPassedTests ?? 0;
  // A file that fails to load has no failed test of its own: count it once.
  failed = json.numFailedTests || json.numFailedTestSuites || 0;
  skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  // A test that passed with failure messages passed on its retry: say so, with the first failure.
  for (const file of json.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'passed' && t.failureMessages?.length) {
        const first = String(t.failureMessages[0]).split('\n')[0];
        console.log(
          `FLAKY (passed on retry): ${path.relative(root, file.name)} > ${t.fullName}\n    first try: ${first}`,
        );
        flaky++;
      }
    }
  }
} else if (run.status !== 0) {
  failed = 1;
}
if (flaky) console.log(`${flaky} test(s) passed only on retry: see FLAKY above`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(run.status === 0 && failed === 0 && passed > 0 ? 0 : run.status || 1);
