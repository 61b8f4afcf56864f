import { z } from 'zod';
import { SegmentKind } from '../enums/network.ts';
import { Codes } from '../errors.ts';
import { validateLease, validatePoolName } from '../validators/dhcp.ts';
import {
  isIpInRange,
  isSameSegment,
  networkOf,
  parseIpv4,
  type Segment,
  toPrefix,
  validateDhcpRange,
  validateDifferentSegments,
  validateDns,
  validateHostAddress,
  validateIpv4,
  validateSubnetMask,
  validateUniqueDestination,
} from '../validators/ip.ts';
import { validateUniqueName } from '../validators/names.ts';
import { validatePortMapping } from '../validators/ports.ts';
import { type Check, invalid } from '../validators/result.ts';

/**
 * One validator per kind of network section (SPEC.md §5), shared by the project's network document
 * (api/network.ts `validateNetworkDocument`, the forms and the server) and the device's own
 * configuration document (device/config.ts `validateDeviceConfig`, what a device checks before it
 * applies), and the switch's or AP's DHCP server (dhcp-server.ts): DHCP pools, static routes, port
 * mappings, the guest network, PPPoE / PPTP / L2TP servers and PPTP / L2TP clients, and the rule
 * that every network of the gateway sits on its own segment (113-119, 122-127, docs/decisions/0046).
 *
 * Each answers null or the first failure with its catalogue code and a path relative to what it was
 * given (`0.name`, `staticLeases.1.ip`); the caller prefixes its own path.
 */

export type SectionCheck = (Check & { path: string }) | null;

const at = (path: string, check: Check): SectionCheck => (check ? { ...check, path } : null);

function firstOf(...checks: (() => SectionCheck)[]): SectionCheck {
  for (const c of checks) {
    const r = c();
    if (r) return r;
  }
  return null;
}

/** `check` with `prefix.` in front of its path. */
export const prefixPath = (prefix: string, check: SectionCheck): SectionCheck =>
  check ? { ...check, path: check.path ? `${prefix}.${check.path}` : prefix } : null;

const ip = z.string().trim().max(15);
const mask = z.union([z.string().trim().max(15), z.int().min(0).max(32)]);
const dns = z.array(z.string().trim().max(15)).max(4).default([]);

// ── Guest, PPPoE, PPTP and L2TP networks of the gateway ─────────────────────

/**
 * The gateway's guest network: its own interface (IP and mask), isolated from the LAN and every VLAN
 * (the gateway forwards it to the WAN only).
 */
export const guestNetworkSchema = z.object({ ip, mask });
export type GuestNetwork = z.output<typeof guestNetworkSchema>;

export const tunnelAccountSchema = z.object({
  username: z.string().trim().max(32),
  password: z.string().max(64),
});

/**
 * A PPPoE, PPTP or L2TP server of the gateway: its own address in the tunnel network (ip, mask), the
 * range it gives its clients, the DNS it tells them, and the accounts that may dial in.
 */
export const tunnelServerSchema = z.object({
  ip,
  mask,
  startIp: ip,
  endIp: ip,
  dns,
  accounts: z.array(tunnelAccountSchema).max(32).default([]),
});
export type TunnelServer = z.output<typeof tunnelServerSchema>;

/**
 * A PPTP or L2TP client of the gateway: the server it dials (an IP or a host name), its account, and
 * the remote network reached through the tunnel (routed over it; a network of the gateway).
 */
export const tunnelClientSchema = z.object({
  name: z.string().max(64),
  server: z.string().trim().max(64),
  username: z.string().trim().max(32),
  password: z.string().max(64),
  remoteIp: ip,
  remoteMask: mask,
});
export type TunnelClient = z.output<typeof tunnelClientSchema>;

export const TUNNEL_CLIENTS_MAX = 4;

const KIND_NAME = { pppoe: 'PPPoE', pptp: 'PPTP', l2tp: 'L2TP' } as const;
export type TunnelKind = keyof typeof KIND_NAME;

const checkMask = (m: string | number, path = 'mask'): SectionCheck =>
  firstOf(
    () => at(path, typeof m === 'string' ? validateSubnetMask(m) : null),
    () => (toPrefix(m) === null ? at(path, invalid(Codes.FORM_DATA, 'Enter a valid mask')) : null),
  );

/** The guest network: a valid mask and a host address of it. */
export function validateGuestNetwork(g: GuestNetwork): SectionCheck {
  return firstOf(
    () => checkMask(g.mask),
    () => at('ip', validateHostAddress(g.ip, g.mask, 'Guest network IP')),
  );
}

/** Account names: 1-32 characters, unique; a password is needed. */
function validateAccounts(accounts: readonly { username: string; password: string }[]): SectionCheck {
  const names: string[] = [];
  for (const [i, a] of accounts.entries()) {
    const r = firstOf(
      () =>
        a.username === '' || /\s/.test(a.username)
          ? at(`${i}.username`, invalid(Codes.FORM_DATA, 'Enter an account name without spaces'))
          : null,
      () => at(`${i}.username`, validateUniqueName(a.username, names, 'Account')),
      () => (a.password === '' ? at(`${i}.password`, invalid(Codes.FORM_DATA, 'Enter a password')) : null),
    );
    if (r) return r;
    names.push(a.username);
  }
  return null;
}

/**
 * A PPPoE, PPTP or L2TP server: a host address on a valid mask; the client range ascending (109),
 * on the server's segment (107), not holding the server's own address (105); distinct DNS (110);
 * accounts named once with a password.
 */
export function validateTunnelServer(s: TunnelServer, kind: TunnelKind): SectionCheck {
  const label = `${KIND_NAME[kind]} server`;
  return firstOf(
    () => checkMask(s.mask),
    () => at('ip', validateHostAddress(s.ip, s.mask, `${label} IP`)),
    () => at('startIp', validateDhcpRange(s.startIp, s.endIp, s.mask)),
    () =>
      isSameSegment(s.startIp, s.ip, s.mask)
        ? null
        : at(
            'startIp',
            invalid(Codes.NOT_SAME_NETWORK, `The client range must be on the ${label}'s segment`),
          ),
    () =>
      isIpInRange(s.ip, { start: s.startIp, end: s.endIp })
        ? at('ip', invalid(Codes.IP_CONFLICT, `The ${label} IP is inside its client range`))
        : null,
    () => at('dns', validateDns(s.dns)),
    () => prefixPath('accounts', validateAccounts(s.accounts)),
  );
}

const HOST_NAME =
  /^(?=.{1,64}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** The server a client dials: an IPv4 address, or a host name when it is not made of digits and dots. */
export function validateTunnelPeer(server: string): Check {
  if (server === '') return invalid(Codes.FORM_DATA, 'Enter the server address');
  if (/^[\d.]+$/.test(server)) return validateIpv4(server, 'Server address');
  return HOST_NAME.test(server) ? null : invalid(Codes.FORM_DATA, 'Enter a valid server address');
}

/** PPTP or L2TP clients: at most 4, names 1-32 and unique (5038), peer, account, remote network. */
export function validateTunnelClients(list: readonly TunnelClient[], kind: TunnelKind): SectionCheck {
  if (list.length > TUNNEL_CLIENTS_MAX) {
    return at(
      '',
      invalid(Codes.FORM_DATA, `At most ${TUNNEL_CLIENTS_MAX} ${KIND_NAME[kind]} clients are allowed`),
    );
  }
  for (const [i, c] of list.entries()) {
    const r = firstOf(
      () =>
        at(
          `${i}.name`,
          validateSectionName(
            c.name,
            list.slice(0, i).map((o) => o.name),
          ),
        ),
      () => at(`${i}.server`, validateTunnelPeer(c.server)),
      () =>
        c.username === ''
          ? at(`${i}.username`, invalid(Codes.FORM_DATA, 'Enter the account'))
          : c.password === ''
            ? at(`${i}.password`, invalid(Codes.FORM_DATA, 'Enter the password'))
            : null,
      () => checkMask(c.remoteMask, `${i}.remoteMask`),
      () => at(`${i}.remoteIp`, validateIpv4(c.remoteIp, 'Remote network')),
    );
    if (r) return r;
  }
  return null;
}

// ── DHCP pools ──────────────────────────────────────────────────────────────

const MAC = /^[0-9A-Fa-f]{2}([:-][0-9A-Fa-f]{2}){5}$/;
export const normMac = (mac: string) => mac.replace(/-/g, ':').toUpperCase();

export interface DhcpPoolLike {
  name: string;
  startIp: string;
  endIp: string;
  mask: string | number;
  gateway?: string;
  dns: readonly string[];
  leaseMinutes: number;
  staticLeases?: readonly { mac: string; ip: string }[];
}

/** Static leases already taken by earlier pools of the same document (IP and MAC unique across it). */
export interface LeaseRegistry {
  ips: Set<number>;
  macs: Set<string>;
}

export const newLeaseRegistry = (): LeaseRegistry => ({ ips: new Set(), macs: new Set() });

/**
 * A DHCP pool (SPEC.md §5 DHCP, §3 DHCP pool): name, valid mask, range ascending (109) on one
 * segment (107), gateway on the pool's segment (107), at most two different DNS (110), a custom
 * lease of 30-10080 minutes, static leases with a MAC, inside the range (108), each IP and MAC once
 * (105, 106; across the document when `leases` is shared).
 */
export function validateDhcpPool(
  pool: DhcpPoolLike,
  leases: LeaseRegistry = newLeaseRegistry(),
): SectionCheck {
  return firstOf(
    () => at('name', validatePoolName(pool.name)),
    () => checkMask(pool.mask),
    () => at('startIp', validateDhcpRange(pool.startIp, pool.endIp, pool.mask)),
    () => {
      if (!pool.gateway) return null;
      const f = validateIpv4(pool.gateway, 'Gateway');
      if (f) return at('gateway', f);
      return isSameSegment(pool.gateway, pool.startIp, pool.mask)
        ? null
        : at(
            'gateway',
            invalid(Codes.NOT_SAME_NETWORK, 'The gateway must be on the same segment as the pool'),
          );
    },
    () => at('dns', validateDns(pool.dns)),
    () => at('leaseMinutes', validateLease(pool.leaseMinutes, 'custom')),
    () => {
      for (const [j, lease] of (pool.staticLeases ?? []).entries()) {
        const q = `staticLeases.${j}`;
        if (!MAC.test(lease.mac))
          return at(`${q}.mac`, invalid(Codes.FORM_DATA, 'Enter a valid MAC address'));
        const f = validateIpv4(lease.ip, 'Lease IP');
        if (f) return at(`${q}.ip`, f);
        if (!isIpInRange(lease.ip, { start: pool.startIp, end: pool.endIp })) {
          return at(
            `${q}.ip`,
            invalid(
              Codes.OUTSIDE_DHCP_RANGE,
              `${lease.ip} is outside the pool ${pool.startIp}-${pool.endIp}`,
            ),
          );
        }
        const n = parseIpv4(lease.ip)!;
        if (leases.ips.has(n))
          return at(`${q}.ip`, invalid(Codes.IP_CONFLICT, `${lease.ip} is already leased`));
        const mac = normMac(lease.mac);
        if (leases.macs.has(mac))
          return at(`${q}.mac`, invalid(Codes.MAC_CONFLICT, `${lease.mac} already has a lease`));
        leases.ips.add(n);
        leases.macs.add(mac);
      }
      return null;
    },
  );
}

// ── Static routes and port mappings ─────────────────────────────────────────

/** Static route, port mapping and tunnel client names: 1-32 characters, unique (SPEC.md §5). */
export function validateSectionName(name: string, existing: readonly string[]): Check {
  if (name.trim() === '' || name.length > 32)
    return invalid(Codes.FORM_DATA, 'Name must be 1 to 32 characters');
  return validateUniqueName(name, existing);
}

export interface StaticRouteLike {
  name: string;
  destination: string;
  mask: string | number;
  nextHop: string;
  outPort?: number;
}

/**
 * Static routes: names 1-32 and unique (5038), never the default route (164), a valid mask, a
 * destination network given once (5043), a next hop, an out port the gateway has (`ports`; absent:
 * not checked).
 */
export function validateStaticRoutes(
  routes: readonly StaticRouteLike[],
  ports?: ReadonlySet<number> | null,
): SectionCheck {
  for (const [i, route] of routes.entries()) {
    const others = routes.slice(0, i);
    const r = firstOf(
      () =>
        at(
          `${i}.name`,
          validateSectionName(
            route.name,
            others.map((o) => o.name),
          ),
        ),
      () =>
        toPrefix(route.mask) === 0 || parseIpv4(route.destination) === 0
          ? at(
              `${i}.destination`,
              invalid(
                Codes.DEFAULT_ROUTE,
                'The default route comes from the WAN; it cannot be a static route',
              ),
            )
          : null,
      () => checkMask(route.mask, `${i}.mask`),
      () => at(`${i}.destination`, validateIpv4(route.destination, 'Destination network')),
      () =>
        at(
          `${i}.destination`,
          validateUniqueDestination(
            { ip: route.destination, mask: route.mask },
            others.map((o) => ({ ip: o.destination, mask: o.mask })),
          ),
        ),
      () => at(`${i}.nextHop`, validateIpv4(route.nextHop, 'Next hop')),
      () =>
        route.outPort !== undefined && ports && !ports.has(route.outPort)
          ? at(`${i}.outPort`, invalid(Codes.FORM_DATA, `The gateway has no port ${route.outPort}`))
          : null,
    );
    if (r) return r;
  }
  return null;
}

export interface PortMappingLike {
  name: string;
  internalIp: string;
  internalPorts: string;
  externalPorts: string;
}

/** Port mappings: names 1-32 and unique (5038), an internal IP, port lists that match (SPEC.md §5 Ports). */
export function validatePortMappings(mappings: readonly PortMappingLike[]): SectionCheck {
  for (const [i, m] of mappings.entries()) {
    const r = firstOf(
      () =>
        at(
          `${i}.name`,
          validateSectionName(
            m.name,
            mappings.slice(0, i).map((o) => o.name),
          ),
        ),
      () => at(`${i}.internalIp`, validateIpv4(m.internalIp, 'Internal IP')),
      () => at(`${i}.internalPorts`, validatePortMapping(m.internalPorts, m.externalPorts)),
    );
    if (r) return r;
  }
  return null;
}

// ── Segments ────────────────────────────────────────────────────────────────

/** A network of the gateway, where it is in the document, and what identifies it across revisions. */
export interface NetworkSegment extends Segment {
  path: string;
  key: string;
}

type Net = { ip?: string; mask?: string | number } | null | undefined;

/** The sections that carry the gateway's networks (both the network document and a device's). */
export interface SegmentSource {
  lan?: { ip: string; mask: string | number } | null;
  guest?: GuestNetwork | null;
  pppoeServer?: TunnelServer | null;
  pptpServer?: TunnelServer | null;
  l2tpServer?: TunnelServer | null;
  pptpClients?: readonly TunnelClient[] | null;
  l2tpClients?: readonly TunnelClient[] | null;
  vlans?: readonly { id: number; ip?: string; mask?: string | number }[] | null;
  wan?: { type: string; ip?: string; mask?: string | number } | null;
}

const isStaticWan = (type: string) => type === 'static' || type === 'multi_static';

/**
 * Every network of the gateway with an address, in the order the rules read them: LAN, guest,
 * PPPoE, PPTP and L2TP servers and clients, VLANs, the static WAN. Networks with an invalid
 * address or mask are left out (their own section's check reports them).
 */
export function networkSegments(doc: SegmentSource): NetworkSegment[] {
  const out: NetworkSegment[] = [];
  const add = (kind: SegmentKind, net: Net, path: string, key: string, label?: string) => {
    if (!net?.ip || net.mask === undefined || net.mask === '') return;
    if (networkOf(net.ip, net.mask) === null) return;
    out.push({ kind, ip: net.ip, mask: net.mask, path, key, label });
  };
  add(SegmentKind.LAN, doc.lan, 'lan.ip', 'lan');
  add(SegmentKind.GUEST, doc.guest, 'guest.ip', 'guest');
  add(SegmentKind.PPPOE, doc.pppoeServer, 'pppoeServer.ip', 'pppoeServer', 'PPPoE server');
  add(SegmentKind.PPTP, doc.pptpServer, 'pptpServer.ip', 'pptpServer', 'PPTP server');
  for (const [i, c] of (doc.pptpClients ?? []).entries()) {
    add(
      SegmentKind.PPTP,
      { ip: c.remoteIp, mask: c.remoteMask },
      `pptpClients.${i}.remoteIp`,
      `pptp:${c.name}`,
      `PPTP client ${c.name}`,
    );
  }
  add(SegmentKind.L2TP, doc.l2tpServer, 'l2tpServer.ip', 'l2tpServer', 'L2TP server');
  for (const [i, c] of (doc.l2tpClients ?? []).entries()) {
    add(
      SegmentKind.L2TP,
      { ip: c.remoteIp, mask: c.remoteMask },
      `l2tpClients.${i}.remoteIp`,
      `l2tp:${c.name}`,
      `L2TP client ${c.name}`,
    );
  }
  for (const [i, v] of (doc.vlans ?? []).entries()) {
    if (v.ip)
      add(
        SegmentKind.VLAN,
        { ip: v.ip, mask: v.mask ?? 24 },
        `vlans.${i}.ip`,
        `vlan:${v.id}`,
        `VLAN ${v.id}`,
      );
  }
  if (doc.wan && isStaticWan(doc.wan.type)) add(SegmentKind.WAN, doc.wan, 'wan.ip', 'wan');
  return out;
}

const sameNetwork = (a: Segment, b: Segment) =>
  toPrefix(a.mask) === toPrefix(b.mask) && networkOf(a.ip, a.mask) === networkOf(b.ip, b.mask);

/**
 * SPEC.md §5: the WAN and the LAN, VLAN, guest, PPPoE, PPTP and L2TP networks on different segments.
 * The network being added or changed is the subject of a clash and the one already configured the
 * other side, so a VLAN added on the WAN's segment is 119 and a WAN moved onto a VLAN's segment is
 * 127 (`ip.ts` segmentClashCode). With `previous` (the segments of the stored revision) the
 * unchanged networks are read first; without it, in document order (networkSegments). The failure
 * is at the changed network's path.
 */
export function validateSegments(
  segments: readonly NetworkSegment[],
  previous?: readonly NetworkSegment[],
): SectionCheck {
  const unchanged = (s: NetworkSegment) =>
    previous?.some((p) => p.key === s.key && p.kind === s.kind && sameNetwork(p, s)) ?? false;
  const ordered = [...segments.filter(unchanged), ...segments.filter((s) => !unchanged(s))];
  for (const [i, s] of ordered.entries()) {
    const clash = validateDifferentSegments(s, ordered.slice(0, i));
    if (clash) return at(s.path, clash);
  }
  return null;
}
