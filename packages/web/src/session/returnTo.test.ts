import { PLATFORM_ROUTES, routeUrl } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import { carryNext, loginPathFor, nextFromSearch, safeNext } from './returnTo.ts';

const ORIGIN = 'https://console.example.com';

describe('return to the link after sign-in', () => {
  it('accepts in-app paths with their query and hash', () => {
    expect(safeNext('/manage/devconf', ORIGIN)).toBe('/manage/devconf');
    expect(safeNext('/invite/AbC123?x=1#h', ORIGIN)).toBe('/invite/AbC123?x=1#h');
  });

  it('refuses other origins, however they are spelled', () => {
    for (const raw of [
      'https://evil.example/',
      '//evil.example/path',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      '/%0d%0a//evil.example',
      ' /manage/devconf',
      '/\t/evil.example',
      'manage/devconf',
    ]) {
      const got = safeNext(raw, ORIGIN);
      if (got !== null) expect(new URL(got, ORIGIN).origin).toBe(ORIGIN);
    }
    expect(safeNext('https://evil.example/', ORIGIN)).toBeNull();
    expect(safeNext('//evil.example/path', ORIGIN)).toBeNull();
    expect(safeNext('/\\evil.example', ORIGIN)).toBeNull();
    expect(safeNext('javascript:alert(1)', ORIGIN)).toBeNull();
  });

  it('refuses sign-in screens (a loop), the API and the bare root', () => {
    expect(safeNext('/login', ORIGIN)).toBeNull();
    expect(safeNext('/signup?next=/x', ORIGIN)).toBeNull();
    expect(safeNext(routeUrl(PLATFORM_ROUTES.devOutbox), ORIGIN)).toBeNull();
    expect(safeNext('/', ORIGIN)).toBeNull();
    expect(safeNext('', ORIGIN)).toBeNull();
    expect(safeNext(null, ORIGIN)).toBeNull();
  });

  it('builds and reads the login link', () => {
    const login = loginPathFor('/invite/abc?y=2', ORIGIN);
    expect(login).toBe('/login?next=%2Finvite%2Fabc%3Fy%3D2');
    expect(nextFromSearch(login.slice('/login'.length), ORIGIN)).toBe('/invite/abc?y=2');
    expect(loginPathFor('/', ORIGIN)).toBe('/login');
    expect(carryNext('?next=%2Fmanage%2Fdevconf', ORIGIN)).toBe('?next=%2Fmanage%2Fdevconf');
    expect(carryNext('?next=https%3A%2F%2Fevil.example', ORIGIN)).toBe('');
  });
});
