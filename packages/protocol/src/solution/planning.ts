import { modelInfo } from '../device/models.ts';
import { DeviceType, PortType } from '../enums/device.ts';

/**
 * The planning figures of the solution generator (docs/solution-generator.md, decision 0054): what
 * the model catalogue does not say about a model (rated Wi-Fi throughput, PoE class, routing
 * throughput) and the radio assumptions of the coverage model. Every number here is a documented
 * planning assumption, not a measurement; the generator's result names each one it used.
 */

/** IEEE 802.3 PoE classes: the power a PSE port reserves for a powered device, in watts. */
export const PoeStandard = { AF: 'af', AT: 'at', BT: 'bt' } as const;
export type PoeStandard = (typeof PoeStandard)[keyof typeof PoeStandard];
/** Watts a PSE allocates per port: 802.3af 15.4 W, 802.3at 30 W, 802.3bt (type 3) 60 W. */
export const POE_PORT_WATTS: Record<PoeStandard, number> = { af: 15.4, at: 30, bt: 60 };
const POE_ORDER: readonly PoeStandard[] = ['af', 'at', 'bt'];
export const poeCovers = (port: PoeStandard, device: PoeStandard): boolean =>
  POE_ORDER.indexOf(port) >= POE_ORDER.indexOf(device);

export interface ApPlanning {
  /** Aggregate PHY rate of all radios, Mbit/s (e.g. 867 + 300 for a Wi-Fi 5 AC1200). */
  ratedMbps: number;
  /** The PoE class the AP needs from its switch port. */
  poe: PoeStandard;
}
export interface SwitchPlanning {
  /** The PoE standard its PoE ports deliver (none: no PoE). */
  poe: PoeStandard | null;
}
export interface GatewayPlanning {
  /** Routing (NAT) throughput, Mbit/s. */
  throughputMbps: number;
  /** Concurrent clients the gateway is sized for (NAT sessions, DHCP). */
  clients: number;
}

export const AP_PLANNING: Record<string, ApPlanning> = {
  'BA-W1200C': { ratedMbps: 1167, poe: 'af' },
  'BA-W3000X': { ratedMbps: 5378, poe: 'at' },
  'BA-O1800': { ratedMbps: 1775, poe: 'at' },
};
export const SWITCH_PLANNING: Record<string, SwitchPlanning> = {
  'BS-S1008P': { poe: 'at' },
  'BS-S2024P': { poe: 'at' },
  'BS-S1016': { poe: null },
};
export const GATEWAY_PLANNING: Record<string, GatewayPlanning> = {
  'BG-R1200': { throughputMbps: 940, clients: 250 },
  'BG-R3000P': { throughputMbps: 9400, clients: 1500 },
};

/** Share of an AP's rated (PHY) rate it delivers as usable throughput (airtime, overhead, contention). */
export const USABLE_SHARE = 0.5;
/** Coverage model (log-distance path loss at 5 GHz): EIRP, the signal wanted at the edge, loss at 1 m. */
export const RADIO = {
  eirpDbm: 23,
  edgeDbm: -67,
  lossAt1mDb: 47,
  /** A client's height above the floor, metres. */
  clientHeightM: 1,
} as const;

/** Per-scenario planning profile: per-client rate (the applications) and the path-loss exponent (walls). */
export interface ScenarioProfile {
  /** Mbit/s one connected client is planned for. */
  clientMbps: number;
  /** Path-loss exponent n: 3 open halls, 3.5 offices and classrooms, 4 rooms behind walls. */
  pathLossExponent: number;
  /** What the rate is planned for, said in the result. */
  application: string;
}
export const SCENARIO_PROFILES: Record<string, ScenarioProfile> = {
  hotel: { clientMbps: 4, pathLossExponent: 4, application: 'HD video streaming in rooms' },
  supermarket_mall: { clientMbps: 1.5, pathLossExponent: 3, application: 'browsing, payments and messaging' },
  hospital: { clientMbps: 3, pathLossExponent: 4, application: 'clinical apps, voice and patient video' },
  campus: { clientMbps: 2, pathLossExponent: 3.5, application: 'e-learning and video lessons' },
  factory: { clientMbps: 1, pathLossExponent: 3, application: 'scanners, sensors and voice' },
  entertainment: { clientMbps: 4, pathLossExponent: 3, application: 'video and social media in crowds' },
  restaurant: { clientMbps: 2, pathLossExponent: 3, application: 'browsing and ordering' },
  enterprise: { clientMbps: 3, pathLossExponent: 3.5, application: 'office apps and video calls' },
  smart_home: { clientMbps: 6, pathLossExponent: 3.5, application: '4K streaming and smart devices' },
  other: { clientMbps: 2, pathLossExponent: 3.5, application: 'general use' },
};
/** A custom scenario of the account is planned as "other". */
export const profileOf = (scenario: string): ScenarioProfile =>
  SCENARIO_PROFILES[scenario] ?? SCENARIO_PROFILES.other;

/** Ports of a switch model that deliver PoE, and all its ports. */
export function switchPorts(model: string): { poePorts: number; ports: number; budget: number } {
  const info = modelInfo(model);
  if (!info) return { poePorts: 0, ports: 0, budget: 0 };
  return {
    poePorts: info.ports.filter((p) => p.poe && p.type === PortType.ELECTRICAL).length,
    ports: info.ports.length,
    budget: info.poeBudget,
  };
}

/** WAN ports of a gateway model (the broadband lines it can terminate). */
export const wanPorts = (model: string): number => modelInfo(model)?.ports.filter((p) => p.wan).length ?? 0;

/** The catalogue models the generator can propose for each role. */
export function plannableModels(): { ap: string[]; gateway: string[]; switch: string[] } {
  const typed = (type: DeviceType, table: Record<string, unknown>) =>
    Object.keys(table).filter((m) => modelInfo(m)?.type === type);
  return {
    ap: typed(DeviceType.AP, AP_PLANNING),
    gateway: typed(DeviceType.ROUTER, GATEWAY_PLANNING),
    switch: typed(DeviceType.SWITCH, SWITCH_PLANNING),
  };
}
