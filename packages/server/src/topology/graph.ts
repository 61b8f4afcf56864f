import {
  CableFreeMode,
  DeviceType,
  isOfflineStatus,
  type LinkMedium,
  type LinkNeighbour,
  NeighbourRole,
  type Telemetry,
  TOPOLOGY_FOLD_AT,
  TOPOLOGY_MAX_NODES,
  type TopologyEdgeView,
  TopologyNodeType,
  type TopologyNodeView,
  type TopologyView,
} from '@beacon/protocol';

/**
 * Assembles a project's topology from what its devices report (decision 0050). Pure: the service
 * reads the rows, this turns them into nodes and edges.
 *
 * - Every device of the project is a node (id = SN), reported links or not; a neighbour no device of
 *   the project is (matched by SN, else by MAC) is a node of its own (id = MAC): `ipc` when it says
 *   it is a camera, else `unknown_dev`. Several neighbours on one port mean an unmanaged segment in
 *   between: an `unknown_net` node. A gateway's internet link hangs it off the `internet` node.
 * - A link both ends report is one edge (matched by ports; an end that names no port matches any);
 *   two links between the same devices on other ports are two edges: loops and redundant links are
 *   kept, and marked `redundant` when they are not on the breadth-first tree from the internet.
 * - Edges point from the uplink side (nearer the internet, else the highest-ranked device) down.
 * - APs become `wired_ap`, `wired_ap_has_child` or `wireless_ap` by their uplink and children; more
 *   than TOPOLOGY_FOLD_AT leaf APs, CPEs, wired or wireless cameras under one parent are folded
 *   into an expandable node (`expand_ap`, `expand_cpe`, `expand_ipc`, `expand_ipc_wireless`) whose
 *   members name it in `group`; the members and their edges stay in the answer for expanding.
 */

export interface StoredPort {
  id: number;
  link?: boolean;
  poe?: { enabled: boolean; power: number } | null;
}

export interface GraphDevice {
  sn: string;
  name: string;
  model: string;
  type: string;
  mac: string | null;
  ip: string | null;
  status: number;
  clientCount: number;
  uplinkSn: string | null;
  uplinkPort: number | null;
  meshRole: string | null;
  ports: readonly StoredPort[];
  /** Null: the device never reported links (older firmware, or not yet seen). */
  links: readonly LinkNeighbour[] | null;
  internet: Telemetry['internet'] | null;
}

export const INTERNET_ID = 'internet';

const CLIENT_TYPES: ReadonlySet<string> = new Set([
  DeviceType.AP,
  DeviceType.MESH,
  DeviceType.V7,
  DeviceType.WROUTER,
  DeviceType.CPE,
]);

/** Which end is the uplink side when two unvisited parts meet: lower first. */
function rankOf(node: TopologyNodeView, meshRole: string | null): number {
  if (node.kind === TopologyNodeType.INTERNET) return 0;
  switch (node.deviceType) {
    case DeviceType.ROUTER:
      return 1;
    case DeviceType.WROUTER:
    case DeviceType.V7:
      return 2;
    case DeviceType.MESH:
      return meshRole === CableFreeMode.PRIMARY ? 2 : 6;
    case DeviceType.SWITCH:
      return 3;
    case DeviceType.NVR:
      return 4;
    case DeviceType.AP:
      return 5;
    case DeviceType.CPE:
      return 6;
    default:
      return node.kind === TopologyNodeType.UNKNOWN_NET ? 7 : 8;
  }
}

interface Link {
  a: string;
  aPort: string | null;
  b: string;
  bPort: string | null;
  medium: LinkMedium;
  speed: number;
  rssi: number | null;
  vlan: number | null;
  /** PoE watts, from the end that supplies it (a). */
  poe: number | null;
  poeFrom: string | null;
  /** Reported by which ends. */
  by: Set<string>;
}

const portsMatch = (x: string | null, y: string | null) => x === null || y === null || x === y;

export function assembleTopology(
  input: readonly GraphDevice[],
  overrides: ReadonlyMap<string, number> = new Map(),
  maxNodes = TOPOLOGY_MAX_NODES,
): TopologyView {
  const truncated = input.length > maxNodes;
  const list = truncated ? input.slice(0, maxNodes) : input;
  const nodes = new Map<string, TopologyNodeView>();
  const meshRoles = new Map<string, string | null>();
  const bySn = new Map<string, GraphDevice>();
  const byMac = new Map<string, string>();
  const online = (id: string) => {
    const d = bySn.get(id);
    return d ? !isOfflineStatus(d.status) : true;
  };

  const blank = (id: string): TopologyNodeView => ({
    id,
    kind: TopologyNodeType.UNKNOWN_DEV,
    sn: null,
    mac: null,
    name: '',
    model: null,
    ip: null,
    deviceType: null,
    status: null,
    clients: null,
    role: null,
    typeCode: overrides.get(id) ?? null,
    ports: [],
    vlans: [],
    group: null,
    members: null,
  });

  for (const d of list) {
    bySn.set(d.sn, d);
    if (d.mac) byMac.set(d.mac.toUpperCase(), d.sn);
    meshRoles.set(d.sn, d.meshRole);
    nodes.set(d.sn, {
      ...blank(d.sn),
      kind: d.type as TopologyNodeView['kind'],
      sn: d.sn,
      mac: d.mac,
      name: d.name || d.sn,
      model: d.model,
      ip: d.ip,
      deviceType: d.type as TopologyNodeView['deviceType'],
      status: d.status,
      clients: CLIENT_TYPES.has(d.type) ? d.clientCount : null,
    });
  }

  const links: Link[] = [];
  const byPair = new Map<string, Link[]>();
  const addLink = (link: Omit<Link, 'by'>, reporter: string) => {
    const pair = link.a < link.b ? `${link.a}\n${link.b}` : `${link.b}\n${link.a}`;
    const same = byPair.get(pair) ?? [];
    byPair.set(pair, same);
    for (const l of same) {
      const flipped = l.a !== link.a;
      const [aPort, bPort] = flipped ? [link.bPort, link.aPort] : [link.aPort, link.bPort];
      const wired = link.medium === 'wired';
      if ((l.medium === 'wired') !== wired || !portsMatch(l.aPort, aPort) || !portsMatch(l.bPort, bPort))
        continue;
      if (l.by.has(reporter)) continue; // one end reporting two links to the same device: two cables
      l.aPort ??= aPort;
      l.bPort ??= bPort;
      l.by.add(reporter);
      l.rssi ??= link.rssi;
      l.vlan ??= link.vlan;
      if (link.poe !== null && (l.poe ?? 0) < link.poe) {
        l.poe = link.poe;
        l.poeFrom = link.poeFrom;
      }
      if (!l.speed) l.speed = link.speed;
      return;
    }
    const created = { ...link, by: new Set([reporter]) };
    same.push(created);
    links.push(created);
  };

  const external = (n: LinkNeighbour): string => {
    const id = n.mac.toUpperCase();
    if (!nodes.has(id) && nodes.size < maxNodes * 2) {
      nodes.set(id, {
        ...blank(id),
        kind: n.role === NeighbourRole.CAMERA ? TopologyNodeType.IPC : TopologyNodeType.UNKNOWN_DEV,
        mac: id,
        name: n.name || id,
        role: n.role,
      });
    }
    return nodes.has(id) ? id : '';
  };
  const endOf = (n: LinkNeighbour): string => {
    if (n.sn && bySn.has(n.sn)) return n.sn;
    return byMac.get(n.mac.toUpperCase()) ?? external(n);
  };

  for (const d of list) {
    const poeOf = (port: number | null) => {
      const p = port === null ? undefined : d.ports.find((x) => x.id === port);
      return p?.poe?.enabled && p.poe.power > 0 ? p.poe.power : null;
    };
    if (d.internet) {
      if (!nodes.has(INTERNET_ID)) {
        nodes.set(INTERNET_ID, {
          ...blank(INTERNET_ID),
          kind: TopologyNodeType.INTERNET,
          name: 'Internet',
          status: 0,
        });
      }
      const net = nodes.get(INTERNET_ID)!;
      const up = d.internet.up && online(d.sn);
      if (up) net.status = 1;
      addLink(
        {
          a: INTERNET_ID,
          aPort: null,
          b: d.sn,
          bPort: d.internet.port === null ? null : String(d.internet.port),
          medium: 'wired',
          speed: up ? d.internet.speed : 0,
          rssi: null,
          vlan: null,
          poe: null,
          poeFrom: null,
        },
        d.sn,
      );
    }
    if (d.links === null) {
      // Older firmware: the uplink it names is all there is.
      if (d.uplinkSn && bySn.has(d.uplinkSn)) {
        addLink(
          {
            a: d.uplinkSn,
            aPort: d.uplinkPort === null ? null : String(d.uplinkPort),
            b: d.sn,
            bPort: null,
            medium: d.uplinkPort === null ? 'wireless' : 'wired',
            speed: 0,
            rssi: null,
            vlan: null,
            poe: null,
            poeFrom: null,
          },
          d.sn,
        );
      }
      continue;
    }
    const onPort = new Map<number, LinkNeighbour[]>();
    for (const n of d.links) {
      if (n.port !== null && n.medium === 'wired') onPort.set(n.port, [...(onPort.get(n.port) ?? []), n]);
    }
    for (const n of d.links) {
      const crowded = n.port !== null && n.medium === 'wired' && onPort.get(n.port)!.length > 1;
      const local = n.port === null ? null : String(n.port);
      let from = d.sn;
      let fromPort = local;
      if (crowded) {
        // An unmanaged segment on this port: one node for it, the neighbours behind it.
        const seg = `net-${d.sn}-${n.port}`;
        if (!nodes.has(seg)) {
          nodes.set(seg, {
            ...blank(seg),
            kind: TopologyNodeType.UNKNOWN_NET,
            name: `${d.name || d.sn} / ${n.port}`,
          });
          addLink(
            {
              a: d.sn,
              aPort: local,
              b: seg,
              bPort: null,
              medium: 'wired',
              speed: n.speed,
              rssi: null,
              vlan: n.vlan,
              poe: poeOf(n.port),
              poeFrom: d.sn,
            },
            d.sn,
          );
        }
        from = seg;
        fromPort = null;
      }
      const other = endOf(n);
      if (!other || other === d.sn) continue;
      addLink(
        {
          a: from,
          aPort: fromPort,
          b: other,
          bPort: n.remotePort,
          medium: n.medium,
          speed: n.speed,
          rssi: n.rssi,
          vlan: n.vlan,
          poe: crowded ? null : poeOf(n.port),
          poeFrom: crowded ? null : d.sn,
        },
        d.sn,
      );
    }
  }

  // Breadth-first from the internet (else the highest-ranked node): tree edges point down, the
  // rest are redundant (loops, second cables) and point from the shallower end.
  const adjacent = new Map<string, Link[]>();
  for (const l of links) {
    adjacent.set(l.a, [...(adjacent.get(l.a) ?? []), l]);
    adjacent.set(l.b, [...(adjacent.get(l.b) ?? []), l]);
  }
  const rank = (id: string) => rankOf(nodes.get(id)!, meshRoles.get(id) ?? null);
  const roots = [...nodes.keys()].sort((x, y) => rank(x) - rank(y) || (x < y ? -1 : x > y ? 1 : 0));
  const depth = new Map<string, number>();
  const parentLink = new Map<string, Link>();
  const tree = new Set<Link>();
  const order: string[] = [];
  for (const root of roots) {
    if (depth.has(root)) continue;
    depth.set(root, 0);
    const queue = [root];
    for (let i = 0; i < queue.length; i++) {
      const at = queue[i];
      order.push(at);
      const otherOf = (l: Link) => (l.a === at ? l.b : l.a);
      const next = [...(adjacent.get(at) ?? [])].sort(
        (x, y) => rank(otherOf(x)) - rank(otherOf(y)) || (otherOf(x) < otherOf(y) ? -1 : 1),
      );
      for (const l of next) {
        const other = l.a === at ? l.b : l.a;
        if (depth.has(other)) continue;
        depth.set(other, depth.get(at)! + 1);
        parentLink.set(other, l);
        tree.add(l);
        queue.push(other);
      }
    }
  }

  const edges: TopologyEdgeView[] = links.map((l, i) => {
    const flip = (depth.get(l.a) ?? 0) > (depth.get(l.b) ?? 0);
    const [source, target, sourcePort, targetPort] = flip
      ? [l.b, l.a, l.bPort, l.aPort]
      : [l.a, l.b, l.aPort, l.bPort];
    const up = (l.a === INTERNET_ID || online(l.a)) && online(l.b) && l.speed > 0;
    return {
      id: `e${i}`,
      source,
      target,
      sourcePort,
      targetPort,
      medium: l.medium,
      speed: up ? l.speed : 0,
      rssi: l.rssi,
      poe: l.poeFrom === source ? l.poe : null,
      up,
      redundant: !tree.has(l),
    };
  });

  // Search fields on links; children per node on the tree.
  const children = new Map<string, string[]>();
  for (const e of edges) {
    for (const [id, port] of [
      [e.source, e.sourcePort],
      [e.target, e.targetPort],
    ] as const) {
      const n = nodes.get(id)!;
      if (port !== null && !n.ports.includes(port)) n.ports.push(port);
    }
  }
  for (const l of links) {
    if (l.vlan === null) continue;
    for (const id of [l.a, l.b]) {
      const n = nodes.get(id)!;
      if (!n.vlans.includes(l.vlan)) n.vlans.push(l.vlan);
    }
  }
  for (const [child, l] of parentLink) {
    const parent = l.a === child ? l.b : l.a;
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }

  // AP kinds by uplink and children.
  for (const n of nodes.values()) {
    if (n.deviceType !== DeviceType.AP) continue;
    const up = parentLink.get(n.id);
    if (!up) continue;
    n.kind =
      up.medium !== 'wired'
        ? TopologyNodeType.WIRELESS_AP
        : children.get(n.id)?.length
          ? TopologyNodeType.WIRED_AP_HAS_CHILD
          : TopologyNodeType.WIRED_AP;
  }

  // Folding of many leaves of one kind under one parent.
  const folds: TopologyNodeView[] = [];
  const foldEdges: TopologyEdgeView[] = [];
  for (const [parent, kids] of children) {
    const groups = new Map<string, string[]>();
    for (const kid of kids) {
      if (children.get(kid)?.length) continue;
      const n = nodes.get(kid)!;
      const wireless = parentLink.get(kid)!.medium !== 'wired';
      const fold =
        n.deviceType === DeviceType.AP
          ? TopologyNodeType.EXPAND_AP
          : n.deviceType === DeviceType.CPE
            ? TopologyNodeType.EXPAND_CPE
            : n.kind === TopologyNodeType.IPC
              ? wireless
                ? TopologyNodeType.EXPAND_IPC_WIRELESS
                : TopologyNodeType.EXPAND_IPC
              : null;
      if (fold) groups.set(fold, [...(groups.get(fold) ?? []), kid]);
    }
    for (const [kind, members] of groups) {
      if (members.length <= TOPOLOGY_FOLD_AT) continue;
      const id = `fold-${parent}-${kind}`;
      const memberNodes = members.map((m) => nodes.get(m)!);
      for (const m of memberNodes) m.group = id;
      const clients = memberNodes.some((m) => m.clients !== null)
        ? memberNodes.reduce((a, m) => a + (m.clients ?? 0), 0)
        : null;
      const offline = memberNodes.filter((m) => m.status !== null && isOfflineStatus(m.status)).length;
      folds.push({
        ...blank(id),
        kind: kind as TopologyNodeView['kind'],
        name: String(members.length),
        status: memberNodes.every((m) => m.status === null) ? null : offline ? 0 : 1,
        clients,
        members: members.length,
        ports: [...new Set(memberNodes.flatMap((m) => m.ports))],
        vlans: [...new Set(memberNodes.flatMap((m) => m.vlans))],
      });
      const memberEdges = edges.filter(
        (e) => e.source === parent && members.includes(e.target) && !e.redundant,
      );
      foldEdges.push({
        id: `fold-edge-${id}`,
        source: parent,
        target: id,
        sourcePort: null,
        targetPort: null,
        medium: memberEdges.every((e) => e.medium !== 'wired') ? memberEdges[0].medium : 'wired',
        speed: Math.max(0, ...memberEdges.map((e) => e.speed)),
        rssi: null,
        poe: memberEdges.some((e) => e.poe !== null)
          ? Math.round(memberEdges.reduce((a, e) => a + (e.poe ?? 0), 0) * 10) / 10
          : null,
        up: memberEdges.some((e) => e.up),
        redundant: false,
      });
    }
  }

  return {
    nodes: [...order.map((id) => nodes.get(id)!), ...folds],
    edges: [...edges, ...foldEdges],
    truncated,
  };
}
