import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Catalogue codes are written by name (Codes in packages/protocol), never as bare numbers. */

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const BARE = [
  /new AppError\(\s*-?\d/,
  /\bcode: -?[1-9]\d*\s*(,|}|$)/,
  /errorMessage\(\s*-?\d/,
  /\bcode === -?[1-9]\d*\b/,
];

describe('server sources', () => {
  it('name every catalogue code instead of writing its number', () => {
    const found: string[] = [];
    for (const file of sources(import.meta.dirname)) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
          if (BARE.some((re) => re.test(line))) {
            found.push(`${path.relative(import.meta.dirname, file)}:${i + 1}: ${line.trim()}`);
          }
        });
    }
    expect(found).toEqual([]);
  });
});
