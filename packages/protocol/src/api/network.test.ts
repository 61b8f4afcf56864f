import { describe, expect, it } from 'vitest';
import { NetworkDocument, type NetworkDocumentInput, validateNetworkDocument } from './network.ts';

const VALID: NetworkDocumentInput = {
  wan: { type: 'pppoe', username: 'user', password: 'secret', dns: ['1.1.1.1', '8.8.8.8'] },
  lan: { ip: '192.168.1.1', mask: '255.255.255.0' },
  vlans: [{ id: 20, name: 'staff', ip: '10.20.0.1', mask: 24, untagged: [2] }],
  dhcpPools: [
    { name: 'lan_pool', startIp: '192.168.1.100', endIp: '192.168.1.200', mask: 24, leaseMinutes: 1440 },
    { name: 'staff_pool', vlan: 20, startIp: '10.20.0.10', endIp: '10.20.0.20', mask: 24, leaseMinutes: 30 },
  ],
  managementVlan: 20,
};

const check = (doc: NetworkDocumentInput, gatewayPorts?: number[]) =>
  validateNetworkDocument(NetworkDocument.parse(doc), { gatewayPorts });

describe('validateNetworkDocument', () => {
  it('accepts a valid document, and the empty one', () => {
    expect(check(VALID, [2, 3, 4, 5])).toBeNull();
    expect(check({})).toBeNull();
  });

  it('names the failing field and its code', () => {
    expect(check({ ...VALID, lan: { ip: '192.168.1.0', mask: 24 } })).toMatchObject({
      code: 101,
      path: 'lan.ip',
    });
    expect(
      check({
        ...VALID,
        dhcpPools: [{ name: 'p', startIp: '10.0.0.9', endIp: '10.0.0.1', mask: 24, leaseMinutes: 60 }],
      }),
    ).toMatchObject({ code: 109, path: 'dhcpPools.0.startIp' });
    expect(check({ ...VALID, vlans: [{ id: 20, name: 'a', untagged: [7] }] }, [2, 3])).toMatchObject({
      code: 16,
      path: 'vlans.0.tagged',
    });
  });

  it('checks the VLAN range it is given (the narrowest of the project devices)', () => {
    const doc = NetworkDocument.parse({ vlans: [{ id: 5, name: 'low' }] });
    expect(validateNetworkDocument(doc)).toMatchObject({ code: 16, path: 'vlans.0.id' });
    expect(validateNetworkDocument(doc, { vlanRange: { min: 2, max: 4094 } })).toBeNull();
  });
});

describe('VLAN DHCP mode and L3 virtual interface', () => {
  const withVlan = (v: Record<string, unknown>) => ({
    ...VALID,
    vlans: [...VALID.vlans!, { id: 30, name: 'x', ...v }],
  });
  it.each([
    [{ ip: '10.30.0.1', dhcp: true, dhcpRelay: '10.20.0.5' }, 5011, 'vlans.1.dhcp'],
    [{ ip: '10.30.0.1', dhcp: true, dhcpSnooping: true }, 5011, 'vlans.1.dhcp'],
    [{ ip: '10.30.0.1', dhcpRelay: '10.20.0.5', dhcpSnooping: true }, 5011, 'vlans.1.dhcp'],
    [{ ip: '10.30.0.1', dhcpRelay: '10.20.0' }, 16, 'vlans.1.dhcpRelay'],
    [{ dhcpRelay: '10.20.0.5' }, 16, 'vlans.1.ip'],
    [{ ip: '10.30.0.1', l3: false }, 16, 'vlans.1.l3'],
    [{ dhcp: true, l3: false }, 16, 'vlans.1.l3'],
    [{ l3: true }, 16, 'vlans.1.l3'],
  ])('refuses %j with %i at %s', (v, code, path) => {
    expect(check(withVlan(v))).toMatchObject({ code, path });
  });
  it.each([
    [{ ip: '10.30.0.1', dhcp: true }],
    [{ ip: '10.30.0.1', dhcpRelay: '10.20.0.5', l3: true }],
    [{ dhcpSnooping: true, l3: false }],
    [{}],
  ])('accepts %j', (v) => {
    expect(check(withVlan(v))).toBeNull();
  });
});
