import { deviceTopics, lastWillPayload } from '@beacon/protocol';
// The encoder mqtt.js itself uses (a dependency of mqtt): the reference for the lean link's bytes.
import mqttPacket from 'mqtt-packet';
import { describe, expect, it } from 'vitest';
import { connectPacket, publishPacket } from './lean.ts';

describe('lean link packets', () => {
  it('CONNECT is byte for byte what mqtt.js sends for a device (credentials, clean session, retained QoS 1 will)', () => {
    const sn = 'SIMAP00000000042';
    const will = Buffer.from(JSON.stringify(lastWillPayload()));
    const ours = connectPacket({
      clientId: sn,
      username: sn,
      password: 'secret-of-the-device',
      keepalive: 30,
      will: { topic: deviceTopics(sn).state, payload: will, qos: 1, retain: true },
    });
    const reference = mqttPacket.generate({
      cmd: 'connect',
      protocolId: 'MQTT',
      protocolVersion: 4,
      clientId: sn,
      clean: true,
      keepalive: 30,
      username: sn,
      password: Buffer.from('secret-of-the-device'),
      will: { topic: deviceTopics(sn).state, payload: will, qos: 1, retain: true },
    });
    expect(ours.equals(reference)).toBe(true);
  });

  it('PUBLISH at QoS 0 and 1, retained or not, small and over 127 and 16,383 bytes (multi-byte length)', () => {
    for (const size of [10, 200, 20_000]) {
      const payload = Buffer.alloc(size, 'x');
      for (const [qos, retain] of [
        [0, false],
        [1, false],
        [1, true],
      ] as const) {
        const ours = publishPacket('dev/SN/up/telemetry', payload, qos, retain, 7);
        const reference = mqttPacket.generate({
          cmd: 'publish',
          topic: 'dev/SN/up/telemetry',
          payload,
          qos,
          retain,
          dup: false,
          ...(qos ? { messageId: 7 } : {}),
        });
        expect(ours.equals(reference), `size ${size} qos ${qos} retain ${retain}`).toBe(true);
      }
    }
  });
});
