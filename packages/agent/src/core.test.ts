import { type CommandInput, commandSchema, makeCommand, modelInfo } from '@beacon/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { admitCommand } from './core.ts';
import { type TestDevice, testDevice, waitFor } from './testkit.ts';

let device: TestDevice | null = null;
afterEach(async () => {
  if (device) {
    expect(device.link.invalid).toEqual([]);
    await device.core.stop();
  }
  device = null;
});

const run = (d: TestDevice, cmd: CommandInput) => d.core.execute(commandSchema.parse(cmd));

describe('admission', () => {
  const ap = modelInfo('BA-W1200C')!;
  const cpe = modelInfo('BC-C5')!;
  const idle = { info: ap, status: 1, operation: null, mode: 1 };
  it('refuses while busy, for a missing capability and in local mode', () => {
    expect(admitCommand(idle, 'reboot')).toBe(0);
    expect(admitCommand({ ...idle, status: 8, operation: 'reboot' }, 'reboot')).toBe(5046);
    expect(admitCommand({ ...idle, status: 3, operation: 'upgrade' }, 'reset')).toBe(71);
    expect(admitCommand({ ...idle, status: 7, operation: 'apply-config' }, 'locate')).toBe(2010);
    expect(admitCommand(idle, 'poe-reboot')).toBe(2);
    expect(admitCommand(idle, 'set-mode')).toBe(2);
    expect(admitCommand({ ...idle, info: cpe }, 'set-mode')).toBe(0);
    expect(admitCommand({ ...idle, mode: 0 }, 'apply-config')).toBe(76);
    expect(admitCommand({ ...idle, mode: 0 }, 'reboot')).toBe(0);
    expect(admitCommand({ ...idle, mode: 0 }, 'local-management')).toBe(0);
  });
});

describe('device state machine', () => {
  it('announces itself on connection', async () => {
    device = await testDevice();
    expect(device.link.of('hello')[0]).toMatchObject({
      sn: 'TESTDEV000000001',
      model: 'BA-W1200C',
      type: 'ap',
      revision: 0,
      mode: 1,
    });
    expect(device.link.statuses()).toEqual([1]);
    expect(device.link.of('telemetry')).toHaveLength(1);
  });

  it('reboots: reply 0, state 8, a busy refusal, then a new boot with hello and state 1', async () => {
    device = await testDevice();
    const bootId = device.core.bootId;
    await run(device, makeCommand('reboot', {}, 'r1'));
    expect(device.link.reply('r1')).toMatchObject({ code: 0 });
    expect(device.core.status).toBe(8);
    await run(device, makeCommand('reset', {}, 'r2'));
    expect(device.link.reply('r2')).toMatchObject({ code: 5046 });
    await waitFor(() => device!.core.status === 1, 3000, 'reboot to finish');
    expect(device.link.statuses()).toEqual([1, 8, 1]);
    expect(device.link.of('hello')).toHaveLength(2);
    expect(device.core.bootId).not.toBe(bootId);
    expect(device.link.of('event').map((e) => e.event)).toContain('booted');
  });

  it('answers a repeated command id with the same reply, and an expired command with 5025', async () => {
    device = await testDevice();
    await run(device, makeCommand('led', { on: false }, 'x1'));
    await run(device, makeCommand('led', { on: true }, 'x1'));
    const replies = device.link.of('reply').filter((r) => r.id === 'x1');
    expect(replies).toHaveLength(2);
    expect(replies[1]).toEqual(replies[0]);
    expect(device.store.data.led).toBe(false);
    await run(device, makeCommand('locate', {}, 'x2', { expiresAt: Date.now() - 1 }));
    expect(device.link.reply('x2')).toMatchObject({ code: 5025 });
  });

  it('answers malformed commands with codes 19, 16 and the failed rule', async () => {
    device = await testDevice();
    await device.core.onMessage('{"id":"m1","name":');
    expect(device.link.reply('m1')).toMatchObject({ code: 19 });
    await device.core.onMessage(JSON.stringify({ id: 'm2', name: 'fly', params: {} }));
    expect(device.link.reply('m2')).toMatchObject({ code: 16 });
    await device.core.onMessage(JSON.stringify(makeCommand('set-password', { password: 'abcdefgh' }, 'm3')));
    expect(device.link.reply('m3')).toMatchObject({ code: 6 });
    await device.core.onMessage(
      JSON.stringify(makeCommand('set-password', { password: 'Str0ng!pass' }, 'm4')),
    );
    expect(device.link.reply('m4')).toMatchObject({ code: 0 });
    expect(device.store.checkPassword('Str0ng!pass')).toBe(true);
  });

  it('applies a valid configuration: state 7 while saving, then reply 0 and the new revision', async () => {
    device = await testDevice();
    const document = {
      wifi: [
        {
          name: 'staff',
          ssid: 'Staff',
          encryption: 2,
          cipher: 'aes' as const,
          password: 'secret-pass',
          bands: ['5G' as const],
        },
      ],
    };
    await run(device, makeCommand('apply-config', { revision: 4, document }, 'c1'));
    expect(device.link.reply('c1')).toMatchObject({ code: 0, data: { revision: 4 } });
    expect(device.core.revision).toBe(4);
    const states = device.link.of('state');
    expect(states.map((s) => [s.status, s.configStatus])).toEqual([
      [1, 'applied'],
      [7, 'applying'],
      [1, 'applied'],
    ]);
    expect(states.at(-1)).toMatchObject({ revision: 4 });
    await run(device, makeCommand('get-config', {}, 'c2'));
    expect(device.link.reply('c2')).toMatchObject({
      code: 0,
      data: { revision: 4, document: { wifi: [{ ssid: 'Staff' }] } },
    });
    await run(device, makeCommand('apply-config', { revision: 4, document }, 'c3'));
    expect(device.link.reply('c3')).toMatchObject({ code: 0, data: { changed: false } });
  });

  it('refuses an invalid configuration with its code and reports config status failed', async () => {
    device = await testDevice();
    await run(
      device,
      makeCommand('apply-config', { revision: 2, document: { vlans: [{ id: 10, name: 'IPTV' }] } }, 'c1'),
    );
    expect(device.link.reply('c1')).toMatchObject({ code: 120, data: { revision: 2, path: 'vlans.0.name' } });
    expect(device.core.revision).toBe(0);
    expect(device.link.of('state').at(-1)).toMatchObject({
      configStatus: 'failed',
      failedRevision: 2,
      configCode: 120,
      revision: 0,
    });
  });

  it('refuses configuration in local management mode with 76, and leaves it again', async () => {
    device = await testDevice();
    await run(device, makeCommand('local-management', { enabled: true }, 'l1'));
    expect(device.link.of('state').at(-1)).toMatchObject({ mode: 0 });
    await run(device, makeCommand('apply-config', { revision: 1, document: {} }, 'l2'));
    expect(device.link.reply('l2')).toMatchObject({ code: 76 });
    await run(device, makeCommand('local-management', { enabled: false }, 'l3'));
    await run(device, makeCommand('apply-config', { revision: 1, document: {} }, 'l4'));
    expect(device.link.reply('l4')).toMatchObject({ code: 0 });
  });

  it('upgrades: 37 and 38 refused; 4, 5, 3, offline, then hello with the new firmware, 2 and 1', async () => {
    device = await testDevice();
    await run(device, makeCommand('upgrade', { version: '9.9.9' }, 'u1'));
    expect(device.link.reply('u1')).toMatchObject({ code: 37 });
    await run(device, makeCommand('upgrade', { version: '4.2.0' }, 'u2'));
    expect(device.link.reply('u2')).toMatchObject({ code: 38 });
    const pending = run(device, makeCommand('upgrade', { version: '4.4.0' }, 'u3'));
    expect(device.link.reply('u3')).toMatchObject({ code: 0, data: { from: '4.2.0', to: '4.4.0' } });
    await run(device, makeCommand('reboot', {}, 'u4'));
    expect(device.link.reply('u4')).toMatchObject({ code: 71 });
    await pending;
    await waitFor(() => device!.core.status === 1, 3000, 'upgrade to finish');
    expect(device.link.suspensions).toBe(1);
    const statuses = device.link.statuses();
    expect(statuses.filter((s, i) => s !== statuses[i - 1])).toEqual([1, 4, 5, 3, 2, 1]);
    expect(device.link.of('hello').at(-1)).toMatchObject({ firmware: '4.4.0' });
    expect(device.store.data.firmware).toBe('4.4.0');
  });

  it('resets to factory settings: revision 0, state 8 then 1', async () => {
    device = await testDevice();
    await run(device, makeCommand('apply-config', { revision: 3, document: { name: 'lobby' } }, 'a'));
    await run(device, makeCommand('reset', {}, 'r'));
    expect(device.core.status).toBe(8);
    await waitFor(() => device!.core.status === 1, 3000, 'reset');
    expect(device.core.revision).toBe(0);
    expect(device.link.of('hello').at(-1)).toMatchObject({ revision: 0 });
    expect(device.link.of('event').map((e) => e.event)).toContain('reset-done');
  });

  it('power-cycles PoE ports without going offline; refuses non-PoE ports and models without PoE', async () => {
    device = await testDevice('BS-S1008P');
    await run(device, makeCommand('poe-reboot', { ports: [9] }, 'p1'));
    expect(device.link.reply('p1')).toMatchObject({ code: 16 });
    await run(device, makeCommand('poe-reboot', { ports: [1, 2] }, 'p2'));
    expect(device.link.reply('p2')).toMatchObject({ code: 0 });
    await run(device, makeCommand('poe-reboot', { ports: [2] }, 'p3'));
    expect(device.link.reply('p3')).toMatchObject({ code: 2010 });
    const t = device.core.telemetry();
    expect(t.ports?.filter((p) => p.id <= 2).every((p) => !p.link && p.poe?.power === 0)).toBe(true);
    expect(device.core.status).toBe(1);
    const ap = await testDevice('BA-W1200C', { sn: 'TESTDEV000000002' });
    await run(ap, makeCommand('poe-reboot', { ports: [1] }, 'p4'));
    expect(ap.link.reply('p4')).toMatchObject({ code: 2 });
    await ap.core.stop();
  });

  it('switches a CPE between AP and client mode with a restart', async () => {
    device = await testDevice('BC-C5');
    expect(device.link.of('hello')[0]).toMatchObject({ cpeMode: 'ap' });
    await run(device, makeCommand('set-mode', { mode: 'client' }, 's1'));
    expect(device.core.status).toBe(8);
    await waitFor(() => device!.core.status === 1, 3000, 'mode switch');
    expect(device.link.of('hello').at(-1)).toMatchObject({ cpeMode: 'client' });
  });

  it('serves the remote management page through the tunnel only, with its token', async () => {
    const d = await testDevice();
    device = d;
    await run(d, makeCommand('remote-management-open', {}, 'w1'));
    const data = d.link.reply('w1')!.data as { token: string; path: string; url?: string };
    // No address: the device listens nowhere, the page comes over its own link.
    expect(data.url).toBeUndefined();
    expect(data.path).toBe('/');
    expect(d.link.of('state').at(-1)).toMatchObject({ remote: { state: 'open' } });
    const ask = (token: string, rid: string) => {
      d.core.onTunnel(Buffer.from(JSON.stringify({ rid, token, method: 'GET', path: '/', ts: 1 })));
      const pieces = d.link.tunnel.filter((p) => p.rid === rid);
      return {
        status: pieces[0]?.status,
        body: Buffer.concat(pieces.map((p) => Buffer.from(p.body, 'base64'))).toString(),
      };
    };
    expect(ask('wrong', 'r1').status).toBe(401);
    const page = ask(data.token, 'r2');
    expect(page.status).toBe(200);
    expect(page.body).toContain('TESTDEV000000001');
    device.core.onTunnel(
      Buffer.from(JSON.stringify({ rid: 'r3', token: data.token, method: 'POST', path: '/' })),
    );
    expect(device.link.tunnel.find((p) => p.rid === 'r3')?.status).toBe(400);
    await run(device, makeCommand('remote-management-close', {}, 'w2'));
    expect(device.link.of('state').at(-1)).toMatchObject({ remote: { state: 'closed' } });
    expect(ask(data.token, 'r4').status).toBe(401);
  });
});

describe('live data', () => {
  it('reports telemetry that passes the schema for every model, with clients that come and go', async () => {
    for (const info of (await import('@beacon/protocol')).MODEL_CATALOGUE) {
      const d = await testDevice(info.model, {
        sn: `TEST${info.type.toUpperCase().padEnd(4, 'X')}000000001`,
      });
      for (let i = 0; i < 5; i++) {
        d.world.tick(Date.now() + i * 5000);
        d.core.publishTelemetry();
      }
      expect(d.link.invalid, info.model).toEqual([]);
      const t = d.link.of('telemetry').at(-1)!;
      if (info.poeBudget > 0) {
        const poe = t.poe as { used: number; budget: number };
        expect(poe.used).toBeLessThanOrEqual(poe.budget);
      }
      if (info.bands.length) expect(t.radios).toHaveLength(info.bands.length);
      await d.core.stop();
    }
  });
});

describe('Wi-Fi timer shutdown', () => {
  it('takes an SSID off the air during its period, in the document time zone, and reports it', async () => {
    // 07:59 in Berlin (UTC+1 in November).
    let now = Date.UTC(2026, 10, 25, 6, 59, 0);
    device = await testDevice('BA-W1200C', { clock: () => now });
    const wifi = (name: string, ssid: string, schedule: { start: string; end: string }[] = []) => ({
      name,
      ssid,
      encryption: 2,
      cipher: 'aes' as const,
      password: 'correct-horse',
      bands: ['2.4G' as const, '5G' as const],
      maxClients: 32,
      schedule,
    });
    const document = {
      timeZone: 'Europe/Berlin',
      wifi: [wifi('staff', 'Staff', [{ start: '08:00', end: '09:00' }]), wifi('guest', 'Guest')],
    };
    await run(device, makeCommand('apply-config', { revision: 1, document }, 'w1'));
    await waitFor(() => device!.link.reply('w1') !== undefined, 3000, 'applied');
    expect(device.link.reply('w1')).toMatchObject({ code: 0 });
    expect(device.core.runningWifi().map((w) => w.ssid)).toEqual(['Staff', 'Guest']);
    const reported = () =>
      (device!.link.of('telemetry').at(-1)?.ssids as { ssid: string }[] | undefined)?.map((s) => s.ssid);
    now += 60_000;
    await waitFor(() => reported()?.join() === 'Guest', 3000, 'Staff off at 08:00');
    now += 60 * 60_000;
    await waitFor(() => reported()?.join() === 'Staff,Guest', 3000, 'Staff back at 09:00');
    expect(device.link.of('telemetry').at(-1)?.ssids).toEqual([
      { ssid: 'Staff', bands: ['2.4G', '5G'] },
      { ssid: 'Guest', bands: ['2.4G', '5G'] },
    ]);
  });

  it('broadcasts nothing once a Wi-Fi section is empty, and the factory SSID before any', async () => {
    device = await testDevice();
    expect(device.core.runningWifi()).toEqual([{ ssid: 'Beacon-0001', bands: ['2.4G', '5G'] }]);
    await run(device, makeCommand('apply-config', { revision: 1, document: { wifi: [] } }, 'w2'));
    await waitFor(() => device!.link.reply('w2') !== undefined, 3000, 'applied');
    expect(device.core.runningWifi()).toEqual([]);
  });
});
