import { z } from 'zod';
import { LinkMedium, macSchema, NeighbourRole, snSchema } from '../device/messages.ts';
import { DeviceType, TopoDeviceType, TopologyNodeType } from '../enums/device.ts';
import { SearchField } from '../enums/network.ts';
import { Codes, type Failure, fail } from '../errors.ts';
import { checked } from '../validators/zod.ts';

/**
 * The network topology (server src/topology/, web features/topology; issue 13, decision 0050): a
 * graph the server assembles from what the devices report (their link neighbours, the gateway's
 * internet link), never drawn by hand. Loops and redundant links are edges like any other.
 */

/** At most this many nodes in one answer; a larger project's graph is cut (`truncated`). */
export const TOPOLOGY_MAX_NODES = 5000;
/** Leaf children of one kind under one parent beyond this many are folded into an expandable node. */
export const TOPOLOGY_FOLD_AT = 8;

const TOPOLOGY_NODE_TYPES = Object.values(TopologyNodeType) as [TopologyNodeType, ...TopologyNodeType[]];
const DEVICE_TYPES = Object.values(DeviceType) as [DeviceType, ...DeviceType[]];
const TOPO_CODES = Object.values(TopoDeviceType) as number[];

export const TopologyNodeView = z.object({
  /** The SN of a Beacon device, the MAC of a neighbour, or a synthetic id (internet, segment, fold). */
  id: z.string(),
  kind: z.enum(TOPOLOGY_NODE_TYPES),
  sn: z.string().nullable(),
  mac: z.string().nullable(),
  name: z.string(),
  model: z.string().nullable(),
  ip: z.string().nullable(),
  /** The inventory type of a Beacon device; null for neighbours and synthetic nodes. */
  deviceType: z.enum(DEVICE_TYPES).nullable(),
  /** SPEC.md §4 status of a Beacon device; null for others (the internet node: 1 up, 0 down). */
  status: z.number().int().nullable(),
  /** Wi-Fi clients of an AP-like device now; null where it does not apply. */
  clients: z.number().int().nullable(),
  /** What the neighbour said it is (LLDP); null for Beacon devices and synthetic nodes. */
  role: z.enum(Object.values(NeighbourRole) as [NeighbourRole, ...NeighbourRole[]]).nullable(),
  /** The user's device-type code for this node (SPEC.md §3, 1 to 12); null = as reported. */
  typeCode: z.number().int().nullable(),
  /** Port ids and VLANs on this node's links: the search fields port and vlan. */
  ports: z.array(z.string()),
  vlans: z.array(z.number().int()),
  /** The expandable node (expand_*) this node is folded into; null when shown on its own. */
  group: z.string().nullable(),
  /** For an expandable node: how many nodes it holds. */
  members: z.number().int().nullable(),
});
export type TopologyNodeView = z.infer<typeof TopologyNodeView>;

export const TopologyEdgeView = z.object({
  id: z.string(),
  /** The end nearer the internet (the uplink side). */
  source: z.string(),
  target: z.string(),
  sourcePort: z.string().nullable(),
  targetPort: z.string().nullable(),
  medium: z.enum(Object.values(LinkMedium) as [LinkMedium, ...LinkMedium[]]),
  /** Mbit/s; 0 when down. */
  speed: z.number().int(),
  rssi: z.number().int().nullable(),
  /** Watts the source port supplies over PoE; null when it supplies none. */
  poe: z.number().nullable(),
  /** Both ends report it and are online (for the internet link: the gateway says it is up). */
  up: z.boolean(),
  /** Not on the tree from the internet: a second path (a loop or a redundant link). */
  redundant: z.boolean(),
});
export type TopologyEdgeView = z.infer<typeof TopologyEdgeView>;

export const TopologyView = z.object({
  nodes: z.array(TopologyNodeView),
  edges: z.array(TopologyEdgeView),
  /** More devices than TOPOLOGY_MAX_NODES: the graph holds the first ones only. */
  truncated: z.boolean(),
});
export type TopologyView = z.infer<typeof TopologyView>;

/** SPEC.md §3 topology device-type codes: -1 (no change, i.e. back to what is reported) or 1 to 12. */
export function validateTopoTypeCode(code: number): Failure | null {
  return TOPO_CODES.includes(code) ? null : fail(Codes.TOPOLOGY_TYPE_CODE);
}

/** A node the user may retype: a Beacon device by SN or a neighbour by MAC. */
export const TopologyNodeKey = z.union([snSchema, macSchema.transform((m) => m.toUpperCase())]);

export const TopologyTypeBody = z.object({
  node: TopologyNodeKey,
  code: checked(z.int(), validateTopoTypeCode),
});
export type TopologyTypeBody = z.input<typeof TopologyTypeBody>;

export const TopologyTypeView = z.object({ node: z.string(), code: z.number().int() });
export type TopologyTypeView = z.infer<typeof TopologyTypeView>;

/**
 * Whether a node matches a search by one of SPEC.md §3's filter fields (case-insensitive, part of
 * the value; port and vlan match a whole value on one of the node's links).
 */
export function topologyNodeMatches(node: TopologyNodeView, field: SearchField, text: string): boolean {
  const q = text.trim().toLowerCase();
  if (!q) return false;
  const has = (v: string | null) => v?.toLowerCase().includes(q) ?? false;
  switch (field) {
    case SearchField.IP:
      return has(node.ip);
    case SearchField.MODEL:
      return has(node.model);
    case SearchField.NAME:
      return has(node.name) || has(node.sn);
    case SearchField.MAC:
      return has(node.mac) || has(node.mac?.replaceAll(':', '') ?? null);
    case SearchField.PORT:
      return node.ports.some((p) => p.toLowerCase() === q);
    case SearchField.VLAN:
      return node.vlans.some((v) => String(v) === q);
  }
}
