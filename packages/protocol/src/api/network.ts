import { z } from 'zod';
import {
  guestNetworkSchema,
  networkSegments,
  newLeaseRegistry,
  prefixPath,
  TUNNEL_CLIENTS_MAX,
  tunnelClientSchema,
  tunnelServerSchema,
  validateDhcpPool,
  validateGuestNetwork,
  validatePortMappings,
  validateSegments,
  validateStaticRoutes,
  validateTunnelClients,
  validateTunnelServer,
} from '../device/sections.ts';
import { LIMITS } from '../enums/limits.ts';
import { Protocol, WanConnectionType } from '../enums/network.ts';
import { Codes } from '../errors.ts';
import { validatePoolName } from '../validators/dhcp.ts';
import {
  parseIpv4,
  validateDns,
  validateHostAddress,
  validateIpv4,
  validateSubnetMask,
  validateWanGateway,
} from '../validators/ip.ts';
import { validateUniqueName } from '../validators/names.ts';
import { type Check, invalid } from '../validators/result.ts';
import { VLAN_RANGES, type VlanRange, validateVlanId, validateVlanName } from '../validators/vlan.ts';
import { ConfigReason } from './config.ts';
import { DeviceConfigState } from './devices.ts';
import { ID_MAX } from './ids.ts';

/**
 * The project's desired network configuration (SPEC.md §3 network items, issue 10): one document
 * with the WAN, the LAN, the VLANs, the DHCP pools with their static leases, the static routes and
 * the port mappings, saved as revisions of the project (server src/network/, docs/decisions/0038)
 * and compiled into each affected device's configuration document: the gateway gets every section,
 * switches get the VLANs, APs and switches the management VLAN.
 *
 * The schema only bounds shapes; every cross-field rule of SPEC.md §5 is `validateNetworkDocument`,
 * which answers the first failure with its catalogue code and where it is (the server refuses with
 * it, the web form shows it under the field as the user types).
 */

const ip = z.string().trim().max(15);
const mask = z.union([z.string().trim().max(15), z.int().min(0).max(32)]);
/** Numbers, not integers, so a VLAN id such as 10.5 reaches the validator's 112. */
const vlanId = z.number().min(0).max(99_999);
const portList = z.array(z.int().min(1).max(64)).max(64).default([]);
const dns = z.array(z.string().trim().max(15)).max(4).default([]);

export const NetworkWan = z.object({
  type: z.enum(Object.values(WanConnectionType) as [WanConnectionType, ...WanConnectionType[]]),
  ip: ip.optional(),
  mask: mask.optional(),
  gateway: ip.optional(),
  dns,
  /** PPPoE account and password (multi-dial too). */
  username: z.string().max(64).optional(),
  password: z.string().max(64).optional(),
});
export type NetworkWan = z.output<typeof NetworkWan>;

export const NetworkLan = z.object({ ip, mask });

export const NetworkVlan = z.object({
  id: vlanId,
  name: z.string().max(64),
  ip: ip.optional(),
  mask: mask.optional(),
  /** The gateway serves DHCP on the VLAN's interface (a pool names the VLAN). */
  dhcp: z.boolean().default(false),
  /** DHCP relay: the server requests are relayed to (only one of relay, snooping or server: 5011). */
  dhcpRelay: ip.optional(),
  /** DHCP snooping on the VLAN (only one of relay, snooping or server: 5011). */
  dhcpSnooping: z.boolean().default(false),
  /**
   * L3 virtual interface: the gateway has an address in the VLAN. Absent: on exactly when the VLAN
   * has an IP. Off: a layer-2 VLAN without IP, DHCP server or relay; on: needs an IP.
   */
  l3: z.boolean().optional(),
  /** Gateway ports carrying the VLAN tagged / untagged (a LAN port is untagged in one VLAN only). */
  tagged: portList,
  untagged: portList,
});
export type NetworkVlan = z.output<typeof NetworkVlan>;

export const NetworkStaticLease = z.object({
  mac: z.string().trim().max(17),
  ip,
  name: z.string().max(32).default(''),
});

export const NetworkDhcpPool = z.object({
  name: z.string().max(64),
  /** The VLAN whose interface serves the pool; absent: the LAN. */
  vlan: z.int().min(0).max(99_999).optional(),
  startIp: ip,
  endIp: ip,
  mask,
  gateway: ip.optional(),
  dns,
  leaseMinutes: z.number(),
  staticLeases: z.array(NetworkStaticLease).max(256).default([]),
});
export type NetworkDhcpPool = z.output<typeof NetworkDhcpPool>;

export const NetworkStaticRoute = z.object({
  name: z.string().max(64),
  destination: ip,
  mask,
  nextHop: ip,
  outPort: z.int().min(1).max(64).optional(),
});

export const NetworkPortMapping = z.object({
  name: z.string().max(64),
  protocol: z.enum([Protocol.ALL, Protocol.TCP, Protocol.UDP]),
  internalIp: ip,
  internalPorts: z.string().trim().max(200),
  externalPorts: z.string().trim().max(200),
});

export const NetworkDocument = z.object({
  wan: NetworkWan.nullable().default(null),
  lan: NetworkLan.nullable().default(null),
  vlans: z.array(NetworkVlan).max(LIMITS.VLAN_ID_MAX).default([]),
  dhcpPools: z.array(NetworkDhcpPool).max(64).default([]),
  staticRoutes: z.array(NetworkStaticRoute).max(128).default([]),
  portMappings: z.array(NetworkPortMapping).max(128).default([]),
  /** The gateway's guest network, isolated from the LAN and the VLANs (null: none). */
  guest: guestNetworkSchema.nullable().default(null),
  /** The gateway's PPPoE, PPTP and L2TP servers (null: off). */
  pppoeServer: tunnelServerSchema.nullable().default(null),
  pptpServer: tunnelServerSchema.nullable().default(null),
  l2tpServer: tunnelServerSchema.nullable().default(null),
  /** Tunnels the gateway dials as a PPTP or L2TP client, each reaching a remote network. */
  pptpClients: z.array(tunnelClientSchema).max(TUNNEL_CLIENTS_MAX).default([]),
  l2tpClients: z.array(tunnelClientSchema).max(TUNNEL_CLIENTS_MAX).default([]),
  /** The VLAN switches and APs are managed in; absent: untagged. */
  managementVlan: z.int().min(0).max(99_999).optional(),
});
export type NetworkDocument = z.output<typeof NetworkDocument>;
export type NetworkDocumentInput = z.input<typeof NetworkDocument>;

export const EMPTY_NETWORK: NetworkDocument = NetworkDocument.parse({});

/** SPEC.md §8: only one of DHCP relay, snooping or server on a VLAN at a time (5011). */
export function validateDhcpExclusive(v: Pick<NetworkVlan, 'dhcp' | 'dhcpRelay' | 'dhcpSnooping'>): Check {
  const on = [v.dhcp, !!v.dhcpRelay, v.dhcpSnooping].filter(Boolean).length;
  return on > 1
    ? invalid(Codes.DHCP_EXCLUSIVE, 'Only one of DHCP relay, snooping or server can be enabled at a time')
    : null;
}

/** SPEC.md §3 VLAN L3 virtual interface: off carries no IP, DHCP server or relay; on needs an IP. */
export function validateL3Interface(v: Pick<NetworkVlan, 'l3' | 'ip' | 'dhcp' | 'dhcpRelay'>): Check {
  const hasIp = v.ip !== undefined && v.ip !== '';
  if (v.l3 === false && (hasIp || v.dhcp || v.dhcpRelay)) {
    return invalid(
      Codes.FORM_DATA,
      'A VLAN without an L3 virtual interface has no IP, DHCP server or DHCP relay',
    );
  }
  if (v.l3 === true && !hasIp) return invalid(Codes.FORM_DATA, 'An L3 virtual interface needs an IP');
  return null;
}

/** A failure located in the document, e.g. `vlans.2.name`. */
export type NetworkCheck = (Check & { path: string }) | null;

export interface NetworkRules {
  /** The VLAN id range every device of the project accepts (default 10-4094). */
  vlanRange?: VlanRange;
  /** The gateway's port numbers (VLAN port lists, route out port); unknown: any. */
  gatewayPorts?: readonly number[];
  /**
   * The stored revision the change is made on: its networks are the ones already configured, so a
   * segment clash is reported at (and coded for) the network added or changed (docs/decisions/0046).
   */
  previous?: NetworkDocument;
}

const at = (path: string, check: Check): NetworkCheck => (check ? { ...check, path } : null);

function first(...checks: (() => NetworkCheck)[]): NetworkCheck {
  for (const c of checks) {
    const r = c();
    if (r) return r;
  }
  return null;
}

const isMulti = (t: WanConnectionType) =>
  t === WanConnectionType.MULTI_DHCP ||
  t === WanConnectionType.MULTI_PPPOE ||
  t === WanConnectionType.MULTI_STATIC;
const isStatic = (t: WanConnectionType) =>
  t === WanConnectionType.STATIC_IP || t === WanConnectionType.MULTI_STATIC;
const isPppoe = (t: WanConnectionType) =>
  t === WanConnectionType.PPPOE || t === WanConnectionType.MULTI_PPPOE;

/**
 * Every rule of SPEC.md §5 across the document, in the order the screens present them (LAN, guest,
 * PPPoE / PPTP / L2TP, VLAN, WAN, segments, DHCP, static routes, port mappings): null, or the first
 * failure with its catalogue code and its path. `doc` must already have passed `NetworkDocument`.
 * The sections' own rules are the shared section validators (device/sections.ts), which the device
 * applies too.
 */
export function validateNetworkDocument(doc: NetworkDocument, rules: NetworkRules = {}): NetworkCheck {
  const range = rules.vlanRange ?? VLAN_RANGES.DEFAULT;
  const ports = rules.gatewayPorts ? new Set(rules.gatewayPorts) : null;

  if (doc.lan) {
    const lan = doc.lan;
    const r = first(
      () => at('lan.mask', typeof lan.mask === 'string' ? validateSubnetMask(lan.mask) : null),
      () => {
        const f = validateHostAddress(lan.ip, lan.mask, 'LAN IP');
        return f ? at('lan.ip', { ...f, code: Codes.LAN_IP }) : null;
      },
    );
    if (r) return r;
  }

  const tunnels = first(
    () => (doc.guest ? prefixPath('guest', validateGuestNetwork(doc.guest)) : null),
    () =>
      doc.pppoeServer ? prefixPath('pppoeServer', validateTunnelServer(doc.pppoeServer, 'pppoe')) : null,
    () => (doc.pptpServer ? prefixPath('pptpServer', validateTunnelServer(doc.pptpServer, 'pptp')) : null),
    () => prefixPath('pptpClients', validateTunnelClients(doc.pptpClients, 'pptp')),
    () => (doc.l2tpServer ? prefixPath('l2tpServer', validateTunnelServer(doc.l2tpServer, 'l2tp')) : null),
    () => prefixPath('l2tpClients', validateTunnelClients(doc.l2tpClients, 'l2tp')),
  );
  if (tunnels) return tunnels;

  const vlanIds: number[] = [];
  const vlanNames: string[] = [];
  const untaggedPort = new Map<number, number>();
  for (const [i, v] of doc.vlans.entries()) {
    const p = `vlans.${i}`;
    const r = first(
      () => at(`${p}.id`, validateVlanId(v.id, range)),
      () =>
        vlanIds.includes(v.id)
          ? at(`${p}.id`, invalid(Codes.VLAN_ID_EXISTS, `VLAN ${v.id} already exists`))
          : null,
      () => at(`${p}.name`, validateVlanName(v.name, vlanNames)),
      () => {
        const bad = ports ? [...v.tagged, ...v.untagged].find((id) => !ports.has(id)) : undefined;
        return bad === undefined
          ? null
          : at(`${p}.tagged`, invalid(Codes.FORM_DATA, `The gateway has no port ${bad}`));
      },
      () => {
        const both = v.tagged.find((id) => v.untagged.includes(id));
        return both === undefined
          ? null
          : at(
              `${p}.tagged`,
              // SPEC.md §5 "tagged differs from PVID": an untagged port's PVID is this VLAN.
              invalid(
                Codes.FORM_DATA,
                `Port ${both} is untagged in VLAN ${v.id} (its PVID): tagged must differ from the PVID`,
              ),
            );
      },
      () => {
        // SPEC.md §5: a LAN port needs exactly one untagged VLAN.
        const taken = v.untagged.find((id) => untaggedPort.has(id));
        return taken === undefined
          ? null
          : at(
              `${p}.untagged`,
              invalid(
                Codes.INTERFACE_IN_USE,
                `Port ${taken} is already untagged in VLAN ${untaggedPort.get(taken)}; a LAN port has exactly one untagged VLAN`,
              ),
            );
      },
      () => at(`${p}.dhcp`, validateDhcpExclusive(v)),
      () => (v.dhcpRelay ? at(`${p}.dhcpRelay`, validateIpv4(v.dhcpRelay, 'DHCP relay server')) : null),
      () => at(`${p}.l3`, validateL3Interface(v)),
      () => {
        if (v.ip === undefined || v.ip === '') {
          if (v.dhcp) return at(`${p}.ip`, invalid(Codes.FORM_DATA, 'A VLAN serving DHCP needs an IP'));
          return v.dhcpRelay
            ? at(`${p}.ip`, invalid(Codes.FORM_DATA, 'A VLAN relaying DHCP needs an IP'))
            : null;
        }
        const m = v.mask ?? 24;
        if (typeof m === 'string') {
          const f = validateSubnetMask(m);
          if (f) return at(`${p}.mask`, f);
        }
        const f = validateHostAddress(v.ip, m, 'VLAN IP');
        if (f) return at(`${p}.ip`, f);
        if (doc.lan && parseIpv4(doc.lan.ip) === parseIpv4(v.ip)) {
          return at(`${p}.ip`, invalid(Codes.SAME_AS_LAN_IP, 'The VLAN IP is the same as the LAN IP'));
        }
        const sameIp = doc.vlans.slice(0, i).find((o) => o.ip && parseIpv4(o.ip) === parseIpv4(v.ip!));
        if (sameIp) {
          return at(`${p}.ip`, invalid(Codes.SAME_AS_VLAN_IP, `The IP is the same as VLAN ${sameIp.id}'s`));
        }
        return null;
      },
    );
    if (r) return r;
    vlanIds.push(v.id);
    vlanNames.push(v.name);
    for (const id of v.untagged) untaggedPort.set(id, v.id);
  }

  if (doc.managementVlan !== undefined && !vlanIds.includes(doc.managementVlan)) {
    return at('managementVlan', invalid(Codes.VLAN_MISSING, `VLAN ${doc.managementVlan} does not exist`));
  }

  if (doc.wan) {
    const w = doc.wan;
    const r = first(
      () => at('wan.dns', validateDns(w.dns)),
      () => {
        if (!isPppoe(w.type)) return null;
        if (!w.username?.trim())
          return at('wan.username', invalid(Codes.FORM_DATA, 'Enter the PPPoE account'));
        if (!w.password) return at('wan.password', invalid(Codes.FORM_DATA, 'Enter the PPPoE password'));
        return null;
      },
      () => {
        if (!isStatic(w.type)) return null;
        if (!w.ip) return at('wan.ip', invalid(Codes.FORM_DATA, 'A static WAN needs an IP'));
        if (w.mask === undefined || w.mask === '')
          return at('wan.mask', invalid(Codes.FORM_DATA, 'A static WAN needs a mask'));
        if (!w.gateway) return at('wan.gateway', invalid(Codes.FORM_DATA, 'A static WAN needs a gateway'));
        const m = w.mask;
        const ipv = w.ip;
        const gw = w.gateway;
        return first(
          () => at('wan.mask', typeof m === 'string' ? validateSubnetMask(m) : null),
          () => at('wan.ip', validateHostAddress(ipv, m, 'WAN IP')),
          () => at('wan.gateway', validateWanGateway(ipv, gw, m)),
        );
      },
      () =>
        isMulti(w.type) && doc.portMappings.length > 0
          ? at(
              'wan.type',
              invalid(165, 'Port mappings cannot be combined with a multi-dial WAN (multiple configuration)'),
            )
          : null,
    );
    if (r) return r;
  }

  // SPEC.md §5: the WAN, LAN, VLAN, guest, PPPoE, PPTP and L2TP networks on different segments.
  const clash = validateSegments(
    networkSegments(doc),
    rules.previous ? networkSegments(rules.previous) : undefined,
  );
  if (clash) return clash;

  const poolNames: string[] = [];
  const leases = newLeaseRegistry();
  for (const [i, pool] of doc.dhcpPools.entries()) {
    const p = `dhcpPools.${i}`;
    const r = first(
      () => at(`${p}.name`, validatePoolName(pool.name)),
      () => at(`${p}.name`, validateUniqueName(pool.name, poolNames, 'Pool name')),
      () =>
        pool.vlan !== undefined && !vlanIds.includes(pool.vlan)
          ? at(`${p}.vlan`, invalid(Codes.VLAN_MISSING, `VLAN ${pool.vlan} does not exist`))
          : null,
      () =>
        pool.vlan !== undefined && doc.dhcpPools.slice(0, i).some((o) => o.vlan === pool.vlan)
          ? at(`${p}.vlan`, invalid(Codes.INTERFACE_IN_USE, `VLAN ${pool.vlan} already has a pool`))
          : null,
      () => prefixPath(p, validateDhcpPool(pool, leases)),
    );
    if (r) return r;
    poolNames.push(pool.name);
  }

  return first(
    () => prefixPath('staticRoutes', validateStaticRoutes(doc.staticRoutes, ports)),
    () => prefixPath('portMappings', validatePortMappings(doc.portMappings)),
  );
}

// ── API shapes ───────────────────────────────────────────────────────────────

const ExpectedRevision = z.int().min(0).max(ID_MAX);

export const SaveNetworkBody = z.object({
  expectedRevision: ExpectedRevision,
  document: NetworkDocument,
  reason: ConfigReason,
});
export type SaveNetworkBody = z.input<typeof SaveNetworkBody>;

export const PreviewNetworkBody = z.object({ document: NetworkDocument });
export type PreviewNetworkBody = z.input<typeof PreviewNetworkBody>;

export const RollbackNetworkBody = z.object({
  revision: z.int().min(1).max(ID_MAX),
  expectedRevision: ExpectedRevision,
  reason: ConfigReason,
});
export type RollbackNetworkBody = z.input<typeof RollbackNetworkBody>;

/** Why a device does not take the change now. */
export const NetworkDeviceNote = {
  /** Offline: it gets the revision when it is back. */
  OFFLINE: 'offline',
  /** Upgrading: it gets the revision when the upgrade is over. */
  UPGRADING: 'upgrading',
  /** Local management mode: not configured from the cloud (76) until it is back in cloud mode. */
  LOCAL: 'local',
} as const;
export type NetworkDeviceNote = (typeof NetworkDeviceNote)[keyof typeof NetworkDeviceNote];

/** One device the network configuration reaches, and where it stands. */
export const NetworkDeviceView = z.object({
  sn: z.string(),
  name: z.string(),
  model: z.string(),
  type: z.string(),
  /** The sections of the network document this device gets. */
  sections: z.array(z.string()),
  /** Whether the change would alter this device's document (preview). */
  changed: z.boolean(),
  note: z.enum([NetworkDeviceNote.OFFLINE, NetworkDeviceNote.UPGRADING, NetworkDeviceNote.LOCAL]).nullable(),
  /** The device's desired revision, and the one it reports it runs. */
  revision: z.int(),
  reportedRevision: z.int(),
  status: z.enum([DeviceConfigState.PENDING, DeviceConfigState.APPLIED, DeviceConfigState.FAILED]),
  code: z.int().nullable(),
});
export type NetworkDeviceView = z.infer<typeof NetworkDeviceView>;

export const NetworkProgress = z.object({
  pending: z.int(),
  applied: z.int(),
  failed: z.int(),
  /** Not configurable now (local management mode). */
  skipped: z.int(),
});
export type NetworkProgress = z.infer<typeof NetworkProgress>;

export const NetworkView = z.object({
  /** The latest revision (0: none saved yet). */
  revision: z.int(),
  hash: z.string().nullable(),
  document: NetworkDocument,
  /** The VLAN id range every device of the project accepts, and the gateway's ports. */
  vlanRange: z.object({ min: z.int(), max: z.int() }),
  gatewayPorts: z.array(z.int()),
  devices: z.array(NetworkDeviceView),
  progress: NetworkProgress,
});
export type NetworkView = z.infer<typeof NetworkView>;

export const NetworkPreviewView = z.object({ devices: z.array(NetworkDeviceView) });
export type NetworkPreviewView = z.infer<typeof NetworkPreviewView>;

/** One route the gateway reports it runs (route-table command). */
export const RouteTableEntry = z.object({
  destination: z.string().max(15),
  mask: z.string().max(15),
  gateway: z.string().max(15),
  interface: z.string().max(32),
  metric: z.int().min(0).max(65_535),
  /** connected, static or default (from the WAN). */
  source: z.enum(['connected', 'static', 'default']),
});
export type RouteTableEntry = z.infer<typeof RouteTableEntry>;

export const RouteTableView = z.object({
  /** The gateway asked; null when the project has none (code 5252). */
  sn: z.string().nullable(),
  /** 0 when the gateway answered; else why there is no table (36 offline, 71 upgrading, 5025 …). */
  code: z.int(),
  message: z.string().nullable(),
  /** The revision the gateway runs. */
  revision: z.int(),
  routes: z.array(RouteTableEntry),
});
export type RouteTableView = z.infer<typeof RouteTableView>;
