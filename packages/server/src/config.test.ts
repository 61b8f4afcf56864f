import { DEV_FACTORY_KEY, DEV_FIRMWARE_SEED } from '@beacon/protocol';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('lets the embedded broker follow HOST, or MQTT_HOST when set', () => {
    expect(loadConfig({}).mqttHost).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '127.0.0.1' }).mqttHost).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '127.0.0.1', MQTT_HOST: '0.0.0.0' }).mqttHost).toBe('0.0.0.0');
  });

  it('makes NATS the broker kind with NATS_URL, and refuses it together with MQTT_URL', () => {
    expect(loadConfig({})).toMatchObject({ natsServers: [], natsMqttUrl: undefined, natsAckWaitMs: 30_000 });
    expect(
      loadConfig({
        NATS_URL: 'nats://n1.internal:4222, nats://n2.internal:4222',
        NATS_ACK_WAIT_SECONDS: '5',
      }),
    ).toMatchObject({
      natsServers: ['nats://n1.internal:4222', 'nats://n2.internal:4222'],
      natsMqttUrl: 'mqtt://n1.internal:1883',
      natsReplicas: undefined,
      natsAckWaitMs: 5000,
    });
    expect(
      loadConfig({ NATS_URL: 'n1:4222', NATS_MQTT_URL: 'mqtts://devices.example:8883' }).natsMqttUrl,
    ).toBe('mqtts://devices.example:8883');
    expect(() => loadConfig({ NATS_URL: 'nats://n1:4222', MQTT_URL: 'mqtt://b:1883' })).toThrow(/choose one/);
    expect(() => loadConfig({ NATS_URL: 'nats://n1:4222', NATS_REPLICAS: '7' })).toThrow(/NATS_REPLICAS/);
  });

  it('takes a topic root of one level, `dev` by default, and refuses any other', () => {
    expect(loadConfig({}).mqttTopicRoot).toBe('dev');
    expect(loadConfig({ MQTT_TOPIC_ROOT: 'staging_2' }).mqttTopicRoot).toBe('staging_2');
    for (const bad of ['a/b', '+', '#', '$share', 'x'.repeat(33)]) {
      expect(() => loadConfig({ MQTT_TOPIC_ROOT: bad }), bad).toThrow(/MQTT_TOPIC_ROOT/);
    }
  });

  it('takes an MQTT session name of one client-id-safe word, none by default, and not with NATS', () => {
    expect(loadConfig({}).mqttSessionName).toBeUndefined();
    expect(loadConfig({ MQTT_SESSION_NAME: 'node-a_1' }).mqttSessionName).toBe('node-a_1');
    for (const bad of ['a/b', '+', '#', 'a b', 'é', 'x'.repeat(33), 'a\u0000b']) {
      expect(() => loadConfig({ MQTT_SESSION_NAME: bad }), bad).toThrow(/MQTT_SESSION_NAME/);
    }
    expect(() => loadConfig({ MQTT_SESSION_NAME: 'a', NATS_URL: 'nats://n1:4222' })).toThrow(
      /MQTT_SESSION_NAME/,
    );
  });

  it('gives the orderly stop 20 s by default, SHUTDOWN_TIMEOUT_SECONDS between 5 and 3600', () => {
    expect(loadConfig({}).shutdownTimeoutMs).toBe(20_000);
    expect(loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '120' }).shutdownTimeoutMs).toBe(120_000);
    for (const bad of ['4', '3601', '1.5', 'soon', '-20']) {
      expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: bad }), bad).toThrow(
        /SHUTDOWN_TIMEOUT_SECONDS must be an integer between 5 and 3600/,
      );
      expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: bad === '4' ? '301' : bad }), bad).toThrow(
        /SHUTDOWN_DRAIN_SECONDS/,
      );
    }
  });

  it('stops the start on an integer setting that is malformed or out of its range, naming it', () => {
    // [setting, lowest, highest]: both bounds taken, one step beyond each refused, as are a
    // fraction, a word, an empty-looking number and a NUL.
    const ranges: [string, number, number][] = [
      ['PORT', 0, 65_535],
      ['MQTT_PORT', 0, 65_535],
      ['NATS_ACK_WAIT_SECONDS', 1, 3600],
      ['COMMAND_TIMEOUT_MS', 1000, 3_600_000],
      ['AWAY_DEADLINE_SECONDS', 60, 86_400],
      ['CONFIG_RETRY_BASE_SECONDS', 1, 3600],
      ['SESSION_TTL_SECONDS', 60, 366 * 86_400],
      ['SESSION_IDLE_TTL_SECONDS', 60, 366 * 86_400],
      ['IDLE_TIMEOUT_SECONDS', 0, 86_400],
      ['MAX_PROJECTS_PER_ACCOUNT', 1, 100_000],
      ['MAX_API_KEYS_PER_ACCOUNT', 1, 1000],
      ['METRICS_CACHE_SECONDS', 0, 3600],
      ['AUTH_RATE_LIMIT', 1, 1_000_000],
      ['SHARE_MAX_READ', 1, 10_000],
      ['SHARE_MAX_READ_WRITE', 1, 10_000],
      ['JOB_POLL_MS', 0, 60_000],
      ['ALARM_SWEEP_SECONDS', 5, 86_400],
      ['ALARM_WEBHOOK_TIMEOUT_MS', 100, 60_000],
      ['SHUTDOWN_DRAIN_SECONDS', 0, 300],
      ['SHUTDOWN_TIMEOUT_SECONDS', 5, 3600],
    ];
    for (const [name, min, max] of ranges) {
      expect(() => loadConfig({ [name]: String(min) }), `${name}=${min}`).not.toThrow();
      expect(() => loadConfig({ [name]: String(max) }), `${name}=${max}`).not.toThrow();
      for (const bad of [String(min - 1), String(max + 1), '1.5', 'soon', '0x10', '1e3', ' 8', '1\u00002']) {
        expect(() => loadConfig({ [name]: bad }), `${name}=${bad}`).toThrow(
          new RegExp(`^${name} must be (0 or )?an integer between \\d+ and \\d+$`),
        );
      }
    }
    // Between 0 (no jobs on this instance) and 50 ms, a poll would keep PostgreSQL answering "nothing due".
    expect(() => loadConfig({ JOB_POLL_MS: '49' })).toThrow(
      /^JOB_POLL_MS must be 0 or an integer between 50/,
    );
    expect(loadConfig({ JOB_POLL_MS: '50' }).jobPollMs).toBe(50);
    expect(loadConfig({ NATS_URL: 'nats://n1:4222', NATS_REPLICAS: '5' }).natsReplicas).toBe(5);
    expect(() => loadConfig({ NATS_URL: 'nats://n1:4222', NATS_REPLICAS: '0' })).toThrow(
      /^NATS_REPLICAS must be an integer between 1 and 5$/,
    );
  });

  it('refuses the public factory key in production, given or by default, and names BEACON_FACTORY_KEY', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/BEACON_FACTORY_KEY/);
    expect(() => loadConfig({ NODE_ENV: 'production', BEACON_FACTORY_KEY: DEV_FACTORY_KEY })).toThrow(
      /BEACON_FACTORY_KEY/,
    );
    const own = loadConfig({
      NODE_ENV: 'production',
      BEACON_FACTORY_KEY: 'own-key',
      BEACON_FIRMWARE_KEY: '5e'.repeat(32),
    });
    expect(own).toMatchObject({ factoryKey: 'own-key', factoryKeyIsPublic: false });
  });

  it('refuses the public firmware signing key in production, and a key that is not a seed', () => {
    const env = { NODE_ENV: 'production', BEACON_FACTORY_KEY: 'own-key' };
    expect(() => loadConfig(env)).toThrow(/BEACON_FIRMWARE_KEY/);
    expect(() => loadConfig({ ...env, BEACON_FIRMWARE_KEY: DEV_FIRMWARE_SEED })).toThrow(
      /BEACON_FIRMWARE_KEY/,
    );
    expect(() => loadConfig({ BEACON_FIRMWARE_KEY: 'short' })).toThrow(/64 hex/);
    expect(loadConfig({})).toMatchObject({ firmwareKey: DEV_FIRMWARE_SEED, firmwareKeyIsPublic: true });
    expect(loadConfig({ ...env, BEACON_FIRMWARE_KEY: '5E'.repeat(32) }).firmwareKey).toBe('5e'.repeat(32));
  });

  it('allows the public key outside production, marked for the start-up warning', () => {
    expect(loadConfig({ NODE_ENV: 'development' })).toMatchObject({
      factoryKey: DEV_FACTORY_KEY,
      factoryKeyIsPublic: true,
    });
  });
});
