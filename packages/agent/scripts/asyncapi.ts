/**
 * Writes docs/protocol/asyncapi.yaml from the zod schemas of packages/protocol/src/device.
 * `npm run asyncapi -w @beacon/agent`; `--check` exits 1 when the committed file is out of date.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderAsyncApi } from '../src/asyncapi.ts';

const file = resolve(dirname(fileURLToPath(import.meta.url)), '../../../docs/protocol/asyncapi.yaml');
const text = renderAsyncApi();
if (process.argv.includes('--check')) {
  const current = await readFile(file, 'utf8').catch(() => '');
  if (current !== text) {
    console.error(`${file} is out of date: run npm run asyncapi -w @beacon/agent`);
    process.exit(1);
  }
  console.log(`${file} is up to date`);
} else {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
  console.log(`wrote ${file}`);
}
