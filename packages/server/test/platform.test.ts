import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers/harness.ts';

describe('platform', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('answers health with the success envelope', async () => {
    const res = await server.client().get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      code: 0,
      data: { status: 'ok', database: 'up', broker: 'up', events: 'up' },
    });
  });

  it('answers an unknown API path with the error envelope and a request id', async () => {
    const res = await server.client().get('/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(5033);
    expect(res.body.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('serves the OpenAPI document', async () => {
    const res = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  });

  it('sends security headers', async () => {
    const res = await fetch(`${server.url}/api/v1/health`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('refuses a state-changing request from another site', async () => {
    const client = server.client();
    client.origin = 'https://evil.example';
    const res = await client.post('/auth/login', { account: 'a@b.cd', password: 'whatever' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(5035);
  });

  it('answers malformed JSON with code 19', async () => {
    const res = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{not json',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: number }).code).toBe(19);
  });
});
