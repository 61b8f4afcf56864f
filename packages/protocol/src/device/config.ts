import { z } from 'zod';
import { PortMode, PortSpeedMode } from '../enums/device.ts';
import { LIMITS } from '../enums/limits.ts';
import { Protocol, WanConnectionType } from '../enums/network.ts';
import {
  DEFAULT_WIFI_COUNTRY,
  validateLoadBalanceClients,
  validateRadioSetting,
  validateWifiCountry,
} from '../enums/rf.ts';
import { Cipher, EncryptionMode, FrequencyBand, requiresPassphrase } from '../enums/wireless.ts';
import { Codes, type ErrorCode } from '../errors.ts';
import { validateTimeZone } from '../timezone.ts';
import { validateWifiPassword } from '../validators/device.ts';
import {
  validateDns,
  validateHostAddress,
  validateIpv4,
  validateSubnetMask,
  validateWanGateway,
} from '../validators/ip.ts';
import { validateSsid, validateWirelessPolicyName } from '../validators/names.ts';
import { validateIntegerInRange } from '../validators/numbers.ts';
import { type Check, invalid } from '../validators/result.ts';
import {
  validateStrippedVsAllowed,
  validateTaggedNotPvid,
  validateVlanId,
  validateVlanName,
} from '../validators/vlan.ts';
import {
  validateAccessThreshold,
  validateBands,
  validateCipher,
  validateKeyUpdateInterval,
  validateMaxClients,
  validatePolicyCount,
  validateTimerShutdown,
  validateTxPower,
} from '../validators/wireless.ts';
import { dhcpServerConfigSchema, validateDhcpServerConfig } from './dhcp-server.ts';
import { macSchema } from './messages.ts';
import { Capability, hasCapability, type ModelInfo } from './models.ts';
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
} from './sections.ts';
import { switchConfigSchema, validateSwitchConfig } from './switch-config.ts';

/**
 * The configuration document a device runs: the whole desired configuration of one device, sent with
 * `apply-config` under a revision. Every section is optional (a device of a type without, say, Wi-Fi
 * gets none); unknown keys are kept, so a server may send sections an older device ignores.
 */

const int = z.int();
const ip = z.string().max(15);
const mask = z.union([z.string().max(15), z.int().min(0).max(32)]);

export const lanConfigSchema = z.object({ ip, mask });

export const wanConfigSchema = z.object({
  type: z.enum(Object.values(WanConnectionType) as [WanConnectionType, ...WanConnectionType[]]),
  ip: ip.optional(),
  mask: mask.optional(),
  gateway: ip.optional(),
  dns: z.array(z.string()).max(LIMITS.DNS_MAX).default([]),
  username: z.string().max(64).optional(),
  password: z.string().max(64).optional(),
});

export const vlanConfigSchema = z.object({
  id: int,
  name: z.string(),
  ip: ip.optional(),
  mask: mask.optional(),
  dhcp: z.boolean().default(false),
  /** DHCP relay server, DHCP snooping, L3 virtual interface (project network, decision 0042). */
  dhcpRelay: ip.optional(),
  dhcpSnooping: z.boolean().optional(),
  l3: z.boolean().optional(),
  /** Ports that carry the VLAN tagged / untagged. */
  tagged: z.array(int).default([]),
  untagged: z.array(int).default([]),
});

export const dhcpPoolConfigSchema = z.object({
  name: z.string(),
  startIp: ip,
  endIp: ip,
  mask,
  gateway: ip.optional(),
  dns: z.array(z.string()).default([]),
  leaseMinutes: int,
  /** The VLAN whose interface serves the pool (null: the LAN). */
  vlan: int.nullable().optional(),
  staticLeases: z
    .array(z.object({ mac: z.string().max(17), ip, name: z.string().max(32).default('') }))
    .max(256)
    .optional(),
});

export const staticRouteConfigSchema = z.object({
  name: z.string().min(1).max(32),
  destination: ip,
  mask,
  nextHop: ip,
  outPort: int.optional(),
});

export const portMappingConfigSchema = z.object({
  name: z.string().min(1).max(32),
  protocol: z.enum([Protocol.ALL, Protocol.TCP, Protocol.UDP]),
  internalIp: ip,
  internalPorts: z.string(),
  externalPorts: z.string(),
});

export const portConfigSchema = z.object({
  id: int,
  enabled: z.boolean().default(true),
  mode: z.enum([PortMode.ACCESS, PortMode.TRUNK]).default(PortMode.ACCESS),
  pvid: int.default(1),
  tagged: z.array(int).default([]),
  /** VLANs stripped on egress (trunk). */
  stripped: z.array(int).default([]),
  poe: z.boolean().default(true),
  speedMode: z
    .enum([PortSpeedMode.AUTO, PortSpeedMode.HALF_DUPLEX, PortSpeedMode.FULL_DUPLEX])
    .default('auto'),
  /** Rate limits in kbit/s, 0 = unlimited. */
  rateIn: int.min(0).default(0),
  rateOut: int.min(0).default(0),
  eee: z.boolean().default(false),
  trusted: z.boolean().default(false),
  aggregation: int.min(1).max(8).nullable().default(null),
  remark: z.string().max(64).default(''),
});

const bandSchema = z.enum([FrequencyBand.B2G4, FrequencyBand.B5G, FrequencyBand.B5G1, FrequencyBand.B5G2]);

export const wifiConfigSchema = z.object({
  name: z.string(),
  ssid: z.string(),
  encryption: int,
  cipher: z.enum([Cipher.AES, Cipher.TKIP, Cipher.TKIP_AES]).nullable().default(null),
  password: z.string().default(''),
  keyUpdateInterval: int.default(0),
  vlan: int.nullable().default(null),
  maxClients: int.default(LIMITS.CLIENTS_PER_BAND),
  hidden: z.boolean().default(false),
  bands: z.array(bandSchema),
  guest: z.boolean().default(false),
  /** Per-client rate limit of a guest network in kbit/s, 0 = unlimited. */
  guestRateKbps: int.min(0).default(0),
  radius: z.object({ ip, port: int, password: z.string() }).optional(),
  /** Timer shutdown: the periods of the day (in the document's `timeZone`) the SSID is off. */
  schedule: z.array(z.object({ start: z.string(), end: z.string() })).default([]),
  enabled: z.boolean().default(true),
  /** The project's policy this network comes from (src/wifi/, decision 0047). */
  policy: int.optional(),
  /** Guest clients cannot reach one another. */
  clientIsolation: z.boolean().optional(),
  /** The SSID takes part in signal extension (WDS / mesh backhaul); never with WPA-PSK (SPEC.md §4). */
  signalExtension: z.boolean().optional(),
});

export const radioConfigSchema = z.object({
  band: bandSchema,
  /** 0 = automatic. */
  channel: int.min(0).max(196).default(0),
  /** Channel width in MHz (20, 40, 80; enums/rf.ts); absent: the band's default. */
  width: int.optional(),
  power: int,
  accessThreshold: int.optional(),
  enabled: z.boolean().default(true),
});

/** The roaming tuner of an AP (docs/decisions/0048): band steering and load balancing. */
export const roamingConfigSchema = z.object({
  /** Steer dual-band clients to 5 GHz. */
  bandSteering: z.boolean().default(false),
  /** Clients at which new ones are steered to a neighbour AP; 0 = off (47 outside 0-128). */
  loadBalanceClients: int.default(0),
});

export const deviceConfigSchema = z.looseObject({
  name: z.string().max(64).optional(),
  /** The device's own administrator password (SPEC.md §5), sealed at rest by the server. */
  admin: z.object({ password: z.string().max(64) }).optional(),
  /** Status LEDs on (true) or off. */
  led: z.boolean().optional(),
  lan: lanConfigSchema.optional(),
  wan: wanConfigSchema.optional(),
  vlans: z.array(vlanConfigSchema).optional(),
  dhcpPools: z.array(dhcpPoolConfigSchema).optional(),
  staticRoutes: z.array(staticRouteConfigSchema).optional(),
  portMappings: z.array(portMappingConfigSchema).optional(),
  /** The gateway's guest network, PPPoE / PPTP / L2TP servers and PPTP / L2TP clients (decision 0046). */
  guest: guestNetworkSchema.optional(),
  pppoeServer: tunnelServerSchema.optional(),
  pptpServer: tunnelServerSchema.optional(),
  l2tpServer: tunnelServerSchema.optional(),
  pptpClients: z.array(tunnelClientSchema).max(TUNNEL_CLIENTS_MAX).optional(),
  l2tpClients: z.array(tunnelClientSchema).max(TUNNEL_CLIENTS_MAX).optional(),
  ports: z.array(portConfigSchema).optional(),
  /** The VLAN the device is managed in (switches, APs); null: untagged. */
  managementVlan: int.nullable().optional(),
  wifi: z.array(wifiConfigSchema).optional(),
  /** The device's clock zone (IANA), which the Wi-Fi timer shutdown runs in (the project's). */
  timeZone: z.string().max(64).optional(),
  radios: z.array(radioConfigSchema).optional(),
  /** The project's Wi-Fi country or region (ISO 3166-1): the channels and power its radios may use. */
  country: z.string().optional(),
  roaming: roamingConfigSchema.optional(),
  /** A switch's ports, QVLAN, management VLAN and IP (switch-config.ts, docs/decisions/0039). */
  switch: switchConfigSchema.optional(),
  /** The DHCP server of a switch or an AP (dhcp-server.ts, docs/decisions/0043). */
  dhcpServer: dhcpServerConfigSchema.optional(),
  /** Client MACs the device refuses and drops (the project's client blacklist, decision 0035). */
  clientBlacklist: z.array(macSchema).max(100).optional(),
});
export type DeviceConfig = z.output<typeof deviceConfigSchema>;
export type DeviceConfigInput = z.input<typeof deviceConfigSchema>;

/** A failure located in the document, e.g. `vlans.2.name`. */
export type ConfigCheck = (Check & { path?: string }) | null;

function at(path: string, check: Check): ConfigCheck {
  return check ? { ...check, path } : null;
}

function first(...checks: (() => ConfigCheck)[]): ConfigCheck {
  for (const c of checks) {
    const r = c();
    if (r) return r;
  }
  return null;
}

const MODEL_CODE = 2 as ErrorCode;

function needs(info: ModelInfo, capability: Capability, section: string, present: boolean): ConfigCheck {
  return present && !hasCapability(info, capability)
    ? { ...invalid(MODEL_CODE, `The model ${info.model} has no ${section}`), path: section }
    : null;
}

/**
 * Validates a configuration document for a model with the rules of SPEC.md §5, as the device does
 * before it applies it: answers null, or the first failure with its catalogue code and where it is.
 * `doc` must already have passed `deviceConfigSchema`.
 */
export function validateDeviceConfig(doc: DeviceConfig, info: ModelInfo): ConfigCheck {
  const vlanRange = { min: info.minVlan, max: info.maxVlan };
  const portIds = new Set(info.ports.map((p) => p.id));

  const model = first(
    () => needs(info, Capability.WIFI, 'wifi', !!doc.wifi?.length),
    () => needs(info, Capability.RF, 'radios', !!doc.radios?.length && !hasCapability(info, Capability.WIFI)),
    () => needs(info, Capability.WAN, 'wan', !!doc.wan),
    () => needs(info, Capability.DHCP_SERVER, 'dhcpPools', !!doc.dhcpPools?.length),
    () => needs(info, Capability.ROUTING, 'staticRoutes', !!doc.staticRoutes?.length),
    () => needs(info, Capability.PORT_MAPPING, 'portMappings', !!doc.portMappings?.length),
    () => needs(info, Capability.WAN, 'guest', !!doc.guest),
    () =>
      needs(
        info,
        Capability.WAN,
        'tunnels',
        !!(
          doc.pppoeServer ||
          doc.pptpServer ||
          doc.l2tpServer ||
          doc.pptpClients?.length ||
          doc.l2tpClients?.length
        ),
      ),
    () => needs(info, Capability.VLAN, 'vlans', !!doc.vlans?.length),
    () => needs(info, Capability.SWITCHING, 'switch', !!doc.switch),
    // A switch's or an AP's own DHCP server; a gateway serves its pools (dhcpPools) instead.
    () =>
      doc.dhcpServer && !hasCapability(info, Capability.SWITCHING) && !hasCapability(info, Capability.WIFI)
        ? { ...invalid(MODEL_CODE, `The model ${info.model} has no dhcpServer`), path: 'dhcpServer' }
        : null,
  );
  if (model) return model;

  if (doc.name !== undefined && doc.name.trim() === '') {
    return { ...invalid(Codes.FORM_DATA, 'Device name cannot be empty'), path: 'name' };
  }

  if (doc.lan) {
    const lan = doc.lan;
    const r = at('lan.ip', validateHostAddress(lan.ip, lan.mask, 'LAN IP'));
    if (r) return { ...r, code: 101 };
  }

  const tunnels = first(
    () => (doc.guest ? prefixPath('guest', validateGuestNetwork(doc.guest)) : null),
    () =>
      doc.pppoeServer ? prefixPath('pppoeServer', validateTunnelServer(doc.pppoeServer, 'pppoe')) : null,
    () => (doc.pptpServer ? prefixPath('pptpServer', validateTunnelServer(doc.pptpServer, 'pptp')) : null),
    () => prefixPath('pptpClients', validateTunnelClients(doc.pptpClients ?? [], 'pptp')),
    () => (doc.l2tpServer ? prefixPath('l2tpServer', validateTunnelServer(doc.l2tpServer, 'l2tp')) : null),
    () => prefixPath('l2tpClients', validateTunnelClients(doc.l2tpClients ?? [], 'l2tp')),
  );
  if (tunnels) return tunnels;

  if (doc.vlans) {
    if (doc.vlans.length > LIMITS.VLAN_ID_MAX) return at('vlans', invalid(Codes.FORM_DATA, 'Too many VLANs'));
    const ids: number[] = [];
    const names: string[] = [];
    for (const [i, v] of doc.vlans.entries()) {
      const p = `vlans.${i}`;
      const r = first(
        () => at(`${p}.id`, validateVlanId(v.id, vlanRange)),
        () =>
          ids.includes(v.id)
            ? at(`${p}.id`, invalid(Codes.VLAN_ID_EXISTS, `VLAN ${v.id} already exists`))
            : null,
        () => at(`${p}.name`, validateVlanName(v.name, names)),
        () => {
          const bad = [...v.tagged, ...v.untagged].find((id) => !portIds.has(id));
          return bad === undefined
            ? null
            : at(`${p}.tagged`, invalid(Codes.FORM_DATA, `Port ${bad} does not exist`));
        },
        () => (v.ip === undefined ? null : at(`${p}.ip`, validateHostAddress(v.ip, v.mask ?? 24, 'VLAN IP'))),
      );
      if (r) return r;
      ids.push(v.id);
      names.push(v.name);
    }
  }

  if (doc.wan) {
    const w = doc.wan;
    const r = first(
      () => at('wan.dns', validateDns(w.dns)),
      () => {
        if (w.type !== WanConnectionType.STATIC_IP && w.type !== WanConnectionType.MULTI_STATIC) return null;
        if (!w.ip || !w.gateway || w.mask === undefined) {
          return at('wan.ip', invalid(Codes.FORM_DATA, 'A static WAN needs an IP, a mask and a gateway'));
        }
        const m = w.mask;
        return first(
          () => at('wan.mask', typeof m === 'string' ? validateSubnetMask(m) : null),
          () => at('wan.ip', validateHostAddress(w.ip!, m, 'WAN IP')),
          () => at('wan.gateway', validateWanGateway(w.ip!, w.gateway!, m)),
        );
      },
    );
    if (r) return r;
  }

  // SPEC.md §5: every network of the gateway on its own segment (the same rule as the network's).
  const clash = validateSegments(networkSegments(doc));
  if (clash) return clash;

  const leases = newLeaseRegistry();
  for (const [i, pool] of (doc.dhcpPools ?? []).entries()) {
    const r = prefixPath(`dhcpPools.${i}`, validateDhcpPool(pool, leases));
    if (r) return r;
  }

  const sections = first(
    () => prefixPath('staticRoutes', validateStaticRoutes(doc.staticRoutes ?? [], portIds)),
    () => prefixPath('portMappings', validatePortMappings(doc.portMappings ?? [])),
  );
  if (sections) return sections;

  for (const [i, port] of (doc.ports ?? []).entries()) {
    const p = `ports.${i}`;
    const spec = info.ports.find((s) => s.id === port.id);
    const r = first(
      () => (spec ? null : at(`${p}.id`, invalid(Codes.FORM_DATA, `Port ${port.id} does not exist`))),
      () => at(`${p}.pvid`, validateVlanId(port.pvid, { min: 1, max: LIMITS.VLAN_ID_MAX }, 'PVID')),
      () => {
        for (const id of [...port.tagged, ...port.stripped]) {
          const f = validateVlanId(id, { min: 1, max: LIMITS.VLAN_ID_MAX });
          if (f) return at(`${p}.tagged`, f);
        }
        return null;
      },
      () =>
        at(
          `${p}.tagged`,
          port.mode === PortMode.TRUNK ? validateTaggedNotPvid(port.tagged, port.pvid) : null,
        ),
      () => at(`${p}.stripped`, validateStrippedVsAllowed(port.stripped, port.tagged)),
    );
    if (r) return r;
  }

  if (doc.switch) {
    const r = validateSwitchConfig(doc.switch, info);
    if (r) return { ...r, path: r.path ? `switch.${r.path}` : 'switch' };
  }

  if (doc.dhcpServer) {
    const r = validateDhcpServerConfig(doc.dhcpServer, {
      vlans: doc.vlans,
      managementVlan: doc.switch?.managementVlan ?? doc.managementVlan,
    });
    if (r) return { ...r, path: `dhcpServer.${r.path}` };
  }

  const wifi = doc.wifi ?? [];
  if (wifi.length) {
    const count = validatePolicyCount(0, wifi.length);
    if (count) return at('wifi', count);
    if (wifi.filter((w) => w.guest).length > LIMITS.GUEST_WIFI_NETWORKS) {
      return at('wifi', invalid(Codes.GUEST_WIFI_LIMIT, 'Only one guest network is allowed'));
    }
    // Per radio: at most 8 SSIDs (136) and the model's clients per band in all (91).
    for (const band of info.bands) {
      const on = wifi.filter((w) => w.bands.includes(band));
      if (on.length > LIMITS.SSIDS_PER_BAND) {
        return at(
          'wifi',
          invalid(Codes.SSID_DEVICES_FULL, `At most ${LIMITS.SSIDS_PER_BAND} networks on ${band}`),
        );
      }
      const clients = on.reduce((n, w) => n + w.maxClients, 0);
      if (clients > info.maxClientsPerBand) {
        return at(
          'wifi',
          invalid(Codes.MAX_CLIENTS, `At most ${info.maxClientsPerBand} clients on ${band}, not ${clients}`),
        );
      }
    }
  }
  if (doc.timeZone !== undefined) {
    const r = at('timeZone', validateTimeZone(doc.timeZone));
    if (r) return r;
  }
  for (const [i, w] of wifi.entries()) {
    const p = `wifi.${i}`;
    const others = wifi.slice(0, i);
    const r = first(
      () =>
        at(
          `${p}.name`,
          validateWirelessPolicyName(
            w.name,
            others.map((o) => o.name),
          ),
        ),
      () => at(`${p}.ssid`, validateSsid(w.ssid)),
      () =>
        others.some((o) => o.ssid === w.ssid && o.bands.some((b) => w.bands.includes(b)))
          ? at(`${p}.ssid`, invalid(Codes.SAME_SSID, `The SSID ${w.ssid} already exists`))
          : null,
      () =>
        Object.values(EncryptionMode).includes(w.encryption as EncryptionMode)
          ? null
          : at(`${p}.encryption`, invalid(Codes.FORM_DATA, 'Unknown encryption mode')),
      () =>
        at(
          `${p}.password`,
          requiresPassphrase(w.encryption) ? validateWifiPassword(w.password, w.encryption) : null,
        ),
      () => at(`${p}.cipher`, validateCipher(w.encryption, w.cipher)),
      () => at(`${p}.keyUpdateInterval`, validateKeyUpdateInterval(w.keyUpdateInterval)),
      () => at(`${p}.maxClients`, validateMaxClients(w.maxClients)),
      () => at(`${p}.vlan`, w.vlan === null ? null : validateVlanId(w.vlan, { min: 1, max: 4094 })),
      () => at(`${p}.bands`, validateBands(w.bands)),
      () => {
        const missing = w.bands.find((b) => !info.bands.includes(b));
        return missing
          ? at(`${p}.bands`, invalid(MODEL_CODE, `The model ${info.model} has no ${missing} radio`))
          : null;
      },
      () => at(`${p}.schedule`, validateTimerShutdown(w.schedule)),
      () =>
        (w.encryption === EncryptionMode.WPA || w.encryption === EncryptionMode.WPA2) && !w.radius
          ? at(`${p}.radius`, invalid(Codes.FORM_DATA, 'Enterprise encryption needs a RADIUS server'))
          : null,
      () => (w.radius ? at(`${p}.radius.ip`, validateIpv4(w.radius.ip, 'RADIUS IP')) : null),
      () =>
        w.radius
          ? at(
              `${p}.radius.port`,
              validateIntegerInRange(w.radius.port, LIMITS.PORT_MIN, LIMITS.PORT_MAX, 'RADIUS port'),
            )
          : null,
    );
    if (r) return r;
  }

  if (doc.country !== undefined) {
    const c = at('country', validateWifiCountry(doc.country));
    if (c) return c;
  }
  if (doc.roaming) {
    const r = at('roaming.loadBalanceClients', validateLoadBalanceClients(doc.roaming.loadBalanceClients));
    if (r) return r;
  }
  const country = doc.country ?? DEFAULT_WIFI_COUNTRY;
  for (const [i, radio] of (doc.radios ?? []).entries()) {
    const p = `radios.${i}`;
    const r = first(
      () =>
        info.bands.includes(radio.band)
          ? null
          : at(`${p}.band`, invalid(MODEL_CODE, `The model ${info.model} has no ${radio.band} radio`)),
      () =>
        (doc.radios ?? []).slice(0, i).some((o) => o.band === radio.band)
          ? at(`${p}.band`, invalid(Codes.FORM_DATA, `The ${radio.band} radio is set twice`))
          : null,
      () => at(`${p}.power`, validateTxPower(radio.power)),
      () => {
        const f = validateRadioSetting(country, radio);
        if (!f) return null;
        const field = f.code === Codes.RF_POWER ? 'power' : f.code === Codes.RF_WIDTH ? 'width' : 'channel';
        return at(`${p}.${field}`, f);
      },
      () =>
        radio.accessThreshold === undefined
          ? null
          : at(`${p}.accessThreshold`, validateAccessThreshold(radio.accessThreshold)),
    );
    if (r) return r;
  }
  return null;
}

/** The document a device runs before any configuration was applied (and after a reset). */
export const EMPTY_DEVICE_CONFIG: DeviceConfig = {};
