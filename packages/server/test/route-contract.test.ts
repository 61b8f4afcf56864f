import * as protocol from '@beacon/protocol';
import { API_PREFIX, type RouteContract } from '@beacon/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegisteredRoute, registeredRoutes } from '../src/http/route-registry.ts';
import type { TestServer } from './helpers/harness.ts';
import { startTestServer } from './helpers/harness.ts';

// Every /api/v1 route is an entry of a `*_ROUTES` table exported from @beacon/protocol
// (docs/decisions/0040-every-route-a-contract-entry.md): the web client takes its paths and types
// from those entries, so the server must serve each entry exactly as declared — method, path and
// the entry's own schema objects — and nothing that no entry declares.

/** What to do when this test fails: said once, in every failure message. */
const HOW_TO_FIX = [
  'Every /api/v1 route must be an entry of a protocol route table:',
  '  1. declare it in packages/protocol/src/api/<domain>-routes.ts, in a `<DOMAIN>_ROUTES = { … } as const',
  '     satisfies Record<string, RouteContract>` table (copy device-routes.ts: method, path relative to',
  '     /api/v1 with :params, params, query, body, response — or raw for a file/WebSocket answer);',
  '  2. export the table from packages/protocol/src/index.ts (`export * from "./api/<domain>-routes.ts"`);',
  '  3. register the route from that entry on the server — path `R.x.path`, `params: R.x.params`,',
  '     `querystring: R.x.query`, `body: R.x.body`, `response: { 200: envelope(R.x.response) }`',
  '     (see packages/server/src/devices/routes.ts); never a copied schema or a hand-written path;',
  '  4. call it from the web with callRoute/uploadToRoute (packages/web/src/api/route.ts).',
  'See docs/adding-a-capability.md.',
].join('\n');

/** Every exported `*_ROUTES` object of protocol that is a route table (arrays such as TOP_LEVEL_ROUTES are screens). */
function routeTables(): [string, Record<string, RouteContract>][] {
  return Object.entries(protocol).filter(
    (e): e is [string, Record<string, RouteContract>] =>
      e[0].endsWith('_ROUTES') && typeof e[1] === 'object' && e[1] !== null && !Array.isArray(e[1]),
  );
}

interface Declared {
  name: string;
  route: RouteContract;
}

const keyOf = (method: string, url: string) => `${method} ${url}`;

/** The data schema inside a registered success envelope `{ code: 0, data }` (ok() of protocol). */
function envelopeData(schema: unknown): unknown {
  const shape = (schema as { shape?: { data?: unknown } } | undefined)?.shape;
  return shape && 'data' in shape ? shape.data : schema;
}

/** How a registered route differs from its entry (empty when it is registered from the entry). */
function schemaMismatches(entry: RouteContract, route: RegisteredRoute): string[] {
  const s = route.schema ?? {};
  const out: string[] = [];
  const same = (what: string, registered: unknown, declared: unknown) => {
    if (registered !== declared) {
      out.push(
        declared === undefined
          ? `${what}: registered with a schema its entry does not declare`
          : registered === undefined
            ? `${what}: the entry declares a schema the server does not register`
            : `${what}: registered with another schema object than the entry's`,
      );
    }
  };
  same('params', s.params, entry.params);
  same('querystring (entry.query)', s.querystring, entry.query);
  same('body', s.body, entry.body);
  const response = s.response?.[200] ?? s.response?.['200'];
  same(
    'response 200 (entry.response, inside envelope())',
    response && envelopeData(response),
    entry.response,
  );
  if (entry.raw === 'websocket' && !route.websocket) out.push('raw: websocket, but not a WebSocket route');
  if (entry.raw !== 'websocket' && route.websocket)
    out.push('a WebSocket route whose entry is not raw: websocket');
  return out;
}

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('the route contract', () => {
  it('finds the route tables exported from protocol', () => {
    const names = routeTables().map(([name]) => name);
    for (const expected of [
      'ACCOUNT_ROUTES',
      'AUTH_ROUTES',
      'CONFIG_ROUTES',
      'DEVICE_ROUTES',
      'PLATFORM_ROUTES',
      'PROJECT_ROUTES',
      'SHARING_ROUTES',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it('every /api/v1 route of the server is an entry of a table, registered with the entry’s own schemas', () => {
    const declared = new Map<string, Declared>();
    const duplicates: string[] = [];
    for (const [table, entries] of routeTables()) {
      for (const [name, route] of Object.entries(entries)) {
        const key = keyOf(route.method, `${API_PREFIX}${route.path}`);
        const other = declared.get(key);
        if (other) duplicates.push(`${key}: declared by both ${other.name} and ${table}.${name}`);
        declared.set(key, { name: `${table}.${name}`, route });
      }
    }
    expect(duplicates, `${duplicates.join('\n')}\nA route has exactly one entry.`).toEqual([]);

    const registered = registeredRoutes(server.app).filter((r) => r.url.startsWith(`${API_PREFIX}/`));
    const gets = new Set(registered.filter((r) => r.method === 'GET').map((r) => r.url));
    const problems: string[] = [];
    const served = new Set<string>();
    for (const route of registered) {
      // Fastify adds HEAD to every GET by itself.
      if (route.method === 'HEAD' && gets.has(route.url)) continue;
      const key = keyOf(route.method, route.url);
      served.add(key);
      const entry = declared.get(key);
      if (!entry) {
        problems.push(`${key}: the server registers it, but no *_ROUTES table of protocol declares it`);
        continue;
      }
      for (const m of schemaMismatches(entry.route, route)) problems.push(`${key} (${entry.name}): ${m}`);
    }
    for (const [key, entry] of declared) {
      if (!served.has(key))
        problems.push(`${key} (${entry.name}): declared, but the server does not register it`);
    }
    expect(problems, `${problems.join('\n')}\n\n${HOW_TO_FIX}`).toEqual([]);
  });
});
