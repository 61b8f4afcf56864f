import { DEVICE_ROUTES } from '@beacon/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from './helpers/harness.ts';
import { startTestServer } from './helpers/harness.ts';

// The web client takes its paths and types from DEVICE_ROUTES; the server must serve each entry as
// declared there (method, path, and a body where the contract has one).

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

interface OpenApi {
  paths: Record<string, Record<string, { requestBody?: unknown }>>;
}

describe('the device route contract', () => {
  it('every DEVICE_ROUTES entry is a route of the server, with the same method and path', async () => {
    const res = await fetch(`${server.url}/api/v1/openapi.json`);
    const doc = (await res.json()) as OpenApi;
    const missing: string[] = [];
    for (const [name, route] of Object.entries(DEVICE_ROUTES)) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const operation = (doc.paths[`/api/v1${path}`] ?? doc.paths[path])?.[route.method.toLowerCase()];
      if (!operation) missing.push(`${name}: ${route.method} ${route.path}`);
    }
    expect(missing).toEqual([]);
  });
});
