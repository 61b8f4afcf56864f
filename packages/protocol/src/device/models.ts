import { DeviceType, PortType } from '../enums/device.ts';
import { LIMITS } from '../enums/limits.ts';
import { FrequencyBand } from '../enums/wireless.ts';

/**
 * What a model can do. The server offers an action only to devices whose model has its capability;
 * a device answers a command it cannot do with code 2 (model).
 */
export const Capability = {
  REBOOT: 'reboot',
  RESET: 'reset',
  UPGRADE: 'upgrade',
  PASSWORD: 'password',
  LOCATE: 'locate',
  LED: 'led',
  RATE_LIMIT: 'rate-limit',
  POE: 'poe',
  CPE_MODE: 'cpe-mode',
  LOCAL_MANAGEMENT: 'local-management',
  REMOTE_MANAGEMENT: 'remote-management',
  WIFI: 'wifi',
  MESH: 'mesh',
  VLAN: 'vlan',
  SWITCHING: 'switching',
  ROUTING: 'routing',
  DHCP_SERVER: 'dhcp-server',
  WAN: 'wan',
  PORT_MAPPING: 'port-mapping',
  RF: 'rf',
  RECORDING: 'recording',
} as const;
export type Capability = (typeof Capability)[keyof typeof Capability];
export const CAPABILITIES: readonly Capability[] = Object.values(Capability);

/** One physical port of a model. */
export interface ModelPort {
  /** 1-based port number as printed on the front panel. */
  id: number;
  type: PortType;
  /** Highest speed in Mbit/s. */
  maxSpeed: number;
  /** Whether the port can power a device (PoE/PoE+). */
  poe: boolean;
  /** Role of the port on routers: the WAN uplink; every other port is LAN. */
  wan?: boolean;
}

export interface ModelInfo {
  model: string;
  type: DeviceType;
  description: string;
  ports: readonly ModelPort[];
  /** PoE power budget in watts; 0 when the model powers nothing. */
  poeBudget: number;
  /** VLAN range of the server configuration (SPEC.md §3 min_vlan/max_vlan, default 10-4094). */
  minVlan: number;
  maxVlan: number;
  /** Radios for models with Wi-Fi. */
  bands: readonly FrequencyBand[];
  /** Clients per band (SPEC.md §9: 128). */
  maxClientsPerBand: number;
  capabilities: readonly Capability[];
  /** Every firmware version released for the model, oldest first; the last is the latest. */
  firmware: readonly string[];
  /** Image shown for the model (SPEC.md §3 vector_img). */
  image: string;
}

const COMMON: Capability[] = [
  Capability.REBOOT,
  Capability.RESET,
  Capability.UPGRADE,
  Capability.PASSWORD,
  Capability.LOCATE,
  Capability.LED,
  Capability.LOCAL_MANAGEMENT,
  Capability.REMOTE_MANAGEMENT,
];

function ports(
  count: number,
  type: PortType,
  maxSpeed: number,
  poe: boolean,
  first = 1,
  extra: Partial<ModelPort> = {},
): ModelPort[] {
  return Array.from({ length: count }, (_, i) => ({ id: first + i, type, maxSpeed, poe, ...extra }));
}

const E = PortType.ELECTRICAL;
const L = PortType.LIGHT;
const { B2G4, B5G, B5G1, B5G2 } = FrequencyBand;
const V = { minVlan: LIMITS.DEFAULT_VLAN_MIN, maxVlan: LIMITS.DEFAULT_VLAN_MAX };

function model(info: Omit<ModelInfo, 'image' | 'minVlan' | 'maxVlan'> & Partial<ModelInfo>): ModelInfo {
  return { ...V, image: `/models/${info.model.toLowerCase()}.svg`, ...info };
}

/** The models Beacon knows, shared by the server (inventory, upgrade, VLAN ranges) and the simulator. */
export const MODEL_CATALOGUE: readonly ModelInfo[] = [
  model({
    model: 'BG-R1200',
    type: DeviceType.ROUTER,
    description: 'Gigabit gateway, 1 WAN + 4 LAN',
    ports: [...ports(1, E, 1000, false, 1, { wan: true }), ...ports(4, E, 1000, false, 2)],
    poeBudget: 0,
    bands: [],
    maxClientsPerBand: 0,
    capabilities: [
      ...COMMON,
      Capability.VLAN,
      Capability.ROUTING,
      Capability.DHCP_SERVER,
      Capability.WAN,
      Capability.PORT_MAPPING,
      Capability.RATE_LIMIT,
    ],
    firmware: ['1.0.8', '1.1.2', '1.2.0'],
  }),
  model({
    model: 'BG-R3000P',
    type: DeviceType.ROUTER,
    description: 'Multi-WAN gateway with 8 PoE LAN ports and SFP uplink',
    ports: [
      ...ports(2, E, 1000, false, 1, { wan: true }),
      ...ports(8, E, 1000, true, 3),
      ...ports(1, L, 10000, false, 11, { wan: true }),
    ],
    poeBudget: 120,
    bands: [],
    maxClientsPerBand: 0,
    capabilities: [
      ...COMMON,
      Capability.VLAN,
      Capability.ROUTING,
      Capability.DHCP_SERVER,
      Capability.WAN,
      Capability.PORT_MAPPING,
      Capability.RATE_LIMIT,
      Capability.POE,
    ],
    firmware: ['2.0.1', '2.0.4', '2.1.0'],
  }),
  model({
    model: 'BS-S1008P',
    type: DeviceType.SWITCH,
    description: '8-port gigabit PoE+ switch with 2 SFP',
    ports: [...ports(8, E, 1000, true), ...ports(2, L, 1000, false, 9)],
    poeBudget: 65,
    bands: [],
    maxClientsPerBand: 0,
    capabilities: [...COMMON, Capability.VLAN, Capability.SWITCHING, Capability.POE, Capability.RATE_LIMIT],
    firmware: ['1.3.0', '1.4.2', '1.5.1'],
  }),
  model({
    model: 'BS-S2024P',
    type: DeviceType.SWITCH,
    description: '24-port gigabit PoE+ switch with 4 10G SFP+',
    ports: [...ports(24, E, 1000, true), ...ports(4, L, 10000, false, 25)],
    poeBudget: 370,
    minVlan: 2,
    maxVlan: 4094,
    bands: [],
    maxClientsPerBand: 0,
    capabilities: [...COMMON, Capability.VLAN, Capability.SWITCHING, Capability.POE, Capability.RATE_LIMIT],
    firmware: ['3.0.0', '3.1.5', '3.2.0'],
  }),
  model({
    model: 'BS-S1016',
    type: DeviceType.SWITCH,
    description: '16-port gigabit switch',
    ports: ports(16, E, 1000, false),
    poeBudget: 0,
    bands: [],
    maxClientsPerBand: 0,
    capabilities: [...COMMON, Capability.VLAN, Capability.SWITCHING],
    firmware: ['1.0.0', '1.0.3'],
  }),
  model({
    model: 'BA-W1200C',
    type: DeviceType.AP,
    description: 'Wi-Fi 5 dual-band ceiling AP',
    ports: ports(1, E, 1000, false),
    poeBudget: 0,
    bands: [B2G4, B5G],
    maxClientsPerBand: LIMITS.CLIENTS_PER_BAND,
    capabilities: [...COMMON, Capability.WIFI, Capability.RF, Capability.VLAN, Capability.RATE_LIMIT],
    firmware: ['4.2.0', '4.3.1', '4.4.0'],
  }),
  model({
    model: 'BA-W3000X',
    type: DeviceType.AP,
    description: 'Wi-Fi 6 tri-band ceiling AP',
    ports: [...ports(1, E, 2500, false)],
    poeBudget: 0,
    bands: [B2G4, B5G1, B5G2],
    maxClientsPerBand: LIMITS.CLIENTS_PER_BAND,
    capabilities: [...COMMON, Capability.WIFI, Capability.RF, Capability.VLAN, Capability.RATE_LIMIT],
    firmware: ['5.0.2', '5.1.0', '5.1.3'],
  }),
  model({
    model: 'BA-O1800',
    type: DeviceType.AP,
    description: 'Wi-Fi 6 dual-band outdoor AP',
    ports: ports(2, E, 1000, false),
    poeBudget: 0,
    bands: [B2G4, B5G],
    maxClientsPerBand: LIMITS.CLIENTS_PER_BAND,
    capabilities: [...COMMON, Capability.WIFI, Capability.RF, Capability.VLAN, Capability.RATE_LIMIT],
    firmware: ['5.0.0', '5.0.6'],
  }),
  model({
    model: 'BM-M1500',
    type: DeviceType.MESH,
    description: 'Cable-free mesh node, dual-band',
    ports: [...ports(1, E, 1000, false, 1, { wan: true }), ...ports(2, E, 1000, false, 2)],
    poeBudget: 0,
    bands: [B2G4, B5G],
    maxClientsPerBand: LIMITS.CLIENTS_PER_BAND,
    capabilities: [
      ...COMMON,
      Capability.WIFI,
      Capability.MESH,
      Capability.ROUTING,
      Capability.DHCP_SERVER,
      Capability.WAN,
      Capability.RATE_LIMIT,
    ],
    firmware: ['1.6.0', '1.7.2', '1.8.0'],
  }),
  model({
    model: 'BV-V7',
    type: DeviceType.V7,
    description: 'Wireless router, Wi-Fi 6',
    ports: [...ports(1, E, 1000, false, 1, { wan: true }), ...ports(3, E, 1000, false, 2)],
    poeBudget: 0,
    bands: [B2G4, B5G],
    maxClientsPerBand: LIMITS.CLIENTS_PER_BAND,
    capabilities: [
      ...COMMON,
      Capability.WIFI,
      Capability.ROUTING,
      Capability.DHCP_SERVER,
      Capability.WAN,
      Capability.PORT_MAPPING,
      Capability.RATE_LIMIT,
      Capability.VLAN,
    ],
    firmware: ['7.0.1', '7.1.0'],
  }),
  model({
    model: 'BW-R1800',
    type: DeviceType.WROUTER,
    description: 'Wireless router, dual-band',
    ports: [...ports(1, E, 1000, false, 1, { wan: true }), ...ports(4, E, 1000, false, 2)],
    poeBudget: 0,
    bands: [B2G4, B5G],
    maxClientsPerBand: LIMITS.CLIENTS_PER_BAND,
    capabilities: [
      ...COMMON,
      Capability.WIFI,
      Capability.ROUTING,
      Capability.DHCP_SERVER,
      Capability.WAN,
      Capability.PORT_MAPPING,
      Capability.RATE_LIMIT,
    ],
    firmware: ['2.2.0', '2.3.4'],
  }),
  model({
    model: 'BN-N0804P',
    type: DeviceType.NVR,
    description: '8-channel network video recorder with 4 PoE ports',
    ports: [...ports(1, E, 1000, false, 1, { wan: true }), ...ports(4, E, 100, true, 2)],
    poeBudget: 48,
    bands: [],
    maxClientsPerBand: 0,
    capabilities: [...COMMON, Capability.POE, Capability.RECORDING],
    firmware: ['3.4.0', '3.5.2'],
  }),
  model({
    model: 'BC-C5',
    type: DeviceType.CPE,
    description: '5 GHz outdoor CPE bridge (AP or client mode)',
    ports: ports(1, E, 100, false),
    poeBudget: 0,
    bands: [B5G],
    maxClientsPerBand: 32,
    capabilities: [...COMMON, Capability.WIFI, Capability.CPE_MODE, Capability.RATE_LIMIT],
    firmware: ['1.1.0', '1.2.3'],
  }),
];

const BY_MODEL = new Map(MODEL_CATALOGUE.map((m) => [m.model, m]));

/** The catalogue entry of a model, or undefined for a model Beacon does not know. */
export const modelInfo = (model: string): ModelInfo | undefined => BY_MODEL.get(model);

/** Models of one device type, in catalogue order. */
export const modelsOfType = (type: DeviceType): ModelInfo[] => MODEL_CATALOGUE.filter((m) => m.type === type);

/** The newest of the model's versions (by semantic-version precedence). */
export const latestFirmware = (info: ModelInfo): string =>
  info.firmware.reduce((a, b) => (compareVersions(b, a) > 0 ? b : a));

export const hasCapability = (info: ModelInfo, capability: Capability): boolean =>
  info.capabilities.includes(capability);

/**
 * A firmware version: semantic versioning 2.0 (MAJOR.MINOR.PATCH, an optional `-pre.release` and
 * `+build`); a shorter or longer numeric core (`1.2`, `1.2.0.7`) is accepted, missing parts being 0.
 */
export const FIRMWARE_VERSION_PATTERN =
  /^(0|[1-9]\d*)(\.(0|[1-9]\d*))*(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$/;

export const isFirmwareVersion = (v: string): boolean => v.length <= 32 && FIRMWARE_VERSION_PATTERN.test(v);

/**
 * Compares versions by semantic-versioning precedence: negative when a < b. The numeric core part by
 * part (missing parts are 0), then a pre-release sorts before its release (`1.2.0-rc.1` < `1.2.0`),
 * pre-release identifiers numeric before alphanumeric; build metadata is ignored.
 */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const noBuild = v.split('+')[0];
    const dash = noBuild.indexOf('-');
    const core = (dash < 0 ? noBuild : noBuild.slice(0, dash)).split('.').map(Number);
    const pre = dash < 0 ? [] : noBuild.slice(dash + 1).split('.');
    return { core, pre };
  };
  const pa = split(a);
  const pb = split(b);
  for (let i = 0; i < Math.max(pa.core.length, pb.core.length); i++) {
    const d = (pa.core[i] ?? 0) - (pb.core[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (pa.pre.length === 0 && pb.pre.length === 0) return 0;
  if (pa.pre.length === 0) return 1;
  if (pb.pre.length === 0) return -1;
  for (let i = 0; i < Math.max(pa.pre.length, pb.pre.length); i++) {
    const x = pa.pre[i];
    const y = pb.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny && Number(x) !== Number(y)) return Math.sign(Number(x) - Number(y));
    if (nx !== ny) return nx ? -1 : 1;
    if (!nx && x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * The upgrade rule (SPEC.md §8 codes 37 and 38): a version the model does not have is unsupported
 * (37); a version not newer than the running one is no new version (38); else 0.
 */
export function upgradeCheck(info: ModelInfo, running: string, target: string): 0 | 37 | 38 {
  if (!info.firmware.includes(target)) return 37;
  if (compareVersions(target, running) <= 0) return 38;
  return 0;
}
