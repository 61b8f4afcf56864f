/**
 * MQTT topics of the device protocol (DESIGN.md "Device protocol (MQTT)"). Every topic sits under the
 * device's own `dev/{sn}/`: the device publishes under `dev/{sn}/up/…` and subscribes to
 * `dev/{sn}/down/cmd` (and `dev/{sn}/down/http`, the remote-management tunnel); the broker lets it do nothing else (DESIGN.md invariant 5).
 */

/** The first level of every device topic, unless a deployment sets another (MQTT_TOPIC_ROOT). */
export const DEFAULT_TOPIC_ROOT = 'dev';
/** What a topic root may be: one plain topic level (no wildcard, no `$`, no separator). */
export const TOPIC_ROOT_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

let root = DEFAULT_TOPIC_ROOT;
/**
 * Sets the topic root of this process (the server's MQTT_TOPIC_ROOT, the simulator's): several
 * consoles can then share one broker without seeing each other's devices (docs/decisions/0070).
 * Devices must be provisioned with the same root. One root per process.
 */
export function setTopicRoot(next: string): void {
  if (!TOPIC_ROOT_PATTERN.test(next)) throw new Error(`invalid MQTT topic root: ${JSON.stringify(next)}`);
  root = next;
}
export const topicRoot = (): string => root;

/** What a device publishes, one topic each. */
export const UpKind = {
  HELLO: 'hello',
  STATE: 'state',
  TELEMETRY: 'telemetry',
  EVENT: 'event',
  REPLY: 'reply',
} as const;
export type UpKind = (typeof UpKind)[keyof typeof UpKind];
export const UP_KINDS: readonly UpKind[] = Object.values(UpKind);

/** What the server publishes to a device. */
export const DownKind = { CMD: 'cmd' } as const;
export type DownKind = (typeof DownKind)[keyof typeof DownKind];
export const DOWN_KINDS: readonly DownKind[] = Object.values(DownKind);

export interface DeviceTopics {
  hello: string;
  state: string;
  telemetry: string;
  event: string;
  reply: string;
  cmd: string;
}

export const upTopic = (sn: string, kind: UpKind): string => `${root}/${sn}/up/${kind}`;
export const downTopic = (sn: string, kind: DownKind = DownKind.CMD): string => `${root}/${sn}/down/${kind}`;

/** Every topic of one device. */
export function deviceTopics(sn: string): DeviceTopics {
  return {
    hello: upTopic(sn, UpKind.HELLO),
    state: upTopic(sn, UpKind.STATE),
    telemetry: upTopic(sn, UpKind.TELEMETRY),
    event: upTopic(sn, UpKind.EVENT),
    reply: upTopic(sn, UpKind.REPLY),
    cmd: downTopic(sn, DownKind.CMD),
  };
}

/**
 * The remote-management tunnel (remote.ts, docs/decisions/0060): requests go down on
 * `dev/{sn}/down/http`, the device's answers come up on `dev/{sn}/up/http`. Not a command (no
 * recorded outcome, not one at a time) and not ingested: the server instance that holds the
 * browser's request takes the answer.
 */
export const TUNNEL_KIND = 'http';
export const tunnelDownTopic = (sn: string): string => `${root}/${sn}/down/${TUNNEL_KIND}`;
export const tunnelUpTopic = (sn: string): string => `${root}/${sn}/up/${TUNNEL_KIND}`;
/** Every server instance subscribes to this without `$share`: the answer must reach the one waiting. */
export const serverTunnelFilter = (): string => `${root}/+/up/${TUNNEL_KIND}`;

/** The SN of a tunnel topic in the given direction, or null. */
export function parseTunnelTopic(topic: string): { sn: string; direction: 'up' | 'down' } | null {
  const parts = topic.split('/');
  if (parts.length !== 4 || parts[0] !== root || parts[3] !== TUNNEL_KIND) return null;
  if (!/^[A-Za-z0-9]+$/.test(parts[1]) || (parts[2] !== 'up' && parts[2] !== 'down')) return null;
  return { sn: parts[1], direction: parts[2] };
}

/** What a server subscribes to: every device's up topics. */
export const serverUpFilter = (): string => `${root}/+/up/#`;

export type ParsedTopic =
  | { sn: string; direction: 'up'; kind: UpKind }
  | { sn: string; direction: 'down'; kind: DownKind };

/** Splits a device topic into its parts; null for anything that is not one of ours. */
export function parseDeviceTopic(topic: string): ParsedTopic | null {
  const parts = topic.split('/');
  if (parts.length !== 4 || parts[0] !== root || parts[1] === '') return null;
  const [, sn, direction, kind] = parts;
  if (!/^[A-Za-z0-9]+$/.test(sn)) return null;
  if (direction === 'up' && (UP_KINDS as readonly string[]).includes(kind)) {
    return { sn, direction, kind: kind as UpKind };
  }
  if (direction === 'down' && (DOWN_KINDS as readonly string[]).includes(kind)) {
    return { sn, direction, kind: kind as DownKind };
  }
  return null;
}

/**
 * The broker's access rule for a device (DESIGN.md invariant 5): the device whose username is `sn`
 * may publish only to its own up topics and subscribe only to its own down topics. Wildcards in a
 * subscription are refused, so a device can never read another device's traffic.
 */
export function isDeviceTopicAllowed(sn: string, topic: string, action: 'publish' | 'subscribe'): boolean {
  const parsed = parseDeviceTopic(topic) ?? parseTunnelTopic(topic);
  if (!parsed || parsed.sn !== sn) return false;
  return action === 'publish' ? parsed.direction === 'up' : parsed.direction === 'down';
}

/** MQTT quality of service and retain flag per up topic. State is retained: a server that starts (or a
 * new instance) learns every device's last state, including the last will, from the broker. */
export const UP_PUBLISH_OPTIONS: Readonly<Record<UpKind, { qos: 0 | 1; retain: boolean }>> = {
  hello: { qos: 1, retain: false },
  state: { qos: 1, retain: true },
  telemetry: { qos: 0, retain: false },
  event: { qos: 1, retain: false },
  reply: { qos: 1, retain: false },
};
/** Commands go down with QoS 1; a device answers a repeated id with the reply it already gave. */
export const DOWN_PUBLISH_OPTIONS = { qos: 1, retain: false } as const;
/**
 * A device subscribes to its down topics (commands, tunnel requests) with QoS 0, so the broker
 * delivers them at QoS 0 (docs/decisions/0073). With a clean session QoS 1 adds no redelivery: what a
 * dropped connection loses is lost either way, and the command protocol has its own rule (one reply
 * per id, the server's timeout at `expiresAt`). QoS 1 did cost: a PUBACK per command, and on NATS a
 * JetStream consumer per subscription, made again on every connection (15 times the broker's CPU
 * and 4.5 times its memory per device connected, bench/RESULTS.md).
 */
export const DOWN_SUBSCRIBE_QOS = 0;
