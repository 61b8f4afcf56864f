/**
 * What each screen of the built web app makes the browser download, compressed as the server
 * sends it: index.html, then the entry's static imports, then the screen's lazy chunk with its
 * static imports (the Vite manifest's graph). Prints a Markdown table for bench/RESULTS.md.
 *
 *   npm run build && npm run bench:web-sizes -w @beacon/bench
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../packages/web/dist');

interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  isEntry?: boolean;
}
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;

/** Each screen and the module(s) its route loads lazily (App.tsx); the shell comes with every signed-in one. */
const SHELL = 'src/layout/MainLayout.tsx';
const ROUTES: Array<[string, string[]]> = [
  ['/login', ['src/features/auth/LoginPage.tsx']],
  ['/signup', ['src/features/auth/SignUpPage.tsx']],
  ['/reset-password', ['src/features/auth/ResetPasswordPage.tsx']],
  ['/overview/preview', [SHELL, 'src/features/projects/ProjectPreviewPage.tsx']],
  ['/overview/list', [SHELL, 'src/features/projects/ProjectListPage.tsx']],
  ['/manage/devconf', [SHELL, 'src/features/devices/DevicesPage.tsx']],
  ['/manage/authority', [SHELL, 'src/features/sharing/AuthorityPage.tsx']],
  ['/account', [SHELL, 'src/features/account/AccountPage.tsx']],
];

function closure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the manifest (a lazy import renamed?)`);
    seen.add(key);
    closure(chunk.imports ?? [], seen);
  }
  return seen;
}

function files(keys: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const key of keys) {
    out.add(manifest[key]!.file);
    for (const css of manifest[key]!.css ?? []) out.add(css);
  }
  return out;
}

const size = (file: string, ext: '' | '.br' | '.gz'): number => {
  const full = path.join(dist, file + ext);
  if (fs.existsSync(full)) return fs.statSync(full).size;
  // Small files are not precompressed: sent as they are.
  return fs.statSync(path.join(dist, file)).size;
};

const entry = Object.keys(manifest).find((k) => manifest[k]!.isEntry);
if (!entry) throw new Error('no entry in the manifest');
const kb = (n: number) => (n / 1024).toFixed(1);

console.log('| screen | files | raw KB | gzip KB | brotli KB |');
console.log('|---|---:|---:|---:|---:|');
for (const [route, lazy] of ROUTES) {
  const all = new Set(['index.html', ...files(closure([entry, ...lazy]))]);
  let raw = 0;
  let gz = 0;
  let br = 0;
  for (const f of all) {
    raw += size(f, '');
    gz += size(f, '.gz');
    br += size(f, '.br');
  }
  console.log(`| ${route} | ${all.size} | ${kb(raw)} | ${kb(gz)} | ${kb(br)} |`);
}
// A sanity check that the precompressed copies are what the server would send.
const sample = manifest[entry]!.file;
const ok = zlib
  .brotliDecompressSync(fs.readFileSync(path.join(dist, `${sample}.br`)))
  .equals(fs.readFileSync(path.join(dist, sample)));
if (!ok) throw new Error(`${sample}.br does not decompress to ${sample}`);
