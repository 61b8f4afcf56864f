import { AccessType } from './account.ts';
import { NetMode } from './project.ts';

/** SPEC.md §6 menu gating flags. */
export const MENU_FLAGS = [
  'overview',
  'overviewList',
  'dataScreen',
  'network',
  'status',
  'visualization',
  'maintenance',
  'networkSettings',
  'vlan',
  'dhcp',
  'staticRoute',
  'routeTable',
  'portMap',
  'wireless',
  'rf',
  'deviceRunData',
  'clientData',
  'clientList',
  'tools',
  'permissionShare',
  'log',
  'alarm',
  'backup',
] as const;
export type MenuFlag = (typeof MENU_FLAGS)[number];
export type MenuFlags = Record<MenuFlag, boolean>;
export const ALL_MENU_FLAGS: MenuFlags = Object.fromEntries(MENU_FLAGS.map((f) => [f, true])) as MenuFlags;

export type MenuGroup = 'overview' | 'network' | 'configuration' | 'data' | 'tool';
/** Landing order for non-web access (SPEC.md §2): network, maintain, report, tool. */
export type LandingGroup = 'network' | 'maintain' | 'report' | 'tool' | null;

export interface RouteEntry {
  path: string;
  /** i18n key of the title. */
  titleKey: string;
  access: readonly AccessType[];
  netModes: readonly NetMode[];
  /** All flags must be on; a group flag and the entry's own flag. */
  flags: readonly MenuFlag[];
  group: MenuGroup;
  /** Sub-group within Configuration: the gateway group of wired items. */
  subGroup?: 'gateway';
  landing: LandingGroup;
}

const BOTH = [NetMode.WLAN, NetMode.MESH] as const;
const WLAN_ONLY = [NetMode.WLAN] as const;
const WEB = [AccessType.WEB] as const;
const ALL_ACCESS = [AccessType.WEB, AccessType.OPENAPI] as const;

/** The route table of SPEC.md §2; the navigation tree and landing are derived from it. */
export const ROUTES: readonly RouteEntry[] = [
  {
    path: '/overview/preview',
    titleKey: 'route.overviewPreview',
    access: WEB,
    netModes: BOTH,
    flags: ['overview'],
    group: 'overview',
    landing: null,
  },
  {
    path: '/overview/list',
    titleKey: 'route.overviewList',
    access: WEB,
    netModes: BOTH,
    flags: ['overviewList'],
    group: 'overview',
    landing: null,
  },
  {
    path: '/overview/preview/datascreen',
    titleKey: 'route.dataScreen',
    access: WEB,
    netModes: BOTH,
    flags: ['dataScreen'],
    group: 'overview',
    landing: null,
  },
  {
    path: '/manage/status',
    titleKey: 'route.status',
    access: ALL_ACCESS,
    netModes: BOTH,
    flags: ['network', 'status'],
    group: 'network',
    landing: 'network',
  },
  {
    path: '/manage/visualization/td',
    titleKey: 'route.wifiMap',
    access: WEB,
    netModes: BOTH,
    flags: ['network', 'visualization'],
    group: 'network',
    landing: 'network',
  },
  {
    path: '/manage/visualization/topo',
    titleKey: 'route.topology',
    access: WEB,
    netModes: BOTH,
    flags: ['network', 'visualization'],
    group: 'network',
    landing: 'network',
  },
  {
    path: '/manage/devconf',
    titleKey: 'route.maintenance',
    access: ALL_ACCESS,
    netModes: BOTH,
    flags: ['maintenance'],
    group: 'configuration',
    landing: 'maintain',
  },
  {
    path: '/manage/networkconf/netset',
    titleKey: 'route.wan',
    access: ALL_ACCESS,
    netModes: BOTH,
    flags: ['networkSettings'],
    group: 'configuration',
    subGroup: 'gateway',
    landing: 'maintain',
  },
  {
    path: '/manage/networkconf/vlan',
    titleKey: 'route.vlan',
    access: ALL_ACCESS,
    netModes: BOTH,
    flags: ['networkSettings', 'vlan'],
    group: 'configuration',
    subGroup: 'gateway',
    landing: 'maintain',
  },
  {
    path: '/manage/networkconf/dhcp',
    titleKey: 'route.dhcp',
    access: ALL_ACCESS,
    netModes: BOTH,
    flags: ['networkSettings', 'dhcp'],
    group: 'configuration',
    subGroup: 'gateway',
    landing: 'maintain',
  },
  {
    path: '/manage/networkconf/static',
    titleKey: 'route.staticRoute',
    access: ALL_ACCESS,
    netModes: BOTH,
    flags: ['networkSettings', 'staticRoute'],
    group: 'configuration',
    subGroup: 'gateway',
    landing: 'maintain',
  },
  {
    path: '/manage/networkconf/router',
    titleKey: 'route.routeTable',
    access: ALL_ACCESS,
    netModes: BOTH,
    flags: ['networkSettings', 'routeTable'],
    group: 'configuration',
    subGroup: 'gateway',
    landing: 'maintain',
  },
  {
    path: '/manage/networkconf/port',
    titleKey: 'route.portMap',
    access: ALL_ACCESS,
    netModes: BOTH,
    flags: ['networkSettings', 'portMap'],
    group: 'configuration',
    subGroup: 'gateway',
    landing: 'maintain',
  },
  {
    path: '/manage/wirelessconf',
    titleKey: 'route.wireless',
    access: WEB,
    netModes: BOTH,
    flags: ['wireless'],
    group: 'configuration',
    landing: 'maintain',
  },
  {
    path: '/manage/rfconf',
    titleKey: 'route.rf',
    access: WEB,
    netModes: WLAN_ONLY,
    flags: ['rf'],
    group: 'configuration',
    landing: 'maintain',
  },
  {
    path: '/manage/devsrunstat',
    titleKey: 'route.deviceData',
    access: ALL_ACCESS,
    netModes: BOTH,
    flags: ['deviceRunData'],
    group: 'data',
    landing: 'report',
  },
  {
    path: '/manage/onlinestat',
    titleKey: 'route.clientData',
    access: ALL_ACCESS,
    netModes: BOTH,
    flags: ['clientData'],
    group: 'data',
    landing: 'report',
  },
  {
    path: '/manage/onlinelist',
    titleKey: 'route.clientList',
    access: ALL_ACCESS,
    netModes: BOTH,
    flags: ['clientList'],
    group: 'data',
    landing: 'report',
  },
  {
    path: '/manage/authority',
    titleKey: 'route.authority',
    access: WEB,
    netModes: BOTH,
    flags: ['tools', 'permissionShare'],
    group: 'tool',
    landing: 'tool',
  },
  {
    path: '/manage/runlog',
    titleKey: 'route.log',
    access: ALL_ACCESS,
    netModes: BOTH,
    flags: ['tools', 'log'],
    group: 'tool',
    landing: 'tool',
  },
  {
    path: '/manage/alarminfo',
    titleKey: 'route.alarm',
    access: ALL_ACCESS,
    netModes: BOTH,
    flags: ['tools', 'alarm'],
    group: 'tool',
    landing: 'tool',
  },
  {
    path: '/manage/backup',
    titleKey: 'route.backup',
    access: ALL_ACCESS,
    netModes: WLAN_ONLY,
    flags: ['tools', 'backup'],
    group: 'tool',
    landing: 'tool',
  },
];

export interface GateContext {
  access: AccessType;
  netMode: NetMode;
  flags: MenuFlags;
}

/** A route is shown only if access type, project type and every flag allow it (SPEC.md §2). */
export function isRouteAllowed(route: RouteEntry, ctx: GateContext): boolean {
  return (
    route.access.includes(ctx.access) &&
    route.netModes.includes(ctx.netMode) &&
    route.flags.every((flag) => ctx.flags[flag])
  );
}

export function allowedRoutes(ctx: GateContext): RouteEntry[] {
  return ROUTES.filter((r) => isRouteAllowed(r, ctx));
}

const LANDING_ORDER: readonly Exclude<LandingGroup, null>[] = ['network', 'maintain', 'report', 'tool'];

/** Web lands on /overview/preview; other access on the first permitted page among network, maintain, report, tool. */
export function landingPath(ctx: GateContext): string | null {
  if (ctx.access === AccessType.WEB) return '/overview/preview';
  const allowed = allowedRoutes(ctx);
  for (const group of LANDING_ORDER) {
    const first = allowed.find((r) => r.landing === group);
    if (first) return first.path;
  }
  return null;
}

/** Top-level application routes of SPEC.md §2. */
export const TOP_LEVEL_ROUTES = [
  '/',
  '/static/lrf',
  '/static/transfer',
  '/static/transferToLocalDev',
  '/static/wechatTransfer',
] as const;
