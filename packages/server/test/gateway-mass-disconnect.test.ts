import { DEV_FACTORY_KEY, downTopic, serverUpFilter, upTopic } from '@beacon/protocol';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceSecret, EmbeddedBroker } from '../src/gateway/broker.ts';

/**
 * The end of a 10,000-device benchmark (bench/RESULTS.md): every device reports itself offline
 * (a retained state) and disconnects at once while the server, busy writing, reads its link slowly.
 * Aedes then had messages waiting in its emitter's queue (mqemitter, 100 in flight at most), among
 * them two per leaving device that nobody subscribes to ($SYS/…/new/unsubscribes and
 * $SYS/…/disconnect/clients); those finish synchronously, and the queue was drained recursively
 * (released → _do → fastparallel → released …) until "Maximum call stack size exceeded" escaped as
 * an uncaught exception, which stops the server. 1,500 devices were enough with the server's
 * subscriber paused for a moment; 2,000 are used here (four runs out of four overflowed with
 * Aedes' default concurrency of 100; broker.ts now sets 0).
 */
const N = 2000;
const PAUSE_MS = 1500;

const sn = (i: number) => `SIMAP${String(i).padStart(11, '0')}`;

describe('embedded broker: a mass disconnect', () => {
  let broker: EmbeddedBroker;
  const uncaught: Error[] = [];
  const onUncaught = (err: Error) => uncaught.push(err);

  beforeAll(async () => {
    process.on('uncaughtException', onUncaught);
    const log = { info: () => {}, warn: () => {}, debug: () => {} };
    broker = await EmbeddedBroker.start({
      port: 0,
      host: '127.0.0.1',
      serverUsername: 'server',
      serverPassword: 'secret',
      factoryKey: DEV_FACTORY_KEY,
      log,
    });
  });

  afterAll(async () => {
    await broker?.close();
    process.off('uncaughtException', onUncaught);
  });

  it(`survives ${N} devices leaving at once while the server reads slowly`, async () => {
    const server = await mqtt.connectAsync(broker.url, {
      clientId: 'beacon-server-test',
      username: 'server',
      password: 'secret',
      reconnectPeriod: 0,
    });
    const offline = new Set<string>();
    server.on('message', (topic, payload) => {
      if (payload.toString().includes('"status":0')) offline.add(topic);
    });
    await server.subscribeAsync(serverUpFilter(), { qos: 1 });

    // A device as the simulator is one: own credentials, a retained last will, its command topic,
    // its retained state.
    const connect = async (i: number) => {
      const id = sn(i);
      const client = await mqtt.connectAsync(broker.url, {
        clientId: id,
        username: id,
        password: deviceSecret(DEV_FACTORY_KEY, id),
        reconnectPeriod: 0,
        will: { topic: upTopic(id, 'state'), payload: Buffer.from('{"status":0}'), qos: 1, retain: true },
      });
      await client.subscribeAsync(downTopic(id), { qos: 1 });
      await client.publishAsync(upTopic(id, 'state'), '{"status":1}', { qos: 1, retain: true });
      return client;
    };
    const devices: MqttClient[] = [];
    for (let i = 0; i < N; i += 250) {
      devices.push(
        ...(await Promise.all(Array.from({ length: Math.min(250, N - i) }, (_, k) => connect(i + k)))),
      );
    }

    // The server stops reading for a moment (as while it writes a burst to the database), and
    // every device reports offline and leaves cleanly, as Fleet.stop() does.
    server.stream.pause();
    const resume = setTimeout(() => server.stream.resume(), PAUSE_MS);
    await Promise.all(
      devices.map(async (d) => {
        d.publish(upTopic(d.options.clientId!, 'state'), '{"status":0}', {
          qos: 1,
          retain: true,
        });
        await d.endAsync(false);
      }),
    );

    const deadline = Date.now() + PAUSE_MS + 10_000;
    while (offline.size < N && uncaught.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    clearTimeout(resume);
    expect(uncaught.map((e) => e.message)).toEqual([]);
    expect(offline.size).toBe(N);

    // The broker still works: a device connects and its message reaches the server.
    const again = await connect(0);
    const heard = new Promise<string>((resolve) =>
      server.on('message', (topic, payload) => {
        if (topic === upTopic(sn(0), 'event')) resolve(payload.toString());
      }),
    );
    await again.publishAsync(upTopic(sn(0), 'event'), '{"hello":1}', { qos: 1 });
    expect(await heard).toBe('{"hello":1}');
    await again.endAsync(true);
    await server.endAsync(true);
  });
});
