import { describe, expect, it } from 'vitest';
import { DEVICE_TYPES } from '../enums/device.ts';
import {
  buildAsyncApi,
  busyCode,
  COMMAND_NAMES,
  COMMAND_PARAMS,
  COMMAND_RULES,
  commandSchema,
  DEVICE_MESSAGE_NAMES,
  deriveDeviceSecret,
  deviceConfigSchema,
  deviceTopics,
  helloSchema,
  isDeviceTopicAllowed,
  isLastWill,
  lastWillPayload,
  latestFirmware,
  MODEL_CATALOGUE,
  makeCommand,
  modelInfo,
  modelsOfType,
  parseDeviceTopic,
  parseTunnelTopic,
  replySchema,
  serverTunnelFilter,
  serverUpFilter,
  setTopicRoot,
  stateMessageSchema,
  upgradeCheck,
  validateDeviceConfig,
} from '../index.ts';
import { failureFromZod } from '../validators/zod.ts';

const SN = 'SIMAP00000000001';

describe('topics', () => {
  it('builds and parses every topic of a device', () => {
    const t = deviceTopics(SN);
    expect(t.hello).toBe(`dev/${SN}/up/hello`);
    expect(t.cmd).toBe(`dev/${SN}/down/cmd`);
    expect(parseDeviceTopic(t.reply)).toEqual({ sn: SN, direction: 'up', kind: 'reply' });
    expect(parseDeviceTopic(t.cmd)).toEqual({ sn: SN, direction: 'down', kind: 'cmd' });
    expect(parseDeviceTopic('dev/x/up/nope')).toBeNull();
    expect(parseDeviceTopic('dev/+/up/hello')).toBeNull();
    expect(parseDeviceTopic('other/a/up/hello')).toBeNull();
  });

  it('lets a device publish and subscribe only under its own dev/{sn}/', () => {
    expect(isDeviceTopicAllowed(SN, `dev/${SN}/up/state`, 'publish')).toBe(true);
    expect(isDeviceTopicAllowed(SN, `dev/${SN}/down/cmd`, 'subscribe')).toBe(true);
    expect(isDeviceTopicAllowed(SN, `dev/${SN}/down/cmd`, 'publish')).toBe(false);
    expect(isDeviceTopicAllowed(SN, `dev/${SN}/up/state`, 'subscribe')).toBe(false);
    expect(isDeviceTopicAllowed(SN, 'dev/SIMAP00000000002/up/state', 'publish')).toBe(false);
    expect(isDeviceTopicAllowed(SN, 'dev/+/down/cmd', 'subscribe')).toBe(false);
    expect(isDeviceTopicAllowed(SN, `dev/${SN}/#`, 'subscribe')).toBe(false);
    // The remote-management tunnel: answers up, requests down, only its own.
    expect(isDeviceTopicAllowed(SN, `dev/${SN}/up/http`, 'publish')).toBe(true);
    expect(isDeviceTopicAllowed(SN, `dev/${SN}/down/http`, 'subscribe')).toBe(true);
    expect(isDeviceTopicAllowed(SN, `dev/${SN}/down/http`, 'publish')).toBe(false);
    expect(isDeviceTopicAllowed(SN, 'dev/SIMAP00000000002/down/http', 'subscribe')).toBe(false);
    expect(isDeviceTopicAllowed(SN, 'dev/+/up/http', 'subscribe')).toBe(false);
  });

  it('puts every topic under another root when one is set, and refuses a root that is not one level', () => {
    try {
      setTopicRoot('staging');
      expect(deviceTopics(SN).state).toBe(`staging/${SN}/up/state`);
      expect(serverUpFilter()).toBe('staging/+/up/#');
      expect(serverTunnelFilter()).toBe('staging/+/up/http');
      expect(parseDeviceTopic(`staging/${SN}/up/event`)).toEqual({ sn: SN, direction: 'up', kind: 'event' });
      expect(parseTunnelTopic(`staging/${SN}/down/http`)).toEqual({ sn: SN, direction: 'down' });
      // The other root's devices are not ours, and a device cannot reach them.
      expect(parseDeviceTopic(`dev/${SN}/up/event`)).toBeNull();
      expect(isDeviceTopicAllowed(SN, `dev/${SN}/up/state`, 'publish')).toBe(false);
      expect(isDeviceTopicAllowed(SN, `staging/${SN}/up/state`, 'publish')).toBe(true);
      for (const bad of ['', 'a/b', '+', '#', '$SYS', 'x'.repeat(33), 'dev\u0000']) {
        expect(() => setTopicRoot(bad), bad).toThrow(/invalid MQTT topic root/);
      }
      expect(serverUpFilter()).toBe('staging/+/up/#');
    } finally {
      setTopicRoot('dev');
    }
    expect(deviceTopics(SN).cmd).toBe(`dev/${SN}/down/cmd`);
  });
});

describe('messages', () => {
  it('accepts a hello and refuses a bad serial number or MAC', () => {
    const hello = {
      sn: SN,
      model: 'BA-W1200C',
      type: 'ap',
      firmware: '4.2.0',
      capabilities: ['reboot'],
      mac: '02:BE:AC:01:02:03',
      ip: '10.16.0.5',
      mode: 1,
      revision: 0,
      uptime: 3,
      bootId: 'abc',
      protocol: 1,
      ts: Date.now(),
    };
    expect(helloSchema.safeParse(hello).success).toBe(true);
    expect(helloSchema.safeParse({ ...hello, sn: 'short' }).success).toBe(false);
    expect(helloSchema.safeParse({ ...hello, mac: '02-BE-AC-01-02-03' }).success).toBe(false);
    expect(helloSchema.safeParse({ ...hello, mode: 2 }).success).toBe(false);
  });

  it('tells a last will from a live state', () => {
    const will = stateMessageSchema.parse(lastWillPayload(1));
    expect(isLastWill(will)).toBe(true);
    const live = stateMessageSchema.parse({
      status: 8,
      revision: 3,
      configStatus: 'applied',
      mode: 1,
      operation: 'reboot',
      ts: 1,
    });
    expect(isLastWill(live)).toBe(false);
    expect(stateMessageSchema.safeParse({ ...live, status: 12 }).success).toBe(false);
  });

  it('checks replies', () => {
    expect(replySchema.safeParse({ id: 'c1', code: 0, ts: 1 }).success).toBe(true);
    expect(replySchema.safeParse({ id: '', code: 0, ts: 1 }).success).toBe(false);
  });
});

describe('commands', () => {
  it('has params and rules for every command', () => {
    for (const name of COMMAND_NAMES) {
      expect(COMMAND_PARAMS[name]).toBeDefined();
      expect(COMMAND_RULES[name]).toBeDefined();
    }
    expect(COMMAND_RULES.reboot.seconds).toBe(60);
    expect(COMMAND_RULES.reset.seconds).toBe(180);
    expect(COMMAND_RULES.upgrade.seconds).toBe(300);
    expect(COMMAND_RULES['poe-reboot'].seconds).toBe(120);
    expect(COMMAND_RULES['set-mode'].seconds).toBe(120);
  });

  it('parses commands with defaults and refuses bad ones with catalogue codes', () => {
    const locate = commandSchema.parse(makeCommand('locate', {}, 'c1'));
    expect(locate).toMatchObject({ name: 'locate', params: { seconds: 60 } });
    const weak = commandSchema.safeParse(makeCommand('set-password', { password: 'password' }, 'c2'));
    expect(weak.success).toBe(false);
    if (!weak.success) expect(failureFromZod(weak.error).code).toBe(6);
    expect(commandSchema.safeParse({ id: 'c3', name: 'selfdestruct', params: {} }).success).toBe(false);
    expect(commandSchema.safeParse(makeCommand('poe-reboot', { ports: [] }, 'c4')).success).toBe(false);
    expect(commandSchema.safeParse(makeCommand('set-mode', { mode: 'client' }, 'c5')).success).toBe(true);
  });

  it('answers busy codes: 71 upgrading, 5046 rebooting, 2010 another command', () => {
    expect(busyCode(3, 'upgrade')).toBe(71);
    expect(busyCode(4, 'upgrade')).toBe(71);
    expect(busyCode(8, 'reboot')).toBe(5046);
    expect(busyCode(7, 'apply-config')).toBe(2010);
    expect(busyCode(1, null)).toBeNull();
  });
});

describe('model catalogue', () => {
  it('has at least one model of every device type', () => {
    for (const type of DEVICE_TYPES) expect(modelsOfType(type).length).toBeGreaterThan(0);
  });

  it('is consistent: unique models and ports, ascending firmware, VLAN range, PoE budget only with PoE ports', () => {
    expect(new Set(MODEL_CATALOGUE.map((m) => m.model)).size).toBe(MODEL_CATALOGUE.length);
    for (const m of MODEL_CATALOGUE) {
      expect(new Set(m.ports.map((p) => p.id)).size).toBe(m.ports.length);
      expect([...m.firmware].sort((a, b) => (upgradeCheck(m, a, b) === 0 ? -1 : 1))).toEqual(m.firmware);
      expect(m.minVlan).toBeGreaterThanOrEqual(1);
      expect(m.maxVlan).toBeLessThanOrEqual(4094);
      expect(m.poeBudget > 0).toBe(m.ports.some((p) => p.poe));
    }
  });

  it('applies the upgrade rule: 37 unknown version, 38 not newer, 0 newer', () => {
    const ap = modelInfo('BA-W1200C')!;
    expect(latestFirmware(ap)).toBe('4.4.0');
    expect(upgradeCheck(ap, '4.2.0', '9.9.9')).toBe(37);
    expect(upgradeCheck(ap, '4.3.1', '4.2.0')).toBe(38);
    expect(upgradeCheck(ap, '4.3.1', '4.3.1')).toBe(38);
    expect(upgradeCheck(ap, '4.2.0', '4.4.0')).toBe(0);
  });
});

describe('configuration document', () => {
  const ap = modelInfo('BA-W1200C')!;
  const sw = modelInfo('BS-S1008P')!;
  const gw = modelInfo('BG-R1200')!;
  const check = (doc: unknown, info = ap) => validateDeviceConfig(deviceConfigSchema.parse(doc), info);
  const wifi = {
    name: 'staff',
    ssid: 'Staff',
    encryption: 2,
    cipher: 'aes',
    password: 'secret-pass',
    bands: ['2.4G', '5G'],
  };

  it('accepts a plausible document', () => {
    expect(
      check({
        wifi: [wifi],
        radios: [{ band: '5G', channel: 36, power: 20 }],
        vlans: [{ id: 10, name: 'staff' }],
      }),
    ).toBeNull();
    expect(
      check(
        {
          lan: { ip: '192.168.1.1', mask: 24 },
          wan: {
            type: 'static',
            ip: '203.0.113.10',
            mask: '255.255.255.0',
            gateway: '203.0.113.1',
            dns: ['1.1.1.1', '8.8.8.8'],
          },
          dhcpPools: [
            { name: 'lan', startIp: '192.168.1.100', endIp: '192.168.1.200', mask: 24, leaseMinutes: 1440 },
          ],
        },
        gw,
      ),
    ).toBeNull();
  });

  it('answers catalogue codes for SPEC.md §5 rules', () => {
    expect(check({ wifi: [{ ...wifi, password: 'short' }] })).toMatchObject({
      code: 6,
      path: 'wifi.0.password',
    });
    expect(check({ vlans: [{ id: 5, name: 'low' }] })).toMatchObject({ code: 16, path: 'vlans.0.id' });
    expect(
      check({
        vlans: [
          { id: 10, name: 'a' },
          { id: 10, name: 'b' },
        ],
      }),
    ).toMatchObject({ code: 111 });
    expect(check({ vlans: [{ id: 10, name: 'br0' }] })).toMatchObject({ code: 120 });
    expect(check({ radios: [{ band: '5G', power: 40 }] })).toMatchObject({
      code: 16,
      path: 'radios.0.power',
    });
    expect(check({ wifi: [wifi] }, sw)).toMatchObject({ code: 2, path: 'wifi' });
    expect(check({ ports: [{ id: 42 }] }, sw)).toMatchObject({ code: 16, path: 'ports.0.id' });
    expect(check({ wan: { type: 'dhcp', dns: ['1.1.1.1', '1.1.1.1'] } }, gw)).toMatchObject({ code: 110 });
    expect(
      check({ wan: { type: 'static', ip: '203.0.113.10', mask: 24, gateway: '198.51.100.1', dns: [] } }, gw),
    ).toMatchObject({ code: 121 });
    expect(
      check(
        { dhcpPools: [{ name: 'p', startIp: '10.0.0.50', endIp: '10.0.0.10', mask: 24, leaseMinutes: 60 }] },
        gw,
      ),
    ).toMatchObject({ code: 109 });
    expect(
      check(
        {
          lan: { ip: '192.168.1.1', mask: 24 },
          wan: { type: 'static', ip: '192.168.1.20', mask: 24, gateway: '192.168.1.254', dns: [] },
        },
        gw,
      ),
    ).toMatchObject({ code: 122 });
  });
});

describe('device secrets and AsyncAPI', () => {
  it('derives a stable per-device secret', async () => {
    const a = await deriveDeviceSecret('key', SN);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(await deriveDeviceSecret('key', SN)).toBe(a);
    expect(await deriveDeviceSecret('key', 'SIMAP00000000002')).not.toBe(a);
    expect(await deriveDeviceSecret('other', SN)).not.toBe(a);
  });

  it('documents every message and command', () => {
    const doc = buildAsyncApi() as {
      asyncapi: string;
      components: { messages: Record<string, unknown> };
      channels: Record<string, { address: string }>;
    };
    expect(doc.asyncapi).toBe('3.0.0');
    for (const name of DEVICE_MESSAGE_NAMES) expect(doc.components.messages[name], name).toBeDefined();
    for (const name of COMMAND_NAMES) expect(DEVICE_MESSAGE_NAMES).toContain(`cmd.${name}`);
    expect(Object.values(doc.channels).map((c) => c.address)).toEqual(
      expect.arrayContaining([
        'dev/{sn}/up/hello',
        'dev/{sn}/up/state',
        'dev/{sn}/up/telemetry',
        'dev/{sn}/up/event',
        'dev/{sn}/up/reply',
        'dev/{sn}/down/cmd',
      ]),
    );
  });
});
