#!/usr/bin/env node
// `npm test`: every test (unit, integration, end-to-end), then one closing line
// "N passed, N failed" that CI reads. Extra arguments go to Vitest (e.g. `npm test -- --project unit`).
//
// Without arguments, two Vitest runs, one after the other: unit and integration (their files in
// parallel, vitest.config.ts), then the browser tests (one file at a time against one server).
// E2E_BESIDE=1 runs the two side by side (about the time of the longer one), but on two cores the
// browser tests' pool devices then missed their timings (client list, VLAN push) in one run of three.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'beacon-vitest-'));
const extra = process.argv.slice(2);

const runs = extra.length
  ? [{ name: 'all', args: extra }]
  : [
      { name: 'unit-integration', args: ['--project', 'unit', '--project', 'integration'] },
      { name: 'e2e', args: ['--project', 'e2e'] },
    ];

/** One Vitest run; resolves with its exit status and the path of its JSON report. */
function vitest({ name, args }) {
  const report = path.join(tmp, `${name}.json`);
  const child = spawn(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...args],
    { cwd: root, stdio: 'inherit', env: process.env },
  );
  return new Promise((resolve) => child.on('close', (status) => resolve({ name, status, report })));
}

const results = [];
if (process.env.E2E_BESIDE === '1') {
  results.push(...(await Promise.all(runs.map(vitest))));
} else {
  for (const run of runs) results.push(await vitest(run));
}

/** A failure's first three lines that are not its stack: the message and a test's own diagnosis. */
const firstLines = (message) => {
  const lines = String(message).split('\n');
  // Vitest's timeout of a test or hook keeps the stack of the error it made when the test or hook
  // was registered, under that error's placeholder message: the JSON report has nothing else.
  if (lines[0] === 'Error: STACK_TRACE_ERROR') {
    const where = lines
      .find((l) => /\.test\.ts:\d+/.test(l))
      ?.trim()
      .replace(/^at /, '')
      .replace(`${root}/`, '');
    return `timed out (a test's or a hook's time limit; registered ${where ?? 'where the stack does not say'})`;
  }
  return lines
    .filter((l) => !/^\s+at /.test(l))
    .slice(0, 3)
    .join('\n      ');
};

let passed = 0;
let failed = 0;
let skipped = 0;
let flaky = 0;
for (const { name, status, report } of results) {
  if (!fs.existsSync(report)) {
    if (status !== 0) {
      console.log(`${name}: Vitest ended with status ${status} and no report`);
      failed += 1;
    }
    continue;
  }
  const json = JSON.parse(fs.readFileSync(report, 'utf8'));
  passed += json.numPassedTests ?? 0;
  // A file that fails to load has no failed test of its own: count it once.
  failed += json.numFailedTests || json.numFailedTestSuites || (status !== 0 ? 1 : 0);
  skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  for (const file of json.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      // A test that passed with failure messages passed on its retry: say so, with the first failure.
      if (t.status === 'passed' && t.failureMessages?.length) {
        // Three lines: a test's own diagnosis follows its assertion's message (e2e/rf.test.ts).
        const first = firstLines(t.failureMessages[0]);
        console.log(
          `FLAKY (passed on retry): ${path.relative(root, file.name)} > ${t.fullName}\n    first try: ${first}`,
        );
        flaky++;
      }
      if (t.status === 'failed') {
        console.log(`FAILED: ${path.relative(root, file.name)} > ${t.fullName}`);
        // Every try's first lines: the summary is often all of a CI log that is kept.
        for (const [i, m] of (t.failureMessages ?? []).entries()) {
          console.log(`    try ${i + 1}: ${firstLines(m)}`);
        }
      }
    }
  }
}
if (flaky) console.log(`${flaky} test(s) passed only on retry: see FLAKY above`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 && passed > 0 && results.every((r) => r.status === 0) ? 0 : 1);
