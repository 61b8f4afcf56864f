import { CLIENT_FAILURE_MESSAGES, Codes, errorMessage } from '@beacon/protocol';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, createClient, isSignedOutError } from './client.ts';

type Answer = { status: number; body: string } | Error;

function setup(answer: Answer, token: string | null = null) {
  const calls: { url: string; init: RequestInit }[] = [];
  const onFailure = vi.fn();
  const fakeFetch = (async (url: string, init: RequestInit) => {
    calls.push({ url, init });
    if (answer instanceof Error) throw answer;
    return new Response(answer.body, { status: answer.status });
  }) as unknown as typeof fetch;
  const client = createClient({
    baseUrl: '/api/v1',
    fetch: fakeFetch,
    getToken: () => token,
    onFailure,
  });
  return { client, calls, onFailure };
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected a failure');
}

describe('api client', () => {
  it('unwraps the data of a success envelope', async () => {
    const { client, calls } = setup({ status: 200, body: '{"code":0,"data":{"id":7}}' });
    await expect(client.get('/projects/7', { query: { q: 'a b', page: 2, x: undefined } })).resolves.toEqual({
      id: 7,
    });
    expect(calls[0]!.url).toBe('/api/v1/projects/7?q=a+b&page=2');
    expect(calls[0]!.init.credentials).toBe('include');
    expect(calls[0]!.init.method).toBe('GET');
  });

  it('sends JSON with a Content-Type on mutating requests, and the bearer token when given', async () => {
    const { client, calls } = setup({ status: 200, body: '{"code":0,"data":null}' }, 'key123');
    await client.post('/auth/logout');
    await client.patch('/projects/1', { name: 'x' });
    const h0 = calls[0]!.init.headers as Record<string, string>;
    expect(h0['Content-Type']).toBe('application/json');
    expect(h0.Authorization).toBe('Bearer key123');
    expect(calls[0]!.init.body).toBe('{}');
    expect(calls[1]!.init.body).toBe('{"name":"x"}');
  });

  it('throws code, server message and fields for a failure envelope', async () => {
    const { client } = setup({
      status: 400,
      body: JSON.stringify({
        code: 16,
        message: 'Project name must be 1 to 16 characters',
        fields: { name: 'too long' },
        requestId: 'r1',
      }),
    });
    const e = await failure(client.post('/projects', {}));
    expect(e.kind).toBe('server');
    expect(e.code).toBe(16);
    expect(e.message).toBe('Project name must be 1 to 16 characters');
    expect(e.fields).toEqual({ name: 'too long' });
    expect(e.requestId).toBe('r1');
    expect(isSignedOutError(e)).toBe(false);
  });

  it('falls back to the catalogue message when a known code has none', async () => {
    const { client } = setup({ status: 409, body: '{"code":14}' });
    const e = await failure(client.patch('/account', {}));
    expect(e.message).toBe(errorMessage(14));
    expect(e.message).toMatch(/once per year/);
  });

  it('tells onFailure of each failed answer with the path it called (a lost project: 73/74)', async () => {
    const { client, onFailure } = setup({ status: 403, body: '{"code":74}' });
    const e = await failure(client.get('/projects/7/devices', { query: { page: 2 } }));
    expect(e.code).toBe(74);
    expect(onFailure).toHaveBeenCalledExactlyOnceWith(e, '/projects/7/devices?page=2');
    const ok = setup({ status: 200, body: '{"code":0,"data":1}' });
    await ok.client.get('/projects/7');
    expect(ok.onFailure).not.toHaveBeenCalled();
  });

  it('reads "Unknown error code N" for codes outside the catalogue', async () => {
    const { client } = setup({ status: 400, body: '{"code":4242,"message":"whatever"}' });
    const e = await failure(client.get('/x'));
    expect(e.code).toBe(4242);
    expect(e.message).toBe('Unknown error code 4242');
  });

  it('distinguishes a missing return code, a malformed answer and a network failure', async () => {
    const noCode = await failure(setup({ status: 200, body: '{"data":1}' }).client.get('/x'));
    expect(noCode.kind).toBe('noReturnCode');
    expect(noCode.message).toBe(CLIENT_FAILURE_MESSAGES.noReturnCode);

    const html = await failure(setup({ status: 200, body: '<html>oops</html>' }).client.get('/x'));
    expect(html.kind).toBe('malformed');
    expect(html.message).toBe(CLIENT_FAILURE_MESSAGES.malformed);

    const arr = await failure(setup({ status: 200, body: '[1,2]' }).client.get('/x'));
    expect(arr.kind).toBe('malformed');

    const strCode = await failure(setup({ status: 200, body: '{"code":"0"}' }).client.get('/x'));
    expect(strCode.kind).toBe('malformed');

    const net = await failure(setup(new TypeError('Failed to fetch')).client.get('/x'));
    expect(net.kind).toBe('network');
    expect(net.message).toBe(CLIENT_FAILURE_MESSAGES.network);

    const gateway = await failure(setup({ status: 502, body: 'Bad Gateway' }).client.get('/x'));
    expect(gateway.kind).toBe('network');

    const messages = new Set([noCode.message, html.message, net.message]);
    expect(messages.size).toBe(3);
  });

  it('reports 401 with code 9, 10, 70 or 5003 to the unauthorized handler only', async () => {
    // 70: a reset or a password change elsewhere ended every session of the account;
    // 5003: the session was displaced by a login elsewhere.
    for (const code of [
      Codes.TOKEN_MISSING,
      Codes.TOKEN_OLD,
      Codes.PASSWORD_MODIFIED,
      Codes.LOGIN_ELSEWHERE,
    ]) {
      const { client, onFailure } = setup({ status: 401, body: JSON.stringify({ code, message: 'm' }) });
      const e = await failure(client.get('/auth/session'));
      expect(e.code).toBe(code);
      expect(onFailure).toHaveBeenCalledExactlyOnceWith(e, '/auth/session');
      expect(isSignedOutError(e)).toBe(true);
    }
    const other = setup({ status: 401, body: '{"code":6,"message":"Password error"}' });
    expect(isSignedOutError(await failure(other.client.post('/auth/login', {})))).toBe(false);
    const forbidden = setup({ status: 403, body: '{"code":9}' });
    expect(isSignedOutError(await failure(forbidden.client.get('/x')))).toBe(false);
    const modifiedButForbidden = setup({ status: 403, body: '{"code":70}' });
    expect(isSignedOutError(await failure(modifiedButForbidden.client.get('/x')))).toBe(false);
  });

  it.each([
    [401, 9, true],
    [401, 10, true],
    [401, 70, true],
    [401, 5003, true],
    [401, 5001, false],
    [401, 6, false],
    [403, 70, false],
    [409, 36, false],
  ])('isSignedOutError: %i with code %i → %s', (status, code, expected) => {
    expect(isSignedOutError(new ApiError({ kind: 'server', code, status, message: 'm' }))).toBe(expected);
  });

  it('isSignedOutError: client-side failures and other errors are not signed out', () => {
    expect(isSignedOutError(new ApiError({ kind: 'network', code: null, message: 'm' }))).toBe(false);
    expect(isSignedOutError(new Error('x'))).toBe(false);
    expect(isSignedOutError(null)).toBe(false);
  });
});
