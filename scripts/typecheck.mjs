#!/usr/bin/env node
// `npm run typecheck`: `tsc -p` on every package, as many at once as the machine has cores (tsc
// uses one). One after another, the six took ~100 s of CI's run on two cores.
// Each one's output is printed whole when it ends, so two never interleave; the exit status is
// 1 when any failed.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// The largest first: with two at a time, the server's check overlaps all the smaller ones.
const projects = ['packages/server', 'packages/web', 'e2e', 'bench', 'packages/agent', 'packages/protocol'];
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function check(project) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', project], { cwd: root });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('close', (status) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      console.log(`tsc -p ${project}: ${status === 0 ? 'ok' : `exit ${status}`} (${seconds} s)`);
      if (output.trim()) console.log(output.trimEnd());
      resolve(status === 0);
    });
  });
}

const queue = [...projects];
const results = [];
const lanes = Array.from(
  { length: Math.max(1, Math.min(os.availableParallelism(), queue.length)) },
  async () => {
    while (queue.length) results.push(await check(queue.shift()));
  },
);
await Promise.all(lanes);
process.exit(results.every(Boolean) ? 0 : 1);
