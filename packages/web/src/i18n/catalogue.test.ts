import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = path.join(import.meta.dirname);

describe('en-US catalogue files', () => {
  it('no two files define the same top-level key', () => {
    const owners = new Map<string, string>();
    const files = [
      'en-US.json',
      ...(fs.existsSync(path.join(dir, 'en-US')) ? fs.readdirSync(path.join(dir, 'en-US')) : [])
        .filter((f) => f.endsWith('.json'))
        .map((f) => `en-US/${f}`),
    ];
    const clashes: string[] = [];
    for (const f of files) {
      const json = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>;
      for (const key of Object.keys(json)) {
        const owner = owners.get(key);
        if (owner) clashes.push(`${key}: ${owner} and ${f}`);
        owners.set(key, f);
      }
    }
    expect(clashes).toEqual([]);
  });
});
