import { z } from 'zod';
import {
  CableFreeMode,
  CpeMode,
  DEVICE_STATUSES,
  DeviceMode,
  DeviceStatus,
  DeviceType,
  ManagementMode,
  PortType,
  RemoteManageState,
} from '../enums/device.ts';
import { FrequencyBand } from '../enums/wireless.ts';
import { CONFIG_HASH_PATTERN } from './config-hash.ts';
import { jsonBytes } from './decode.ts';
import { DEVICE_LIMITS as L } from './limits.ts';

/** Messages a device publishes under `dev/{sn}/up/…`. Every message carries `ts`, the device's clock in ms. */

/** Stored in an integer column: a larger value would fail the write instead of being refused. */
const int32 = z
  .int()
  .min(-L.INT32_MAX - 1)
  .max(L.INT32_MAX);
const ts = z.int().min(0).max(L.TS_MAX).describe('Device time, milliseconds since the Unix epoch');
export const snSchema = z.string().regex(/^[A-Za-z0-9]{16,32}$/, 'Serial number: 16 to 32 letters or digits');
export const macSchema = z
  .string()
  .regex(/^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$/, 'MAC address as AA:BB:CC:DD:EE:FF');
export const ipv4Schema = z.string().regex(/^(\d{1,3}\.){3}\d{1,3}$/, 'IPv4 address');
const counter = z.int().min(0).describe('Bytes since the counter started (grows; resets on reboot)');
const kbps = z.number().min(0).describe('kbit/s');
/** A serial number another device reports (a neighbour, a parent): length-bounded only. */
const otherSn = z.string().max(L.ID_CHARS);
/** Free-form data of an event or a reply, at most DATA_BYTES as JSON. */
const freeData = z
  .record(z.string(), z.unknown())
  .refine((d) => jsonBytes(d) <= L.DATA_BYTES, `At most ${L.DATA_BYTES} bytes of data`);

export const deviceTypeSchema = z.enum(Object.values(DeviceType) as [DeviceType, ...DeviceType[]]);
export const deviceStatusSchema = z
  .int()
  .refine((s) => (DEVICE_STATUSES as readonly number[]).includes(s), 'Unknown device status code')
  .describe(
    'SPEC.md §4 status code: 0 offline, 1 online, 2 upgrade done, 3 upgrading, 4 uploading, 5 upload success, 6 upload failed, 7 online not saved, 8 rebooting, 9 offline variant',
  );
export const managementModeSchema = z.union([
  z.literal(ManagementMode.LOCAL),
  z.literal(ManagementMode.CLOUD),
]);
export const cpeModeSchema = z.enum([CpeMode.AP, CpeMode.CLIENT]);
export const meshRoleSchema = z.enum([CableFreeMode.PRIMARY, CableFreeMode.SECONDARY]);
export const bandSchema = z.enum([
  FrequencyBand.B2G4,
  FrequencyBand.B5G,
  FrequencyBand.B5G1,
  FrequencyBand.B5G2,
]);

/** `dev/{sn}/up/hello`: sent after every (re)connection and after every restart. */
export const helloSchema = z.object({
  sn: snSchema,
  model: z.string().min(1).max(32),
  type: deviceTypeSchema,
  firmware: z.string().min(1).max(32),
  hardware: z.string().max(32).optional(),
  capabilities: z.array(z.string().max(L.CAPABILITY_CHARS)).max(L.CAPABILITIES),
  mac: macSchema,
  ip: ipv4Schema.describe('Local (LAN-side) IP'),
  mode: managementModeSchema.describe('Management mode: 0 local, 1 cloud'),
  revision: int32.min(0).describe('Configuration revision the device runs; 0 = none applied'),
  configHash: z
    .string()
    .regex(CONFIG_HASH_PATTERN)
    .optional()
    .describe('SHA-256 of the configuration document it runs (canonical JSON, see configHash)'),
  uptime: int32.min(0).describe('Seconds since the device booted'),
  bootId: z.string().min(1).max(L.ID_CHARS).describe('Changes at every boot, so a restart is visible'),
  deviceMode: z.union([z.literal(DeviceMode.ROUTER), z.literal(DeviceMode.WIFI_EXTEND)]).optional(),
  cpeMode: cpeModeSchema.optional(),
  meshRole: meshRoleSchema.optional(),
  protocol: z.literal(1).describe('Protocol version'),
  connectedAt: ts
    .optional()
    .describe(
      'When this MQTT connection was made (device clock): the ts of the last will it registered. A will of an earlier connection that the broker delivers after this hello is then ignored',
    ),
  ts,
});
export type Hello = z.infer<typeof helloSchema>;

export const ConfigStatus = { APPLIED: 'applied', APPLYING: 'applying', FAILED: 'failed' } as const;
export type ConfigStatus = (typeof ConfigStatus)[keyof typeof ConfigStatus];

export const DeviceOperation = {
  REBOOT: 'reboot',
  RESET: 'reset',
  UPGRADE: 'upgrade',
  MODE_SWITCH: 'mode-switch',
  APPLY_CONFIG: 'apply-config',
  /** The radios re-adapt to a new country or region (SPEC.md §4, about 3 minutes), with progress. */
  RF_ADAPT: 'rf-adapt',
} as const;
export type DeviceOperation = (typeof DeviceOperation)[keyof typeof DeviceOperation];

/** `dev/{sn}/up/state` (retained): the status of SPEC.md §4 and the configuration the device runs. */
export const liveStateSchema = z.object({
  status: deviceStatusSchema,
  revision: int32.min(0),
  configHash: z
    .string()
    .regex(CONFIG_HASH_PATTERN)
    .optional()
    .describe('SHA-256 of the configuration document it runs (canonical JSON, see configHash)'),
  configStatus: z.enum([ConfigStatus.APPLIED, ConfigStatus.APPLYING, ConfigStatus.FAILED]),
  /** With configStatus failed: the revision refused and the catalogue code. */
  failedRevision: int32.min(1).optional(),
  configCode: int32.optional(),
  mode: managementModeSchema,
  operation: z
    .enum(Object.values(DeviceOperation) as [DeviceOperation, ...DeviceOperation[]])
    .nullable()
    .describe('What the device is busy with, null when idle'),
  /** Percent done of the operation, when known. */
  progress: z.int().min(0).max(100).optional(),
  remote: z
    .object({
      state: z.enum(Object.values(RemoteManageState) as [RemoteManageState, ...RemoteManageState[]]),
      url: z.string().max(L.URL_CHARS).optional(),
    })
    .optional(),
  ts,
});
export type LiveState = z.infer<typeof liveStateSchema>;

/** The last will the broker publishes (retained) on `dev/{sn}/up/state` when the device vanishes. */
export const lastWillSchema = z.object({
  status: z.literal(DeviceStatus.OFFLINE),
  will: z.literal(true),
  /** When the connection that registered the will was made; the server uses its own receive time. */
  ts,
});
export type LastWill = z.infer<typeof lastWillSchema>;

export const stateMessageSchema = z.union([lastWillSchema, liveStateSchema]);
export type StateMessage = z.infer<typeof stateMessageSchema>;
export const isLastWill = (m: StateMessage): m is LastWill => 'will' in m && m.will === true;

/** The will payload a device registers when it connects. */
export const lastWillPayload = (connectedAt = Date.now()): LastWill => ({
  status: DeviceStatus.OFFLINE,
  will: true,
  ts: connectedAt,
});

export const ClientKind = {
  PHONE: 'phone',
  LAPTOP: 'laptop',
  TABLET: 'tablet',
  PC: 'pc',
  IOT: 'iot',
  TV: 'tv',
} as const;
export type ClientKind = (typeof ClientKind)[keyof typeof ClientKind];

/** An online client (station) as SPEC.md §3 lists it. */
export const telemetryClientSchema = z.object({
  mac: macSchema,
  name: z.string().max(L.NAME_CHARS),
  ip: ipv4Schema,
  kind: z.enum(Object.values(ClientKind) as [ClientKind, ...ClientKind[]]),
  wired: z.boolean(),
  ssid: z.string().max(32).nullable(),
  band: bandSchema.nullable(),
  rssi: z.int().min(-110).max(0).nullable().describe('dBm, null for wired clients'),
  txRate: kbps,
  rxRate: kbps,
  txBytes: counter,
  rxBytes: counter,
  onlineSeconds: int32.min(0).describe('Seconds since the client joined'),
  vlan: z.int().min(1).max(4094).nullable(),
});
export type TelemetryClient = z.infer<typeof telemetryClientSchema>;

export const telemetryPortSchema = z.object({
  id: z.int().min(1),
  type: z.enum([PortType.LIGHT, PortType.ELECTRICAL, PortType.NONE]),
  enabled: z.boolean(),
  link: z.boolean().describe('Link up'),
  speed: z.int().min(0).describe('Mbit/s, 0 when the link is down'),
  duplex: z.enum(['full', 'half']).nullable(),
  poe: z.object({ enabled: z.boolean(), power: z.number().min(0).describe('Watts drawn') }).nullable(),
  rxBytes: counter,
  txBytes: counter,
  rxRate: kbps,
  txRate: kbps,
  /** SN of the Beacon device on the other end, when known (topology). */
  neighbour: otherSn.optional(),
});
export type TelemetryPort = z.infer<typeof telemetryPortSchema>;

/** Another AP one radio hears (its background scan): the input of the automatic RF plan. */
export const neighbourApSchema = z.object({
  bssid: macSchema,
  /** The SN of a Beacon AP (from its beacons' vendor element); absent for other networks. */
  sn: otherSn.optional(),
  channel: z.int().min(1).max(196),
  width: z.int().min(20).max(160).describe('MHz'),
  rssi: z.int().min(-120).max(0).describe('dBm'),
});
export type NeighbourAp = z.infer<typeof neighbourApSchema>;

export const telemetryRadioSchema = z.object({
  band: bandSchema,
  channel: z.int().min(0),
  /** Channel width in MHz (optional: older firmware). */
  width: z.int().min(20).max(160).optional(),
  power: z.int().describe('dBm'),
  utilisation: z.int().min(0).max(100),
  noise: z.int().describe('dBm'),
  clients: z.int().min(0),
  /** Bytes the radio received and sent since the counter started (optional: older firmware). */
  rxBytes: counter.optional(),
  txBytes: counter.optional(),
  /** The APs the radio hears on its band, strongest first (optional: older firmware). */
  neighbours: z.array(neighbourApSchema).max(L.NEIGHBOURS).optional(),
});

/** What a link neighbour says it is (LLDP system capabilities, LLDP-MED device class). */
export const NeighbourRole = {
  ROUTER: 'router',
  SWITCH: 'switch',
  AP: 'ap',
  CAMERA: 'camera',
  PHONE: 'phone',
  STATION: 'station',
  OTHER: 'other',
} as const;
export type NeighbourRole = (typeof NeighbourRole)[keyof typeof NeighbourRole];

/** How a link is carried: a cable, a Wi-Fi client uplink (CPE, wireless AP) or a mesh backhaul. */
export const LinkMedium = { WIRED: 'wired', WIRELESS: 'wireless', MESH: 'mesh' } as const;
export type LinkMedium = (typeof LinkMedium)[keyof typeof LinkMedium];

/**
 * One neighbour the device sees (topology, docs/decisions/0050): on a port from LLDP (chassis MAC,
 * its port id, the speed both ends agreed) or over the air (a wireless or mesh uplink, with the
 * signal). Several on one port mean an unmanaged segment (hub, unmanaged switch) between them.
 */
export const linkNeighbourSchema = z.object({
  /** The device's own port; null for a link over the air. */
  port: z.int().min(1).max(L.PORTS).nullable(),
  mac: macSchema.describe('Chassis MAC of the neighbour'),
  /** The SN when the neighbour is a Beacon device (its LLDP system description carries it). */
  sn: otherSn.optional(),
  name: z.string().max(L.NAME_CHARS).optional().describe('LLDP system name'),
  /** The neighbour's own port id, as LLDP names it. */
  remotePort: z.string().max(L.PORT_ID_CHARS).nullable(),
  role: z.enum(Object.values(NeighbourRole) as [NeighbourRole, ...NeighbourRole[]]),
  medium: z.enum(Object.values(LinkMedium) as [LinkMedium, ...LinkMedium[]]),
  speed: z.int().min(0).max(400_000).describe('Mbit/s the link runs at (the PHY rate over the air)'),
  rssi: z.int().min(-120).max(0).nullable().describe('dBm over the air, null on a cable'),
  vlan: z.int().min(1).max(4094).nullable().describe('Port VLAN id (LLDP 802.1 PVID)'),
});
export type LinkNeighbour = z.infer<typeof linkNeighbourSchema>;

/** `dev/{sn}/up/telemetry`: periodic live data. Sections that do not apply to the type are left out. */
export const telemetrySchema = z.object({
  ts,
  uptime: int32.min(0),
  cpu: z.number().min(0).max(100).describe('Percent'),
  memory: z.number().min(0).max(100).describe('Percent'),
  clientCount: int32.min(0),
  dhcpClientCount: int32.min(0).optional(),
  clients: z.array(telemetryClientSchema).max(L.CLIENTS),
  ports: z.array(telemetryPortSchema).max(L.PORTS).optional(),
  poe: z.object({ budget: z.number(), used: z.number(), remaining: z.number() }).optional(),
  wan: z
    .object({
      online: z.boolean(),
      ip: ipv4Schema.nullable(),
      rxRate: kbps,
      txRate: kbps,
      rxBytes: counter,
      txBytes: counter,
    })
    .optional(),
  mesh: z
    .object({
      role: meshRoleSchema,
      parent: otherSn.nullable(),
      backhaulRssi: z.int().nullable(),
      hops: z.int().min(0),
    })
    .optional(),
  radios: z.array(telemetryRadioSchema).max(L.RADIOS).optional(),
  /**
   * The SSIDs the device broadcasts now, each on its bands (optional: older firmware). A network
   * its timer shutdown has taken off the air is not listed.
   */
  ssids: z
    .array(z.object({ ssid: z.string().max(32), bands: z.array(bandSchema).max(L.RADIOS) }))
    .max(L.SSIDS)
    .optional(),
  /** The device this one hangs off (topology), when known. */
  uplink: z.object({ sn: otherSn, port: int32.nullable() }).optional(),
  /** Link neighbours (topology, optional: older firmware reports only `uplink` and ports' `neighbour`). */
  links: z.array(linkNeighbourSchema).max(L.LINK_NEIGHBOURS).optional(),
  /** A gateway's internet link: up or down, on which WAN port, at what speed. */
  internet: z
    .object({
      up: z.boolean(),
      port: z.int().min(1).max(L.PORTS).nullable(),
      speed: z.int().min(0).max(400_000).describe('Mbit/s'),
    })
    .optional(),
  led: z.boolean(),
  locating: z.boolean(),
});
export type Telemetry = z.infer<typeof telemetrySchema>;

export const EventLevel = { INFO: 'info', WARNING: 'warning', CRITICAL: 'critical' } as const;
export type EventLevel = (typeof EventLevel)[keyof typeof EventLevel];

export const DeviceEventName = {
  BOOTED: 'booted',
  RESET_DONE: 'reset-done',
  UPGRADE_DONE: 'upgrade-done',
  UPGRADE_FAILED: 'upgrade-failed',
  CONFIG_APPLIED: 'config-applied',
  CONFIG_FAILED: 'config-failed',
  PASSWORD_CHANGED: 'password-changed',
  MODE_SWITCHED: 'mode-switched',
  MANAGEMENT_MODE: 'management-mode',
  CLIENT_JOINED: 'client-joined',
  CLIENT_LEFT: 'client-left',
  CLIENT_ROAMED: 'client-roamed',
  PORT_UP: 'port-up',
  PORT_DOWN: 'port-down',
  /** The PoE budget is exceeded: a port was left unpowered. */
  POE_OVERLOAD: 'poe-overload',
  /** Another host answers for the device's own IP address (ARP). */
  IP_CONFLICT: 'ip-conflict',
  POE_REBOOT: 'poe-reboot',
  HIGH_CPU: 'high-cpu',
  HIGH_MEMORY: 'high-memory',
  WAN_DOWN: 'wan-down',
  WAN_UP: 'wan-up',
  MESH_ROLE: 'mesh-role',
} as const;
export type DeviceEventName = (typeof DeviceEventName)[keyof typeof DeviceEventName];

/** `dev/{sn}/up/event`: alarms (warning, critical) and log entries (info). */
export const deviceEventSchema = z.object({
  id: z.string().min(1).max(L.ID_CHARS).describe('Unique per device; a repeated id is the same event'),
  ts,
  event: z.enum(Object.values(DeviceEventName) as [DeviceEventName, ...DeviceEventName[]]),
  level: z.enum([EventLevel.INFO, EventLevel.WARNING, EventLevel.CRITICAL]),
  message: z.string().max(L.TEXT_CHARS).describe('en-US text'),
  data: freeData.optional(),
});
export type DeviceEvent = z.infer<typeof deviceEventSchema>;
export const isAlarm = (e: DeviceEvent): boolean => e.level !== EventLevel.INFO;

/** `dev/{sn}/up/reply`: exactly one per command id. */
export const replySchema = z.object({
  id: z.string().min(1).max(L.ID_CHARS),
  code: int32.describe('0 success, else a code of the error catalogue (SPEC.md §8)'),
  message: z.string().max(L.TEXT_CHARS).optional(),
  data: freeData.optional(),
  ts,
});
export type Reply = z.infer<typeof replySchema>;
