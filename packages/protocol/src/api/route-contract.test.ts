import { describe, expect, it } from 'vitest';
import { DEVICE_ROUTES } from './device-routes.ts';
import { routePath } from './route-contract.ts';

describe('routePath', () => {
  it('fills every :param, URI-encoded', () => {
    expect(routePath(DEVICE_ROUTES.action, { id: 1000000, sn: 'AB C/1', action: 'reboot' })).toBe(
      '/projects/1000000/devices/AB%20C%2F1/actions/reboot',
    );
  });

  it('refuses a path whose param has no value', () => {
    expect(() => routePath(DEVICE_ROUTES.get, { id: 1 })).toThrow(':sn');
  });
});
