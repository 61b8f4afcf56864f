import { z } from 'zod';
import { Codes } from '../errors.ts';
import { parseIpv4 } from '../validators/ip.ts';
import { type Check, invalid } from '../validators/result.ts';
import { validateDhcpPool } from './sections.ts';

/**
 * The per-device DHCP server of a switch or an AP (issue 10 "DHCP policy", SPEC.md §3 DHCP pool,
 * §5 DHCP and IP rules, §8 "only one of DHCP relay, snooping or server at a time";
 * docs/decisions/0043): the `dhcpServer` section of the device's own configuration document. One
 * pool, served in one VLAN (null: the VLAN the device is managed in), checked with the same rules
 * as a pool of the project's network (name, range on one segment 107/109, gateway, DNS, custom
 * lease 30-10080 minutes, static leases inside the pool 108), and never on a VLAN where DHCP relay,
 * snooping or the gateway's own server is on (5011).
 */

const ip = z.string().trim().max(15);
const mask = z.union([z.string().trim().max(15), z.int().min(0).max(32)]);

export const dhcpServerConfigSchema = z.object({
  enabled: z.boolean().default(false),
  /** The VLAN whose clients it serves; null: the device's management VLAN (untagged when none). */
  vlan: z.int().min(1).max(4094).nullable().default(null),
  name: z.string().max(64),
  startIp: ip,
  endIp: ip,
  mask,
  gateway: ip.optional(),
  dns: z.array(ip).max(4).default([]),
  leaseMinutes: z.number(),
  staticLeases: z
    .array(z.object({ mac: z.string().trim().max(17), ip, name: z.string().max(32).default('') }))
    .max(256)
    .default([]),
});
export type DhcpServerConfig = z.output<typeof dhcpServerConfigSchema>;
export type DhcpServerConfigInput = z.input<typeof dhcpServerConfigSchema>;

/** A VLAN as the section is checked against: its DHCP relay, snooping or (gateway) server. */
export interface DhcpServerVlan {
  id: number;
  dhcp?: boolean;
  dhcpRelay?: string;
  dhcpSnooping?: boolean;
}

export interface DhcpServerContext {
  /** The VLANs that exist (the project's network, or the device's own); absent: not checked. */
  vlans?: readonly DhcpServerVlan[];
  /** The device's management VLAN (served when the section names none). */
  managementVlan?: number | null;
}

export type DhcpServerCheck = (Check & { path: string }) | null;

const at = (path: string, check: Check): DhcpServerCheck => (check ? { ...check, path } : null);

/** The VLAN the section serves (null: untagged). */
export function servedVlan(section: DhcpServerConfig, managementVlan?: number | null): number | null {
  return section.vlan ?? managementVlan ?? null;
}

/**
 * Every rule of the section: null, or the first failure with its catalogue code and its path inside
 * the section (e.g. `staticLeases.0.ip`). The same checks run in the form, on the server and on the
 * device.
 */
export function validateDhcpServerConfig(
  section: DhcpServerConfig,
  context: DhcpServerContext = {},
): DhcpServerCheck {
  const checks: (() => DhcpServerCheck)[] = [
    // The pool's own rules are a project pool's (sections.ts).
    () => validateDhcpPool(section),
    () => {
      // VLAN 1, the default VLAN of every port, always exists.
      if (!context.vlans || section.vlan === null || section.vlan === 1) return null;
      return context.vlans.some((v) => v.id === section.vlan)
        ? null
        : at('vlan', invalid(Codes.VLAN_MISSING, `VLAN ${section.vlan} does not exist`));
    },
    () => {
      if (!section.enabled || !context.vlans) return null;
      const served = servedVlan(section, context.managementVlan);
      const v = served === null ? undefined : context.vlans.find((x) => x.id === served);
      if (!v || !(v.dhcp || v.dhcpRelay || v.dhcpSnooping)) return null;
      return at(
        'enabled',
        invalid(
          Codes.DHCP_EXCLUSIVE,
          `VLAN ${served} already has DHCP ${v.dhcpRelay ? 'relay' : v.dhcpSnooping ? 'snooping' : 'served by the gateway'}: only one of DHCP relay, snooping or server can be enabled at a time`,
        ),
      );
    },
  ];
  for (const c of checks) {
    const r = c();
    if (r) return r;
  }
  return null;
}

/** How many addresses the pool's range holds (0 for a range that is not one). */
export function dhcpPoolSize(section: Pick<DhcpServerConfig, 'startIp' | 'endIp'>): number {
  const s = parseIpv4(section.startIp);
  const e = parseIpv4(section.endIp);
  return s === null || e === null || e < s ? 0 : e - s + 1;
}
