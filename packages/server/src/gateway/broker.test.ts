import { DEV_FACTORY_KEY, deriveDeviceSecret } from '@beacon/protocol';
import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { deviceSecret, EmbeddedBroker, guarded } from './broker.ts';

describe('deviceSecret', () => {
  it('computes what the protocol package (and so every device) derives', async () => {
    for (const sn of ['SIMAP00000000001', 'T0EDD4AL00000004', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345']) {
      expect(deviceSecret(DEV_FACTORY_KEY, sn)).toBe(await deriveDeviceSecret(DEV_FACTORY_KEY, sn));
      expect(deviceSecret('another-key', sn)).toBe(await deriveDeviceSecret('another-key', sn));
    }
  });
});

describe('retained messages of the embedded broker', () => {
  it('delivers a retained message to an exact and to a wildcard subscription, and nothing for another topic', async () => {
    const log = { info: () => {}, warn: () => {}, debug: () => {} };
    const broker = await EmbeddedBroker.start({
      port: 0,
      host: '127.0.0.1',
      serverUsername: 'server',
      serverPassword: 'secret',
      factoryKey: DEV_FACTORY_KEY,
      log,
    });
    const client = await mqtt.connectAsync(broker.url, { username: 'server', password: 'secret' });
    try {
      await client.publishAsync('dev/A/up/state', '{"status":1}', { qos: 1, retain: true });
      const received: string[] = [];
      client.on('message', (topic) => received.push(topic));
      await client.subscribeAsync('dev/A/up/state', { qos: 1 });
      await client.subscribeAsync('dev/B/up/state', { qos: 1 });
      await client.subscribeAsync('dev/+/up/#', { qos: 1 });
      await new Promise((r) => setTimeout(r, 200));
      expect(received).toEqual(['dev/A/up/state', 'dev/A/up/state']);
      // An empty retained payload removes it.
      await client.publishAsync('dev/A/up/state', '', { qos: 1, retain: true });
      await client.unsubscribeAsync(['dev/A/up/state', 'dev/+/up/#']);
      received.length = 0;
      await client.subscribeAsync('dev/A/up/state', { qos: 1 });
      await new Promise((r) => setTimeout(r, 200));
      expect(received).toEqual([]);
    } finally {
      await client.endAsync(true);
      await broker.close();
    }
  });
});

describe('guarded (our Aedes hooks)', () => {
  const log = { warn: () => {} };
  type Hook = (x: number, done: (err: Error | null, ok?: boolean) => void) => void;

  it('answers as failed, instead of throwing, when the hook throws before answering', () => {
    const answers: unknown[][] = [];
    const hook = guarded<Hook>(
      log,
      'test',
      () => {
        throw new Error('boom');
      },
      (done, err) => done(err, false),
    );
    expect(() => hook(1, (...a) => answers.push(a))).not.toThrow();
    expect(answers).toEqual([[new Error('boom'), false]]);
  });

  it('passes answers through, and rethrows what the callback (Aedes) throws after the answer', () => {
    const answers: unknown[][] = [];
    const ok = guarded<Hook>(
      log,
      'test',
      (x, done) => done(null, x > 0),
      (done, err) => done(err),
    );
    ok(1, (...a) => answers.push(a));
    expect(answers).toEqual([[null, true]]);
    const hook = guarded<Hook>(
      log,
      'test',
      (_x, done) => done(null, true),
      (done, err) => done(err),
    );
    expect(() =>
      hook(1, () => {
        throw new Error('from aedes');
      }),
    ).toThrow('from aedes');
  });
});
