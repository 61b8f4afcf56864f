import type dns from 'node:dns';
import { describe, expect, it } from 'vitest';
import { guardedLookup, proxiedLocation, proxyTarget, rawRemainder } from './remote-proxy.ts';

const page = 'http://127.0.0.1:8081/ui/index.html';
const target = (rest: string, query = '') => proxyTarget(page, rest, query)?.href ?? null;

describe('what the remote proxy may reach', () => {
  it('the named page itself and paths under its directory', () => {
    expect(target('')).toBe(page);
    expect(target('', '?a=1')).toBe(`${page}?a=1`);
    expect(target('app.css')).toBe('http://127.0.0.1:8081/ui/app.css');
    expect(target('img/logo%20big.png', '?v=2')).toBe('http://127.0.0.1:8081/ui/img/logo%20big.png?v=2');
  });

  it.each([
    '//evil.test/x',
    'http://evil.test/x',
    'http:evil.test/x',
    'javascript:alert(1)',
    'http:%2F%2Fevil.test/x',
    '%2F%2Fevil.test/x',
    '\\\\evil.test/x',
    '/\\evil.test/x',
    '../x',
    'a/../../x',
    '%2e%2e/x',
    '.%2E/x',
    '..%2Fx',
    'a%00b',
    '/x',
  ])('refuses %s', (rest) => expect(target(rest)).toBeNull());

  it('refuses every target of a stored address that is no longer acceptable', () => {
    expect(proxyTarget('http://169.254.169.254/', 'latest', '')).toBeNull();
    expect(proxyTarget('file:///etc/', 'passwd', '')).toBeNull();
  });

  it('takes the remainder raw from the request line', () => {
    expect(rawRemainder('/api/v1/remote/TOKEN/%2F%2Fh/x?q=1', 'TOKEN')).toEqual({
      rest: '%2F%2Fh/x',
      query: '?q=1',
    });
    expect(rawRemainder('/api/v1/remote/OTHER/x', 'TOKEN')).toBeNull();
  });

  it('passes on redirects inside the page only', () => {
    const from = new URL('http://127.0.0.1:8081/ui/a/b');
    expect(proxiedLocation(page, '../next?x=1', from, '/api/v1/remote/T/')).toBe('/api/v1/remote/T/next?x=1');
    expect(proxiedLocation(page, 'http://127.0.0.1:8081/admin', from, '/api/v1/remote/T/')).toBeNull();
    expect(proxiedLocation(page, '//evil.test/', from, '/api/v1/remote/T/')).toBeNull();
  });
});

describe('the lookup the proxy connects with', () => {
  /** A resolver answering fixed addresses, standing in for DNS. */
  const resolver = (addresses: string[]) =>
    ((_host: string, _options: unknown, callback: (e: null, a: dns.LookupAddress[]) => void) =>
      callback(
        null,
        addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
      )) as unknown as typeof dns.lookup;

  const lookup = (addresses: string[], all: boolean) =>
    new Promise<{ err: NodeJS.ErrnoException | null; result: unknown }>((resolve) =>
      guardedLookup(resolver(addresses))('device.example', { all }, (err, result) =>
        resolve({ err, result }),
      ),
    );

  it('passes loopback and private addresses on', async () => {
    expect((await lookup(['127.0.0.1'], false)).result).toBe('127.0.0.1');
    expect((await lookup(['10.0.0.5', '::1'], true)).result).toEqual([
      { address: '10.0.0.5', family: 4 },
      { address: '::1', family: 6 },
    ]);
  });

  it('refuses a name that resolves to the metadata service or another unroutable address', async () => {
    expect((await lookup(['169.254.169.254'], false)).err?.code).toBe('EUNROUTABLE');
    expect((await lookup(['10.0.0.5', 'fe80::1'], true)).err?.code).toBe('EUNROUTABLE');
    expect((await lookup(['0.0.0.0'], true)).err?.code).toBe('EUNROUTABLE');
  });
});
