/** SPEC.md §3 traffic unit. */
export const TrafficUnit = { MB: 1, GB: 2, WIRELESS: 3, TB: 4 } as const;
export type TrafficUnit = (typeof TrafficUnit)[keyof typeof TrafficUnit];

/** SPEC.md §3 search or filter fields. */
export const SearchField = {
  IP: 'ip',
  MODEL: 'model',
  PORT: 'port',
  NAME: 'name',
  VLAN: 'vlan',
  MAC: 'mac',
} as const;
export type SearchField = (typeof SearchField)[keyof typeof SearchField];

/** SPEC.md §3 layout direction (topology). */
export const LayoutDirection = { HORIZONTAL: 'horizontal', VERTICAL: 'vertical' } as const;
export type LayoutDirection = (typeof LayoutDirection)[keyof typeof LayoutDirection];

/** SPEC.md §9 protocols (port mapping, rules): all means TCP and UDP. */
export const Protocol = { ALL: 'all', TCP: 'tcp', UDP: 'udp' } as const;
export type Protocol = (typeof Protocol)[keyof typeof Protocol];

/** SPEC.md §3 WAN connection types. */
export const WanConnectionType = {
  DYNAMIC_IP: 'dhcp',
  STATIC_IP: 'static',
  PPPOE: 'pppoe',
  MULTI_PPPOE: 'multi_pppoe',
  MULTI_DHCP: 'multi_dhcp',
  MULTI_STATIC: 'multi_static',
} as const;
export type WanConnectionType = (typeof WanConnectionType)[keyof typeof WanConnectionType];

/** SPEC.md §5 IP: the networks that must sit on different segments. */
export const SegmentKind = {
  WAN: 'wan',
  LAN: 'lan',
  VLAN: 'vlan',
  GUEST: 'guest',
  PPPOE: 'pppoe',
  PPTP: 'pptp',
  L2TP: 'l2tp',
} as const;
export type SegmentKind = (typeof SegmentKind)[keyof typeof SegmentKind];

/** SPEC.md §9 sort order (the values Ant Design tables use). */
export const SortOrder = { ASC: 'ascend', DESC: 'descend' } as const;
export type SortOrder = (typeof SortOrder)[keyof typeof SortOrder];

/** SPEC.md §5 DHCP lease presets in minutes: 30 min, 1 h, 3 h, 6 h, 12 h. */
export const DHCP_LEASE_PRESETS = [30, 60, 180, 360, 720] as const;
/** Pool options add 1 d, 3 d, 7 d. */
export const DHCP_POOL_LEASE_PRESETS = [...DHCP_LEASE_PRESETS, 1440, 4320, 10080] as const;
