import { describe, expect, it } from 'vitest';
import { proxiedLocation, rawRemainder, tunnelTarget } from './remote-proxy.ts';

const page = '/ui/index.html';
const target = (rest: string, query = '') => tunnelTarget(page, rest, query);

describe('what the remote proxy may ask the device for', () => {
  it('the named page itself and paths under its directory', () => {
    expect(target('')).toBe(page);
    expect(target('', '?a=1')).toBe(`${page}?a=1`);
    expect(target('app.css')).toBe('/ui/app.css');
    expect(target('img/logo%20big.png', '?v=2')).toBe('/ui/img/logo%20big.png?v=2');
    expect(tunnelTarget('/', 'status.json', '')).toBe('/status.json');
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

  it('takes the remainder raw from the request line', () => {
    expect(rawRemainder('/api/v1/remote/TOKEN/%2F%2Fh/x?q=1', 'TOKEN')).toEqual({
      rest: '%2F%2Fh/x',
      query: '?q=1',
    });
    expect(rawRemainder('/api/v1/remote/OTHER/x', 'TOKEN')).toBeNull();
  });

  it('passes on redirects inside the page only', () => {
    const from = '/ui/a/b';
    expect(proxiedLocation(page, '../next?x=1', from, '/api/v1/remote/T/')).toBe('/api/v1/remote/T/next?x=1');
    expect(proxiedLocation(page, '/admin', from, '/api/v1/remote/T/')).toBeNull();
    expect(proxiedLocation(page, 'http://127.0.0.1:8081/ui/x', from, '/api/v1/remote/T/')).toBeNull();
    expect(proxiedLocation(page, '//evil.test/', from, '/api/v1/remote/T/')).toBeNull();
  });
});
