import { modelInfo } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import { type LiveContext, LiveData, type PortNeighbour } from './live.ts';
import { rng } from './util.ts';

/** A switch's own DHCP server (decision 0043): it serves the hosts on its linked ports, up to its pool. */
describe('the DHCP clients of a switch', () => {
  const info = modelInfo('BS-S1008P')!;
  const neighbours = new Map<number, PortNeighbour>([
    [2, { kind: 'host' }],
    [3, { kind: 'camera' }],
    [4, { kind: 'switch', sn: 'OTHER' }],
  ]);
  const ctx = (dhcpServer: LiveContext['dhcpServer']): LiveContext => ({
    now: 10_000,
    bootedAt: 0,
    clients: [],
    siteClients: 7,
    led: true,
    locating: false,
    rateLimit: null,
    clientLimits: {},
    radios: [],
    dhcpServer,
  });

  it('reports none without a DHCP server, the hosts it serves with one, at most its pool', () => {
    const live = new LiveData(info, rng(3), neighbours, { role: null, parent: null });
    expect(live.build(ctx(null)).dhcpClientCount).toBeUndefined();
    expect(live.build(ctx({ poolSize: 100 })).dhcpClientCount).toBe(2);
    expect(live.build(ctx({ poolSize: 1 })).dhcpClientCount).toBe(1);
  });
});
