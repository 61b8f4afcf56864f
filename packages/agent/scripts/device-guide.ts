/**
 * Writes docs/protocol/device-guide.md from packages/protocol (`npm run device-guide -w @beacon/agent`);
 * `--check` exits 1 when the committed file is out of date.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderDeviceGuide } from '../src/device-guide.ts';

const file = resolve(dirname(fileURLToPath(import.meta.url)), '../../../docs/protocol/device-guide.md');
const text = await renderDeviceGuide();
if (process.argv.includes('--check')) {
  if ((await readFile(file, 'utf8').catch(() => '')) !== text) {
    console.error(`${file} is out of date: run npm run device-guide -w @beacon/agent`);
    process.exit(1);
  }
  console.log(`${file} is up to date`);
} else {
  await writeFile(file, text);
  console.log(`wrote ${file}`);
}
