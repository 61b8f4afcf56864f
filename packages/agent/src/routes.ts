import {
  type DeviceConfig,
  ipToString,
  networkOf,
  prefixToMask,
  type RouteTableEntry,
  toPrefix,
  WanConnectionType,
} from '@beacon/protocol';

/**
 * The routes a gateway runs, derived from its running configuration as a router's kernel would:
 * one connected route per interface with an address (LAN, guest network, PPPoE / PPTP / L2TP
 * servers, each VLAN, a static WAN), the static routes, one route per PPTP / L2TP client to the
 * remote network over its tunnel, and the default route through the WAN gateway (a dynamic or
 * PPPoE WAN: through its simulated upstream). Answered to the route-table command.
 */
export function routeTableOf(doc: DeviceConfig): RouteTableEntry[] {
  const routes: RouteTableEntry[] = [];
  const connected = (ip: string | undefined, mask: string | number | undefined, iface: string) => {
    if (!ip || mask === undefined) return;
    const prefix = toPrefix(mask);
    const net = networkOf(ip, mask);
    if (prefix === null || net === null) return;
    routes.push({
      destination: ipToString(net),
      mask: prefixToMask(prefix),
      gateway: '0.0.0.0',
      interface: iface,
      metric: 0,
      source: 'connected',
    });
  };
  connected(doc.lan?.ip, doc.lan?.mask, 'br-lan');
  connected(doc.guest?.ip, doc.guest?.mask, 'br-guest');
  connected(doc.pppoeServer?.ip, doc.pppoeServer?.mask, 'pppoe-server');
  connected(doc.pptpServer?.ip, doc.pptpServer?.mask, 'pptp-server');
  connected(doc.l2tpServer?.ip, doc.l2tpServer?.mask, 'l2tp-server');
  for (const v of doc.vlans ?? []) connected(v.ip, v.mask ?? 24, `vlan${v.id}`);
  const wan = doc.wan;
  if (wan) {
    const isStatic = wan.type === WanConnectionType.STATIC_IP || wan.type === WanConnectionType.MULTI_STATIC;
    if (isStatic) connected(wan.ip, wan.mask, 'wan');
    const isPppoe = wan.type === WanConnectionType.PPPOE || wan.type === WanConnectionType.MULTI_PPPOE;
    routes.push({
      destination: '0.0.0.0',
      mask: '0.0.0.0',
      gateway: isStatic && wan.gateway ? wan.gateway : '100.64.0.1',
      interface: isPppoe ? 'pppoe-wan' : 'wan',
      metric: 10,
      source: 'default',
    });
  }
  const tunnels = [
    ...(doc.pptpClients ?? []).map((c) => ({ ...c, iface: `pptp-${c.name}` })),
    ...(doc.l2tpClients ?? []).map((c) => ({ ...c, iface: `l2tp-${c.name}` })),
  ];
  for (const c of tunnels) {
    const prefix = toPrefix(c.remoteMask);
    const net = networkOf(c.remoteIp, c.remoteMask);
    if (prefix === null || net === null) continue;
    routes.push({
      destination: ipToString(net),
      mask: prefixToMask(prefix),
      gateway: '0.0.0.0',
      interface: c.iface.slice(0, 32),
      metric: 5,
      source: 'static',
    });
  }
  for (const r of doc.staticRoutes ?? []) {
    const prefix = toPrefix(r.mask);
    const net = networkOf(r.destination, r.mask);
    if (prefix === null || net === null) continue;
    routes.push({
      destination: ipToString(net),
      mask: prefixToMask(prefix),
      gateway: r.nextHop,
      interface: r.outPort === undefined ? 'auto' : `port${r.outPort}`,
      metric: 1,
      source: 'static',
    });
  }
  return routes;
}
