import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The web client takes every API path from the protocol's route tables (callRoute, uploadToRoute,
// routeUrl), never from a path typed by hand: only src/api/ knows where the API lives.

const SRC = path.resolve(import.meta.dirname, '..');
const API_DIR = path.join(SRC, 'api');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === API_DIR ? [] : sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

/** The string and template literals of `file` that name /api/v1 (comments do not count). */
function apiLiterals(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      if (node.text.includes('/api/v1') || node.text.includes('api/v1/')) {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push(`${path.relative(SRC, file)}:${line + 1}: ${JSON.stringify(node.text)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('API paths in the web client', () => {
  it('scans the sources (and would see a hand-written path)', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(20);
    const probe = path.join(API_DIR, 'paths.test.ts');
    expect(apiLiterals(probe).length).toBeGreaterThan(0);
  });

  // Parses every source file with the TypeScript compiler: seconds on a loaded runner.
  it("no '/api/v1' string outside src/api/: call routes with callRoute from the protocol tables", {
    timeout: 60_000,
  }, () => {
    const offenders = sourceFiles(SRC).flatMap(apiLiterals);
    expect(
      offenders,
      `${offenders.join('\n')}\nUse callRoute/uploadToRoute (src/api/route.ts) or routeUrl with an entry of a ` +
        'protocol *_ROUTES table (packages/protocol/src/api/<domain>-routes.ts) instead of a path typed by hand.',
    ).toEqual([]);
  });
});
