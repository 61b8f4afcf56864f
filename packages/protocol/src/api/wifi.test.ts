import { describe, expect, it } from 'vitest';
import type { FrequencyBand } from '../enums/wireless.ts';
import {
  associatedRadios,
  deviceBandsFor,
  normaliseWifiPolicy,
  validateWifiDocument,
  WifiDocument,
  WifiPolicy,
} from './wifi.ts';

const policy = (extra: Record<string, unknown> = {}) =>
  WifiPolicy.parse({
    name: 'staff',
    ssid: 'Staff',
    encryption: 2,
    cipher: 'aes',
    password: 'correct-horse',
    bands: ['2.4G', '5G'],
    ...extra,
  });

describe('Wi-Fi policies', () => {
  it.each([
    [
      ['2.4G', '5G'],
      ['2.4G', '5G'],
      ['2.4G', '5G'],
    ],
    [['5G'], ['2.4G', '5G-1', '5G-2'], ['5G-1', '5G-2']],
    [['5G-1'], ['2.4G', '5G'], []],
    [['2.4G'], ['5G'], []],
  ] as const)('%j on a device with %j runs on %j', (policyBands, deviceBands, expected) =>
    expect(deviceBandsFor(policyBands, deviceBands)).toEqual(expected),
  );

  it('normalises what the encryption implies: WPA-PSK turns signal extension off', () => {
    expect(
      normaliseWifiPolicy(policy({ encryption: 1, cipher: 'tkip', signalExtension: true })),
    ).toMatchObject({
      signalExtension: false,
    });
    expect(normaliseWifiPolicy(policy({ encryption: 0, password: 'x' }))).toMatchObject({
      password: '',
      cipher: null,
    });
    expect(
      normaliseWifiPolicy(
        policy({ encryption: 2, radius: { ip: '10.0.0.1', port: 1812, password: 'x' }, guestRateKbps: 5 }),
      ),
    ).toMatchObject({ radius: null, guestRateKbps: 0 });
  });

  it('reports a clash on the policy being edited (focus), not on the one it clashes with', () => {
    const doc = WifiDocument.parse({ policies: [policy(), policy({ name: 'other', ssid: 'Staff' })] });
    expect(validateWifiDocument(doc)?.path).toBe('policies.1.ssid');
    expect(validateWifiDocument(doc, { focus: 0 })).toMatchObject({ code: 24, path: 'policies.0.ssid' });
    expect(validateWifiDocument(doc, { mesh: true })).toMatchObject({ code: 89 });
  });
});

describe('associated RF (SPEC.md §3)', () => {
  const devices = [
    { sn: 'A1', bands: ['2.4G', '5G'] as FrequencyBand[] },
    { sn: 'A2', bands: ['2.4G', '5G'] as FrequencyBand[] },
    { sn: 'T1', bands: ['2.4G', '5G-1', '5G-2'] as FrequencyBand[] },
    { sn: 'O1', bands: ['2.4G'] as FrequencyBand[] },
  ];
  it('counts the radios a policy is on, 5G standing for both halves of a tri-band AP', () => {
    expect(associatedRadios({ scope: 'all', devices: [], bands: ['5G'] }, devices)).toEqual([
      { band: '5G', devices: 2 },
      { band: '5G-1', devices: 1 },
      { band: '5G-2', devices: 1 },
    ]);
    expect(associatedRadios({ scope: 'all', devices: [], bands: ['2.4G', '5G-2'] }, devices)).toEqual([
      { band: '2.4G', devices: 4 },
      { band: '5G-2', devices: 1 },
    ]);
  });
  it('only on the chosen devices, and none when they lack the bands', () => {
    expect(associatedRadios({ scope: 'devices', devices: ['a1', 'O1'], bands: ['2.4G'] }, devices)).toEqual([
      { band: '2.4G', devices: 2 },
    ]);
    expect(associatedRadios({ scope: 'devices', devices: ['O1'], bands: ['5G'] }, devices)).toEqual([]);
  });
});
