import { describe, expect, it } from 'vitest';
import { routeTableOf } from './routes.ts';

describe('routeTableOf', () => {
  it('derives connected, static and default routes from the running configuration', () => {
    const routes = routeTableOf({
      lan: { ip: '192.168.1.1', mask: 24 },
      vlans: [
        {
          id: 20,
          name: 'staff',
          ip: '10.20.0.1',
          mask: '255.255.0.0',
          dhcp: false,
          tagged: [],
          untagged: [],
        },
      ],
      wan: { type: 'static', ip: '203.0.113.10', mask: 24, gateway: '203.0.113.1', dns: [] },
      staticRoutes: [
        { name: 'lab', destination: '172.16.5.0', mask: 16, nextHop: '10.20.0.254', outPort: 3 },
      ],
    });
    expect(routes).toEqual([
      {
        destination: '192.168.1.0',
        mask: '255.255.255.0',
        gateway: '0.0.0.0',
        interface: 'br-lan',
        metric: 0,
        source: 'connected',
      },
      {
        destination: '10.20.0.0',
        mask: '255.255.0.0',
        gateway: '0.0.0.0',
        interface: 'vlan20',
        metric: 0,
        source: 'connected',
      },
      {
        destination: '203.0.113.0',
        mask: '255.255.255.0',
        gateway: '0.0.0.0',
        interface: 'wan',
        metric: 0,
        source: 'connected',
      },
      {
        destination: '0.0.0.0',
        mask: '0.0.0.0',
        gateway: '203.0.113.1',
        interface: 'wan',
        metric: 10,
        source: 'default',
      },
      {
        destination: '172.16.0.0',
        mask: '255.255.0.0',
        gateway: '10.20.0.254',
        interface: 'port3',
        metric: 1,
        source: 'static',
      },
    ]);
  });

  it('has no routes without a configuration', () => {
    expect(routeTableOf({})).toEqual([]);
  });
});
