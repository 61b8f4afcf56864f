import { describe, expect, it } from 'vitest';
import { decodeDeviceJson } from './decode.ts';
import { DEVICE_LIMITS as L } from './limits.ts';
import { deviceEventSchema, helloSchema, liveStateSchema, replySchema, telemetrySchema } from './messages.ts';

const mac = 'AA:BB:CC:DD:EE:FF';
const hello = {
  sn: 'ABCDEF0123456789',
  model: 'BA-W1200C',
  type: 'ap',
  firmware: '4.2.0',
  capabilities: ['locate'],
  mac,
  ip: '10.0.0.2',
  mode: 1,
  revision: 0,
  uptime: 1,
  bootId: 'b',
  protocol: 1,
  ts: 1,
};
const client = (name = 'phone') => ({
  mac,
  name,
  ip: '10.0.0.3',
  kind: 'phone',
  wired: false,
  ssid: 'x'.repeat(32),
  band: '5G',
  rssi: -50,
  txRate: 1_000_000,
  rxRate: 1_000_000,
  txBytes: 9_007_199_254_740_991,
  rxBytes: 9_007_199_254_740_991,
  onlineSeconds: 100_000,
  vlan: 4094,
});
const port = (id: number) => ({
  id,
  type: 'electrical',
  enabled: true,
  link: true,
  speed: 10000,
  duplex: 'full',
  poe: { enabled: true, power: 30.5 },
  rxBytes: 9_007_199_254_740_991,
  txBytes: 9_007_199_254_740_991,
  rxRate: 1_000_000,
  txRate: 1_000_000,
  neighbour: 'N'.repeat(L.ID_CHARS),
});
const neighbour = { bssid: mac, sn: 'N'.repeat(L.ID_CHARS), channel: 165, width: 80, rssi: -40 };
const link = (over: Record<string, unknown> = {}) => ({
  port: L.PORTS,
  mac,
  sn: 'N'.repeat(L.ID_CHARS),
  name: 'n'.repeat(L.NAME_CHARS),
  remotePort: 'p'.repeat(L.PORT_ID_CHARS),
  role: 'switch',
  medium: 'wireless',
  speed: 400_000,
  rssi: -120,
  vlan: 4094,
  ...over,
});
const radio = { band: '5G', channel: 165, power: 29, utilisation: 100, noise: -95, clients: 128 };
const scanning = { ...radio, width: 80, neighbours: Array.from({ length: L.NEIGHBOURS }, () => neighbour) };
const telemetry = (over: Record<string, unknown> = {}) => ({
  ts: 1,
  uptime: 1,
  cpu: 1,
  memory: 1,
  clientCount: 0,
  clients: [],
  led: false,
  locating: false,
  ...over,
});
const state = { status: 1, revision: 0, configStatus: 'applied', mode: 1, operation: null, ts: 1 };
const event = { id: 'e', ts: 1, event: 'booted', level: 'info', message: 'm' };
const reply = { id: 'r', code: 0, ts: 1 };
const array = <T>(n: number, make: (i: number) => T) => Array.from({ length: n }, (_, i) => make(i));

describe('device message limits', () => {
  // Each bounded field: the limit itself passes, one more is refused.
  const cases: [string, { safeParse(v: unknown): { success: boolean } }, (n: number) => unknown, number][] = [
    [
      'hello capabilities',
      helloSchema,
      (n) => ({ ...hello, capabilities: array(n, () => 'c') }),
      L.CAPABILITIES,
    ],
    [
      'hello capability text',
      helloSchema,
      (n) => ({ ...hello, capabilities: ['c'.repeat(n)] }),
      L.CAPABILITY_CHARS,
    ],
    ['hello model', helloSchema, (n) => ({ ...hello, model: 'm'.repeat(n) }), 32],
    ['hello firmware', helloSchema, (n) => ({ ...hello, firmware: 'f'.repeat(n) }), 32],
    ['hello hardware', helloSchema, (n) => ({ ...hello, hardware: 'h'.repeat(n) }), 32],
    ['hello bootId', helloSchema, (n) => ({ ...hello, bootId: 'b'.repeat(n) }), L.ID_CHARS],
    [
      'state remote url',
      liveStateSchema,
      (n) => ({ ...state, remote: { state: 'open', url: 'u'.repeat(n) } }),
      L.URL_CHARS,
    ],
    [
      'telemetry clients',
      telemetrySchema,
      (n) => telemetry({ clients: array(n, () => client()) }),
      L.CLIENTS,
    ],
    [
      'telemetry client name',
      telemetrySchema,
      (n) => telemetry({ clients: [client('n'.repeat(n))] }),
      L.NAME_CHARS,
    ],
    ['telemetry ports', telemetrySchema, (n) => telemetry({ ports: array(n, (i) => port(i + 1)) }), L.PORTS],
    [
      'telemetry port neighbour',
      telemetrySchema,
      (n) => telemetry({ ports: [{ ...port(1), neighbour: 'n'.repeat(n) }] }),
      L.ID_CHARS,
    ],
    ['telemetry radios', telemetrySchema, (n) => telemetry({ radios: array(n, () => radio) }), L.RADIOS],
    [
      'telemetry radio neighbours',
      telemetrySchema,
      (n) => telemetry({ radios: [{ ...radio, neighbours: array(n, () => neighbour) }] }),
      L.NEIGHBOURS,
    ],
    [
      'telemetry mesh parent',
      telemetrySchema,
      (n) => telemetry({ mesh: { role: 'secondary', parent: 'p'.repeat(n), backhaulRssi: -60, hops: 1 } }),
      L.ID_CHARS,
    ],
    [
      'telemetry uplink',
      telemetrySchema,
      (n) => telemetry({ uplink: { sn: 's'.repeat(n), port: 1 } }),
      L.ID_CHARS,
    ],
    [
      'telemetry links',
      telemetrySchema,
      (n) => telemetry({ links: array(n, () => link()) }),
      L.LINK_NEIGHBOURS,
    ],
    [
      'telemetry link name',
      telemetrySchema,
      (n) => telemetry({ links: [link({ name: 'n'.repeat(n) })] }),
      L.NAME_CHARS,
    ],
    [
      'telemetry link remote port',
      telemetrySchema,
      (n) => telemetry({ links: [link({ remotePort: 'p'.repeat(n) })] }),
      L.PORT_ID_CHARS,
    ],
    [
      'telemetry link sn',
      telemetrySchema,
      (n) => telemetry({ links: [link({ sn: 's'.repeat(n) })] }),
      L.ID_CHARS,
    ],
    ['telemetry link port', telemetrySchema, (n) => telemetry({ links: [link({ port: n })] }), L.PORTS],
    ['event id', deviceEventSchema, (n) => ({ ...event, id: 'i'.repeat(n) }), L.ID_CHARS],
    ['event message', deviceEventSchema, (n) => ({ ...event, message: 'm'.repeat(n) }), L.TEXT_CHARS],
    // {"d":"…"} is 8 bytes around the text.
    ['event data', deviceEventSchema, (n) => ({ ...event, data: { d: 'x'.repeat(n - 8) } }), L.DATA_BYTES],
    ['reply id', replySchema, (n) => ({ ...reply, id: 'i'.repeat(n) }), L.ID_CHARS],
    ['reply message', replySchema, (n) => ({ ...reply, message: 'm'.repeat(n) }), L.TEXT_CHARS],
    ['hello revision', helloSchema, (n) => ({ ...hello, revision: n }), L.INT32_MAX],
    ['hello uptime', helloSchema, (n) => ({ ...hello, uptime: n }), L.INT32_MAX],
    ['telemetry client count', telemetrySchema, (n) => telemetry({ clientCount: n }), L.INT32_MAX],
    // The server works out the session start from it in SQL: no larger value makes a valid time.
    [
      'telemetry client seconds online',
      telemetrySchema,
      (n) => telemetry({ clients: [{ ...client(), onlineSeconds: n }] }),
      L.INT32_MAX,
    ],
    ['state config code', liveStateSchema, (n) => ({ ...state, configCode: n }), L.INT32_MAX],
    ['event time', deviceEventSchema, (n) => ({ ...event, ts: n }), L.TS_MAX],
    ['reply code', replySchema, (n) => ({ ...reply, code: n }), L.INT32_MAX],
    ['reply data', replySchema, (n) => ({ ...reply, data: { d: 'x'.repeat(n - 8) } }), L.DATA_BYTES],
  ];
  it.each(cases)('%s: the limit passes, one more is refused', (_, schema, make, limit) => {
    expect(schema.safeParse(make(limit)).success).toBe(true);
    expect(schema.safeParse(make(limit + 1)).success).toBe(false);
  });

  it('fits the largest valid telemetry into one MQTT packet', () => {
    const largest = telemetry({
      clients: array(L.CLIENTS, () => client('n'.repeat(L.NAME_CHARS))),
      ports: array(L.PORTS, (i) => port(i + 1)),
      radios: array(L.RADIOS, () => scanning),
      mesh: { role: 'secondary', parent: 'p'.repeat(L.ID_CHARS), backhaulRssi: -60, hops: 1 },
      uplink: { sn: 's'.repeat(L.ID_CHARS), port: 1 },
      links: array(L.LINK_NEIGHBOURS, () => link()),
      internet: { up: true, port: 1, speed: 10_000 },
      wan: { online: true, ip: '255.255.255.255', rxRate: 1, txRate: 1, rxBytes: 1, txBytes: 1 },
      poe: { budget: 370, used: 100, remaining: 270 },
    });
    expect(telemetrySchema.safeParse(largest).success).toBe(true);
    const topic = `dev/${'S'.repeat(32)}/up/telemetry`;
    expect(Buffer.byteLength(JSON.stringify(largest)) + topic.length + 8).toBeLessThan(L.MQTT_PACKET_BYTES);
  });
});

describe('decodeDeviceJson', () => {
  it('decodes JSON', () => {
    expect(decodeDeviceJson(Buffer.from('{"a":[1,"b"]}'))).toEqual({ ok: true, value: { a: [1, 'b'] } });
  });
  it.each([
    ['not JSON', 'not json', 'not JSON'],
    ['a raw NUL byte', '{"a":"x\0"}', 'not JSON'],
    ['an escaped NUL in a value', '{"a":["x\\u0000"]}', 'NUL character'],
    ['an escaped NUL in a key', '{"a\\u0000":1}', 'NUL character'],
    ['deep nesting', `${'['.repeat(100_000)}${']'.repeat(100_000)}`, 'nested too deep'],
  ])('refuses %s', (_, text, reason) => {
    expect(decodeDeviceJson(Buffer.from(text))).toEqual({ ok: false, reason });
  });
  it('refuses a payload over the packet limit before parsing it', () => {
    const big = Buffer.alloc(L.MQTT_PACKET_BYTES + 1, 0x20);
    expect(decodeDeviceJson(big)).toEqual({ ok: false, reason: 'too large' });
  });
});
