import { z } from 'zod';
import { PortMode, PortSpeedMode, PortType } from '../enums/device.ts';
import { LIMITS } from '../enums/limits.ts';
import { Codes } from '../errors.ts';
import {
  isSameSegment as sameSegment,
  validateDns,
  validateGateway,
  validateHostAddress,
  validateSubnetMask,
} from '../validators/ip.ts';
import { type Check, invalid } from '../validators/result.ts';
import {
  VLAN_RANGES,
  validateStrippedVsAllowed,
  validateTaggedNotPvid,
  validateVlanId,
} from '../validators/vlan.ts';
import { DEVICE_LIMITS } from './limits.ts';
import type { ModelInfo, ModelPort } from './models.ts';

/**
 * The `switch` section of a switch's configuration document (SPEC.md §3 Switch port, §5 VLAN and IP
 * rules; docs/decisions/0039): every port's settings, 802.1Q VLAN (QVLAN) mode, the management VLAN
 * and the switch's own IP configuration. A port the section does not list runs its defaults.
 */

/** Rate limits in kbit/s, 0 = unlimited; at most 10 Gbit/s. */
export const SWITCH_RATE_MAX_KBPS = 10_000_000;
/** Per-port PoE power limit in watts (802.3at PoE+: 30 W); 0 = automatic (by the powered device's class). */
export const POE_PORT_MAX_WATTS = 30;
/** Aggregation groups per switch (SPEC.md §3 aggregation group) and ports per group. */
export const AGGREGATION_GROUPS_MAX = 8;
export const AGGREGATION_MEMBERS_MIN = 2;
export const AGGREGATION_MEMBERS_MAX = 8;
/** Port name (remark): up to 32 printable ASCII characters, may be empty. */
export const PORT_NAME_MAX = 32;
/** Allowed and stripped VLANs per port: at most 100 (SPEC.md §5, 100 per add). */
export const PORT_VLANS_MAX = LIMITS.VLANS_PER_ADD;

/** Speeds a port can be forced to, Mbit/s; 0 = auto-negotiation. */
export const PORT_SPEEDS = [0, 10, 100, 1000, 2500, 10000] as const;

const vlanId = z.int().min(0).max(65535);

export const switchPortSchema = z.object({
  id: z.int().min(1).max(DEVICE_LIMITS.PORTS),
  /** Port on (true) or shut down. */
  enabled: z.boolean().default(true),
  /** Name or remark shown in the port grid. */
  name: z.string().max(64).default(''),
  /** Forced speed in Mbit/s, 0 = auto. */
  speed: z.int().min(0).max(100_000).default(0),
  /** Speed mode: auto, half duplex, full duplex. */
  duplex: z.enum([PortSpeedMode.AUTO, PortSpeedMode.HALF_DUPLEX, PortSpeedMode.FULL_DUPLEX]).default('auto'),
  rateIn: z.int().min(0).max(SWITCH_RATE_MAX_KBPS).default(0),
  rateOut: z.int().min(0).max(SWITCH_RATE_MAX_KBPS).default(0),
  eee: z.boolean().default(false),
  trusted: z.boolean().default(false),
  mode: z.enum([PortMode.ACCESS, PortMode.TRUNK]).default(PortMode.ACCESS),
  pvid: vlanId.default(1),
  /** Trunk: the VLANs the port carries tagged. */
  allowed: z.array(vlanId).max(4094).default([]),
  /** Trunk: VLANs whose tag is stripped on egress (sent untagged); must differ from the allowed ones. */
  stripped: z.array(vlanId).max(4094).default([]),
  /** Aggregation group 1-8, null when the port is not aggregated. */
  aggregation: z.int().min(0).max(255).nullable().default(null),
  /** PoE ports only: power on/off and the power limit in watts (0 = automatic). */
  poe: z
    .object({ enabled: z.boolean(), power: z.number().min(0).max(1000).default(0) })
    .nullable()
    .default(null),
});
export type SwitchPort = z.output<typeof switchPortSchema>;
export type SwitchPortInput = z.input<typeof switchPortSchema>;

export const SwitchIpMode = { DHCP: 'dhcp', STATIC: 'static' } as const;
export type SwitchIpMode = (typeof SwitchIpMode)[keyof typeof SwitchIpMode];

export const switchIpSchema = z.object({
  mode: z.enum([SwitchIpMode.DHCP, SwitchIpMode.STATIC]).default(SwitchIpMode.DHCP),
  ip: z.string().max(15).default(''),
  mask: z.string().max(15).default(''),
  gateway: z.string().max(15).default(''),
  dns: z.array(z.string().max(15)).max(4).default([]),
});
export type SwitchIp = z.output<typeof switchIpSchema>;

export const switchConfigSchema = z.object({
  /** 802.1Q VLAN mode on: port VLAN settings take effect; off: every port in VLAN 1, untagged. */
  qvlan: z.boolean().default(true),
  /** The VLAN the switch is managed in. */
  managementVlan: vlanId.default(1),
  ip: switchIpSchema.default({ mode: 'dhcp', ip: '', mask: '', gateway: '', dns: [] }),
  ports: z.array(switchPortSchema).max(DEVICE_LIMITS.PORTS).default([]),
});
export type SwitchConfig = z.output<typeof switchConfigSchema>;
export type SwitchConfigInput = z.input<typeof switchConfigSchema>;

/** A failure located in the section, e.g. `ports.3.pvid` (relative to `switch`). */
export type SwitchCheck = (Check & { path?: string }) | null;

const MODEL_CODE = Codes.MODEL;
const AGGREGATION = Codes.AGGREGATION;
const VLAN_MISSING = Codes.VLAN_MISSING;

const at = (path: string, check: Check): SwitchCheck => (check ? { ...check, path } : null);

/** The settings a port runs when the section does not list it (and the form starts from). */
export function defaultSwitchPort(spec: ModelPort): SwitchPort {
  return {
    id: spec.id,
    enabled: true,
    name: '',
    speed: 0,
    duplex: PortSpeedMode.AUTO,
    rateIn: 0,
    rateOut: 0,
    eee: false,
    trusted: false,
    mode: PortMode.ACCESS,
    pvid: 1,
    allowed: [],
    stripped: [],
    aggregation: null,
    poe: spec.poe ? { enabled: true, power: 0 } : null,
  };
}

/** The whole section for a model: the given settings, every port of the model present, in order. */
export function completeSwitchConfig(info: ModelInfo, section?: SwitchConfigInput | null): SwitchConfig {
  const parsed = switchConfigSchema.parse(section ?? {});
  const byId = new Map(parsed.ports.map((p) => [p.id, p]));
  return {
    ...parsed,
    ports: info.ports.map((spec) => byId.get(spec.id) ?? defaultSwitchPort(spec)),
  };
}

const PRINTABLE = /^[\x20-\x7e]*$/;

/**
 * One port's own rules (SPEC.md §3 Switch port, §5 VLAN): name, speed and duplex for the port's
 * medium, VLAN ids 1-4094 (112 not an integer), allowed VLANs differ from the PVID, stripped differ
 * from allowed, at most 100 of each, access ports carry no VLAN lists, PoE only on PoE ports (2)
 * with a power limit 0-30 W, aggregation group 1-8. Paths are relative to the port.
 */
export function validateSwitchPort(port: SwitchPort, spec: ModelPort | undefined): SwitchCheck {
  if (!spec) return at('id', invalid(Codes.FORM_DATA, `Port ${port.id} does not exist`));
  if (port.name.length > PORT_NAME_MAX || !PRINTABLE.test(port.name)) {
    return at(
      'name',
      invalid(Codes.FORM_DATA, `Port name: at most ${PORT_NAME_MAX} printable ASCII characters`),
    );
  }
  if (!(PORT_SPEEDS as readonly number[]).includes(port.speed)) {
    return at(
      'speed',
      invalid(Codes.FORM_DATA, `Speed must be auto or one of ${PORT_SPEEDS.slice(1).join(', ')} Mbit/s`),
    );
  }
  if (port.speed > spec.maxSpeed) {
    return at('speed', invalid(Codes.FORM_DATA, `Port ${port.id} runs at most ${spec.maxSpeed} Mbit/s`));
  }
  if (port.duplex === PortSpeedMode.HALF_DUPLEX) {
    if (spec.type === PortType.LIGHT) {
      return at('duplex', invalid(Codes.FORM_DATA, 'An SFP port cannot run half duplex'));
    }
    if (port.speed === 0 || port.speed > 100) {
      return at('duplex', invalid(Codes.FORM_DATA, 'Half duplex needs a forced speed of 10 or 100 Mbit/s'));
    }
  }
  const pvid = validateVlanId(port.pvid, VLAN_RANGES.TAGGED, 'PVID');
  if (pvid) return at('pvid', pvid);
  for (const [key, list] of [
    ['allowed', port.allowed],
    ['stripped', port.stripped],
  ] as const) {
    if (list.length > PORT_VLANS_MAX) {
      return at(key, invalid(Codes.FORM_DATA, `At most ${PORT_VLANS_MAX} VLANs per port`));
    }
    for (const id of list) {
      const f = validateVlanId(id, VLAN_RANGES.TAGGED);
      if (f) return at(key, f);
    }
  }
  if (port.mode === PortMode.ACCESS && (port.allowed.length || port.stripped.length)) {
    return at(
      'allowed',
      invalid(Codes.FORM_DATA, 'An access port carries only its PVID: clear its VLAN lists'),
    );
  }
  if (port.mode === PortMode.TRUNK) {
    const f = validateTaggedNotPvid(port.allowed, port.pvid);
    if (f) return at('allowed', f);
    if (port.allowed.length === 0) {
      return at('allowed', invalid(Codes.FORM_DATA, 'A trunk port needs at least one allowed VLAN'));
    }
  }
  const stripped = validateStrippedVsAllowed(port.stripped, port.allowed);
  if (stripped) return at('stripped', stripped);
  if (port.aggregation !== null && (port.aggregation < 1 || port.aggregation > AGGREGATION_GROUPS_MAX)) {
    return at(
      'aggregation',
      invalid(AGGREGATION, `Aggregation group must be 1 to ${AGGREGATION_GROUPS_MAX}`),
    );
  }
  if (port.poe) {
    if (!spec.poe) return at('poe', invalid(MODEL_CODE, `Port ${port.id} cannot power a device (no PoE)`));
    if (!Number.isInteger(port.poe.power) || port.poe.power < 0 || port.poe.power > POE_PORT_MAX_WATTS) {
      return at(
        'poe.power',
        invalid(Codes.FORM_DATA, `PoE power must be an integer from 0 (auto) to ${POE_PORT_MAX_WATTS} W`),
      );
    }
  }
  return null;
}

/** The settings every member of an aggregation group must share. */
const aggregationKey = (p: SwitchPort, spec: ModelPort) =>
  JSON.stringify([
    spec.type,
    spec.maxSpeed,
    p.speed,
    p.duplex,
    p.mode,
    p.pvid,
    [...p.allowed].sort((a, b) => a - b),
    [...p.stripped].sort((a, b) => a - b),
  ]);

/**
 * The whole section for a model (SPEC.md §3, §5; docs/decisions/0039): null when valid, else the first
 * failure with its catalogue code and where (relative to `switch`). Aggregation group restrictions
 * (5015): 2-8 members, all enabled, same medium and port speed, same speed and duplex settings, same
 * VLAN settings. PoE: the fixed power limits stay within the model's budget (5260). The management
 * VLAN (1-4094) is carried by an enabled port when QVLAN is on (5013). Static IP: a host address
 * with a valid mask, a gateway on its segment (107), at most two different DNS servers (110).
 */
export function validateSwitchConfig(section: SwitchConfig, info: ModelInfo): SwitchCheck {
  const specs = new Map(info.ports.map((p) => [p.id, p]));
  const seen = new Set<number>();
  for (const [i, port] of section.ports.entries()) {
    if (seen.has(port.id)) {
      return at(`ports.${i}.id`, invalid(Codes.FORM_DATA, `Port ${port.id} is listed twice`));
    }
    seen.add(port.id);
    const r = validateSwitchPort(port, specs.get(port.id));
    if (r) return { ...r, path: `ports.${i}.${r.path}` };
  }
  const full = completeSwitchConfig(info, section);

  const groups = new Map<number, SwitchPort[]>();
  for (const p of full.ports) {
    if (p.aggregation !== null) groups.set(p.aggregation, [...(groups.get(p.aggregation) ?? []), p]);
  }
  const where = (id: number) => {
    const i = section.ports.findIndex((p) => p.id === id);
    return i < 0 ? 'ports' : `ports.${i}.aggregation`;
  };
  for (const [group, members] of groups) {
    const first = members[0];
    if (members.length < AGGREGATION_MEMBERS_MIN) {
      return at(
        where(first.id),
        invalid(AGGREGATION, `Aggregation group ${group} needs at least ${AGGREGATION_MEMBERS_MIN} ports`),
      );
    }
    if (members.length > AGGREGATION_MEMBERS_MAX) {
      return at(
        where(first.id),
        invalid(AGGREGATION, `Aggregation group ${group} takes at most ${AGGREGATION_MEMBERS_MAX} ports`),
      );
    }
    const off = members.find((p) => !p.enabled);
    if (off)
      return at(
        where(off.id),
        invalid(AGGREGATION, `Port ${off.id} is off: every port of an aggregation group must be on`),
      );
    const key = aggregationKey(first, specs.get(first.id)!);
    const odd = members.find((p) => aggregationKey(p, specs.get(p.id)!) !== key);
    if (odd) {
      return at(
        where(odd.id),
        invalid(
          AGGREGATION,
          `Port ${odd.id} differs from port ${first.id}: ports of aggregation group ${group} need the same medium, speed, duplex and VLAN settings`,
        ),
      );
    }
  }

  const fixed = full.ports.reduce((sum, p) => sum + (p.poe?.enabled ? p.poe.power : 0), 0);
  if (fixed > info.poeBudget) {
    return at(
      'ports',
      invalid(
        Codes.POE_BUDGET,
        `The ports' PoE power limits add up to ${fixed} W, more than the ${info.poeBudget} W budget`,
      ),
    );
  }

  const mv = validateVlanId(section.managementVlan, VLAN_RANGES.TAGGED, 'Management VLAN');
  if (mv) return at('managementVlan', mv);
  if (section.qvlan) {
    const carried = full.ports.some(
      (p) => p.enabled && (p.pvid === section.managementVlan || p.allowed.includes(section.managementVlan)),
    );
    if (!carried) {
      return at(
        'managementVlan',
        invalid(
          VLAN_MISSING,
          `No enabled port carries VLAN ${section.managementVlan}: the switch could not be managed`,
        ),
      );
    }
  }

  const ip = section.ip;
  if (ip.mode === SwitchIpMode.STATIC) {
    const r =
      at('ip.mask', validateSubnetMask(ip.mask)) ??
      at('ip.ip', validateHostAddress(ip.ip, ip.mask, 'IP address')) ??
      at('ip.gateway', ip.gateway === '' ? null : validateGateway(ip.gateway)) ??
      at(
        'ip.gateway',
        ip.gateway !== '' && !sameSegment(ip.ip, ip.gateway, ip.mask)
          ? invalid(Codes.NOT_SAME_NETWORK, 'The IP address and the gateway must be on the same segment')
          : null,
      ) ??
      at('ip.dns', validateDns(ip.dns));
    if (r) return r;
  } else if (ip.dns.length) {
    const r = at('ip.dns', validateDns(ip.dns));
    if (r) return r;
  }
  return null;
}
