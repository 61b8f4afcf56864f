import { randomBytes } from 'node:crypto';
import { setTopicRoot } from '@beacon/protocol';

/**
 * On a shared external broker (CI's Mosquitto through MQTT_URL), each test file's devices and
 * servers live under a topic root of their own (MQTT_TOPIC_ROOT, docs/decisions/0070): files can
 * then run in parallel without one file's server taking another file's devices into its database.
 * Set in the environment too, so the servers a file spawns use the same root. A worker runs several
 * files one after another (vitest.config.ts: not isolated), so a root made here is made anew for
 * each file; one given from outside is kept.
 */
const MADE_HERE = 'BEACON_TEST_TOPIC_ROOT_MADE_HERE';
if (process.env.MQTT_URL && (!process.env.MQTT_TOPIC_ROOT || process.env[MADE_HERE] === '1')) {
  process.env.MQTT_TOPIC_ROOT = `t${randomBytes(5).toString('hex')}`;
  process.env[MADE_HERE] = '1';
}
if (process.env.MQTT_TOPIC_ROOT) setTopicRoot(process.env.MQTT_TOPIC_ROOT);
