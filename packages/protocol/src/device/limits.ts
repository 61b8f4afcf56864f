/**
 * Bounds of what a device may send (issue 7: a 72 MB hello was stored and served back). Every
 * array and string of the up-message schemas (messages.ts) takes its maximum from here, and the
 * broker refuses a packet larger than MQTT_PACKET_BYTES before it is read whole. A unit test
 * (device.test.ts) builds the largest valid telemetry and checks it fits in one packet.
 */
export const DEVICE_LIMITS = {
  /** Largest MQTT packet the embedded broker accepts (and the server handles from any broker). */
  MQTT_PACKET_BYTES: 1024 * 1024,
  /** Feature flags a hello lists, and the length of each. */
  CAPABILITIES: 64,
  CAPABILITY_CHARS: 32,
  /** Stations one telemetry lists (a gateway lists the site's DHCP clients). */
  CLIENTS: 1024,
  /** Ports of one device (the largest model has 28; room for bigger switches). */
  PORTS: 64,
  /** Radios of one device (2.4G, 5G, 5G-1, 5G-2 and room for more). */
  RADIOS: 8,
  /** SSIDs a device reports broadcasting (8 per band, 4 bands). */
  SSIDS: 32,
  /** Neighbour APs one radio reports from its scan (the strongest). */
  NEIGHBOURS: 64,
  /**
   * Link neighbours one telemetry lists (LLDP table and wireless uplinks, docs/decisions/0050): one
   * or two per port of the largest switch, plus room for hosts behind an unmanaged segment.
   */
  LINK_NEIGHBOURS: 128,
  /** A neighbour's port id as LLDP gives it (e.g. "GE1/0/12"). */
  PORT_ID_CHARS: 32,
  /** Short identifiers: command and event ids, boot ids. */
  ID_CHARS: 64,
  /** Names: model, firmware, hardware, client names, SSIDs. */
  NAME_CHARS: 64,
  /** Free text: messages of events and replies, URLs. */
  TEXT_CHARS: 256,
  /** URL of a remote-management session. */
  URL_CHARS: 2048,
  /** The free-form `data` of an event or a reply, as JSON text (a reply may carry a configuration). */
  DATA_BYTES: 256 * 1024,
  /** Largest value of an integer column (revision, uptime, counts, codes). */
  INT32_MAX: 2_147_483_647,
  /** Latest device time a message may carry (JavaScript's last Date, in ms). */
  TS_MAX: 8_640_000_000_000_000,
  /** Nesting depth of any message (objects and arrays); deeper is refused before validation. */
  JSON_DEPTH: 32,
  /**
   * Telemetry is live data: a device's newer telemetry replaces one not yet written, and at most
   * one per device is written per this many ms (a flood costs a device its own freshness only).
   */
  TELEMETRY_MIN_INTERVAL_MS: 1000,
  /** Messages other than telemetry one device may have waiting to be written; more are dropped. */
  QUEUED_PER_DEVICE: 256,
  /**
   * Hello, state and event messages one device may send: a sustained rate per second, and a burst (a
   * device that boots on a busy site reports a join event per client at once). Beyond it they are
   * dropped. Replies are not counted: there is one per command, and commands go one at a time.
   */
  MESSAGES_PER_SECOND: 20,
  MESSAGE_BURST: 200,
  /**
   * A state or telemetry whose `ts` is older than the newest of its kind written in the device's
   * current connection is stale (another server instance handled them out of order) and ignored;
   * older by more than this many ms, it is taken as the device's clock set back and accepted, so
   * that a clock correction cannot freeze a device's state for longer than this.
   */
  STALE_WINDOW_MS: 60_000,
} as const;
