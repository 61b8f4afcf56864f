import { describe, expect, it } from 'vitest';
import * as protocol from '../index.ts';
import { DEVICE_ROUTES } from './device-routes.ts';
import { type RouteContract, routePath, routeUrl } from './route-contract.ts';

describe('routePath', () => {
  it('fills every :param, URI-encoded', () => {
    expect(routePath(DEVICE_ROUTES.action, { id: 1000000, sn: 'AB C/1', action: 'reboot' })).toBe(
      '/projects/1000000/devices/AB%20C%2F1/actions/reboot',
    );
  });

  it('routeUrl puts /api/v1 in front', () => {
    expect(routeUrl(DEVICE_ROUTES.importTemplate)).toBe('/api/v1/devices/import-template');
  });

  it('refuses a path whose param has no value', () => {
    expect(() => routePath(DEVICE_ROUTES.get, { id: 1 })).toThrow(':sn');
  });
});

/** Every exported route table (`*_ROUTES` objects; arrays such as TOP_LEVEL_ROUTES list screens). */
const tables = Object.entries(protocol).filter(
  (e): e is [string, Record<string, RouteContract>] =>
    e[0].endsWith('_ROUTES') && typeof e[1] === 'object' && e[1] !== null && !Array.isArray(e[1]),
);
const entries = tables.flatMap(([table, routes]) =>
  Object.entries(routes).map(([name, route]) => [`${table}.${name}`, route] as const),
);

describe('the route tables', () => {
  it('are found in the protocol index', () => {
    expect(tables.map(([name]) => name)).toEqual(expect.arrayContaining(['DEVICE_ROUTES', 'AUTH_ROUTES']));
  });

  it.each(entries)('%s: a path below /api/v1 whose :params are exactly its params schema', (_, route) => {
    expect(route.path).toMatch(/^\/[\w\-./:*]*$/);
    expect(route.path.startsWith('/api/')).toBe(false);
    const inPath = [...route.path.matchAll(/:(\w+)|(\*)/g)].map((m) => m[1] ?? m[2]).sort();
    const shape = (route.params as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
    expect(Object.keys(shape).sort()).toEqual(inPath);
  });

  it.each(entries)('%s: answers either the envelope (response) or something raw, not both', (_, route) => {
    expect((route.response === undefined) !== (route.raw === undefined)).toBe(true);
  });
});
