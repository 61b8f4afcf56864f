import { describe, expect, it } from 'vitest';
import { deviceConfigSchema, validateDeviceConfig } from './config.ts';
import { dhcpPoolSize, dhcpServerConfigSchema, validateDhcpServerConfig } from './dhcp-server.ts';
import { modelInfo } from './models.ts';

const POOL = dhcpServerConfigSchema.parse({
  enabled: true,
  name: 'pool_1',
  startIp: '10.40.0.10',
  endIp: '10.40.0.59',
  mask: 24,
  leaseMinutes: 60,
});

describe('the DHCP server of a switch or an AP (decision 0043)', () => {
  it('accepts a valid pool and counts its addresses', () => {
    expect(validateDhcpServerConfig(POOL)).toBeNull();
    expect(dhcpPoolSize(POOL)).toBe(50);
  });

  it('only one of relay, snooping or server on the VLAN it serves (5011)', () => {
    const vlans = [
      { id: 40, dhcpRelay: '10.9.9.9' },
      { id: 41, dhcpSnooping: true },
      { id: 42, dhcp: true },
      { id: 43 },
    ];
    for (const vlan of [40, 41, 42]) {
      expect(validateDhcpServerConfig({ ...POOL, vlan }, { vlans })?.code).toBe(5011);
    }
    expect(validateDhcpServerConfig({ ...POOL, vlan: 43 }, { vlans })).toBeNull();
    // Served in the management VLAN when it names none; off: nothing is served.
    expect(validateDhcpServerConfig(POOL, { vlans, managementVlan: 41 })?.code).toBe(5011);
    expect(validateDhcpServerConfig({ ...POOL, enabled: false, vlan: 40 }, { vlans })).toBeNull();
  });

  it('a VLAN that does not exist (5013), VLAN 1 always does', () => {
    expect(validateDhcpServerConfig({ ...POOL, vlan: 77 }, { vlans: [] })).toMatchObject({
      code: 5013,
      path: 'vlan',
    });
    expect(validateDhcpServerConfig({ ...POOL, vlan: 1 }, { vlans: [] })).toBeNull();
  });

  it('the device takes it on a switch or an AP, not on a gateway (2)', () => {
    const doc = deviceConfigSchema.parse({ dhcpServer: POOL });
    expect(validateDeviceConfig(doc, modelInfo('BA-W1200C')!)).toBeNull();
    expect(validateDeviceConfig(doc, modelInfo('BS-S1008P')!)).toBeNull();
    expect(validateDeviceConfig(doc, modelInfo('BG-R1200')!)).toMatchObject({ code: 2, path: 'dhcpServer' });
    const bad = deviceConfigSchema.parse({ dhcpServer: { ...POOL, endIp: '10.40.0.5' } });
    expect(validateDeviceConfig(bad, modelInfo('BA-W1200C')!)).toMatchObject({
      code: 109,
      path: 'dhcpServer.startIp',
    });
  });
});
