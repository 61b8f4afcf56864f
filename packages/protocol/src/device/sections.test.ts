import { describe, expect, it } from 'vitest';
import { NetworkDocument, type NetworkDocumentInput, validateNetworkDocument } from '../api/network.ts';
import { deviceConfigSchema, validateDeviceConfig } from './config.ts';
import { modelInfo } from './models.ts';
import { networkSegments, validateSegments, validateTunnelPeer } from './sections.ts';

const doc = (d: NetworkDocumentInput) => NetworkDocument.parse(d);
const BASE: NetworkDocumentInput = {
  wan: { type: 'static', ip: '203.0.113.10', mask: 24, gateway: '203.0.113.1' },
  lan: { ip: '192.168.1.1', mask: 24 },
  vlans: [{ id: 20, name: 'staff', ip: '10.20.0.1', mask: 24 }],
  guest: { ip: '192.168.50.1', mask: 24 },
};

describe('segments', () => {
  it('reads the networks in rule order and skips those without an address', () => {
    const kinds = networkSegments(
      doc({
        ...BASE,
        pptpClients: [
          {
            name: 'hq',
            server: 'vpn.example.com',
            username: 'u',
            password: 'p',
            remoteIp: '172.20.0.0',
            remoteMask: 16,
          },
        ],
        vlans: [...BASE.vlans!, { id: 30, name: 'l2' }],
      }),
    ).map((s) => s.kind);
    expect(kinds).toEqual(['lan', 'guest', 'pptp', 'vlan', 'wan']);
  });

  it('codes a VLAN / WAN clash by which one changed (119 or 127)', () => {
    const stored = doc(BASE);
    const vlanOnWan = doc({
      ...BASE,
      vlans: [...BASE.vlans!, { id: 30, name: 'x', ip: '203.0.113.5', mask: 24 }],
    });
    expect(validateNetworkDocument(vlanOnWan, { previous: stored })).toMatchObject({
      code: 119,
      path: 'vlans.1.ip',
    });
    // Without a stored revision, the WAN is read last: it is the subject.
    expect(validateNetworkDocument(vlanOnWan)).toMatchObject({ code: 127, path: 'wan.ip' });
    const wanOnVlan = doc({
      ...BASE,
      wan: { type: 'static', ip: '10.20.0.9', mask: 24, gateway: '10.20.0.254' },
    });
    expect(validateNetworkDocument(wanOnVlan, { previous: stored })).toMatchObject({
      code: 127,
      path: 'wan.ip',
    });
  });

  it('other pairs: the catalogue code whichever changed, 5042 where it has none', () => {
    const segs = networkSegments(doc({ ...BASE, guest: { ip: '10.20.0.99', mask: 24 } }));
    expect(validateSegments(segs)).toMatchObject({ code: 114, path: 'vlans.0.ip' });
    expect(validateSegments(segs, networkSegments(doc(BASE)))).toMatchObject({ code: 114, path: 'guest.ip' });
    const lanGuest = networkSegments(doc({ ...BASE, guest: { ip: '192.168.1.99', mask: 24 } }));
    expect(validateSegments(lanGuest)).toMatchObject({ code: 5042, path: 'guest.ip' });
  });
});

describe('tunnel peers', () => {
  it.each([
    ['vpn.example.com', null],
    ['198.51.100.7', null],
    ['', 16],
    ['999.1.1.1', 16],
    ['bad host!', 16],
    ['127.0.0.1', 16],
  ])('%s', (server, code) => {
    expect(validateTunnelPeer(server)?.code ?? null).toBe(code);
  });
});

describe('the device applies the same rules', () => {
  const gateway = modelInfo('BG-R1200')!;
  const ap = modelInfo('BA-W1200C')!;
  it('refuses a guest network on the LAN, and tunnels on a model without a WAN', () => {
    const onLan = deviceConfigSchema.parse({
      lan: { ip: '192.168.1.1', mask: 24 },
      guest: { ip: '192.168.1.9', mask: 24 },
    });
    expect(validateDeviceConfig(onLan, gateway)).toMatchObject({ code: 5042, path: 'guest.ip' });
    const tunnel = deviceConfigSchema.parse({
      l2tpServer: { ip: '10.80.0.1', mask: 24, startIp: '10.80.0.10', endIp: '10.80.0.20' },
    });
    expect(validateDeviceConfig(tunnel, gateway)).toBeNull();
    expect(validateDeviceConfig(tunnel, ap)).toMatchObject({ code: 2 });
  });
});
