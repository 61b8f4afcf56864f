import { AccessType } from '../enums/account.ts';
import { ROUTES } from '../enums/menu.ts';
import { ACCOUNT_ROUTES } from './account-routes.ts';
import { ALARM_ROUTES } from './alarm-routes.ts';
import { AUTH_ROUTES } from './auth-routes.ts';
import { BACKUP_ROUTES } from './backup-routes.ts';
import { CLIENT_ROUTES } from './client-routes.ts';
import { CONFIG_ROUTES } from './config-routes.ts';
import { DEVICE_ROUTES } from './device-routes.ts';
import { DHCP_SERVER_ROUTES } from './dhcp-server-routes.ts';
import { LOG_ROUTES } from './log-routes.ts';
import { NETWORK_ROUTES } from './network-routes.ts';
import { PLATFORM_ROUTES } from './platform-routes.ts';
import { PROJECT_ROUTES } from './project-routes.ts';
import { API_PREFIX, type RouteContract } from './route-contract.ts';
import { SHARING_ROUTES } from './sharing-routes.ts';
import { STATS_ROUTES } from './stats-routes.ts';
import { SWITCH_ROUTES } from './switch-routes.ts';
import { TEAM_ROUTES } from './team-routes.ts';

/**
 * What an API key may call (SPEC.md §2 "Access"; docs/decisions/0058-api-key-scopes-and-openapi-routes.md).
 *
 * SPEC.md §2 gives each screen its access types. A route belongs to the screens that use it
 * (`SCREEN_CALLS`, one list per screen of the §2 table, naming contract entries, never paths); an API
 * key (access type openapi) may call a route only when one of its screens allows openapi, or when
 * it is one of the `OPENAPI_SHELL_CALLS` every openapi client needs (who am I, the project list,
 * live events, this document). Everything else answers 5090. The server's gate, the OpenAPI document
 * and the web app's menus all read this one table.
 */
export const SCREEN_CALLS: Readonly<Record<string, readonly RouteContract[]>> = {
  '/manage/status': [STATS_ROUTES.status, DEVICE_ROUTES.list, DEVICE_ROUTES.get],
  '/manage/devconf': [
    ...Object.values(DEVICE_ROUTES),
    ...Object.values(SWITCH_ROUTES),
    ...Object.values(DHCP_SERVER_ROUTES),
    CONFIG_ROUTES.deviceConfig,
    CONFIG_ROUTES.saveDeviceConfig,
    CONFIG_ROUTES.deviceRevisions,
    CONFIG_ROUTES.deviceRevision,
    CONFIG_ROUTES.deviceDiff,
    CONFIG_ROUTES.deviceRollback,
    PLATFORM_ROUTES.remoteProxy,
  ],
  // The wired items share one network document (docs/decisions/0038).
  '/manage/networkconf/netset': Object.values(NETWORK_ROUTES),
  '/manage/networkconf/vlan': Object.values(NETWORK_ROUTES),
  '/manage/networkconf/dhcp': Object.values(NETWORK_ROUTES),
  '/manage/networkconf/static': Object.values(NETWORK_ROUTES),
  '/manage/networkconf/router': Object.values(NETWORK_ROUTES),
  '/manage/networkconf/port': Object.values(NETWORK_ROUTES),
  '/manage/devsrunstat': [STATS_ROUTES.devices, STATS_ROUTES.device],
  '/manage/onlinestat': [CLIENT_ROUTES.stats],
  '/manage/onlinelist': [
    CLIENT_ROUTES.list,
    CLIENT_ROUTES.forceOffline,
    CLIENT_ROUTES.blacklist,
    CLIENT_ROUTES.addBlacklist,
    CLIENT_ROUTES.removeBlacklist,
  ],
  '/manage/authority': Object.values(SHARING_ROUTES),
  '/manage/runlog': [...Object.values(LOG_ROUTES), PROJECT_ROUTES.auditLog],
  '/manage/alarminfo': Object.values(ALARM_ROUTES),
  '/manage/backup': [...Object.values(BACKUP_ROUTES), CONFIG_ROUTES.deviceConfig],
};

/** Routes outside the §2 screens that every openapi client needs, read-only ones included. */
export const OPENAPI_SHELL_CALLS: readonly RouteContract[] = [
  AUTH_ROUTES.session,
  ACCOUNT_ROUTES.get,
  ACCOUNT_ROUTES.avatar,
  PROJECT_ROUTES.list,
  PROJECT_ROUTES.get,
  PLATFORM_ROUTES.events,
  PLATFORM_ROUTES.openapi,
  PLATFORM_ROUTES.health,
];

/** `GET /projects/:id/alarms` → the key the gate and the document look routes up by. */
export function routeKey(method: string, path: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${path}`;
}

function buildOpenapiKeys(): ReadonlySet<string> {
  const keys = new Set<string>();
  for (const r of OPENAPI_SHELL_CALLS) keys.add(routeKey(r.method, r.path));
  for (const screen of ROUTES) {
    if (!screen.access.includes(AccessType.OPENAPI)) continue;
    for (const r of SCREEN_CALLS[screen.path] ?? []) keys.add(routeKey(r.method, r.path));
  }
  return keys;
}

const OPENAPI_KEYS = buildOpenapiKeys();

/**
 * May an API key call this route? `path` is the contract path (relative to /api/v1, `:params`) or
 * the registered URL with the /api/v1 prefix.
 */
export function apiKeyMayCall(method: string, path: string): boolean {
  const relative = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path;
  return OPENAPI_KEYS.has(routeKey(method, relative));
}

/** A route that changes something: a read-only key, and a visitor, may call GET only. */
export function isWriteMethod(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD';
}

/**
 * Operations the administrator role blocks (SPEC.md §6; docs/roles.md): a subordinate account, even
 * with read-write rights on a project, leaves these to the main account. `action` narrows the device
 * action route to the named actions.
 */
export const SUBORDINATE_BLOCKED: readonly { route: RouteContract; action?: readonly string[] }[] = [
  { route: PROJECT_ROUTES.create },
  { route: PROJECT_ROUTES.remove },
  { route: PROJECT_ROUTES.update },
  { route: SHARING_ROUTES.createShare },
  { route: SHARING_ROUTES.updateShare },
  { route: SHARING_ROUTES.deleteShare },
  { route: SHARING_ROUTES.createInvite },
  { route: SHARING_ROUTES.transfer },
  { route: SHARING_ROUTES.cancelTransfer },
  { route: SHARING_ROUTES.acceptOffer },
  { route: SHARING_ROUTES.acceptInvite },
  { route: DEVICE_ROUTES.add },
  { route: DEVICE_ROUTES.import },
  { route: DEVICE_ROUTES.remove },
  { route: DEVICE_ROUTES.uploadFirmware },
  { route: DEVICE_ROUTES.action, action: ['reset'] },
  { route: DEVICE_ROUTES.bulk, action: ['reset'] },
  { route: BACKUP_ROUTES.restore },
  { route: ACCOUNT_ROUTES.createApiKey },
  { route: TEAM_ROUTES.create },
  { route: TEAM_ROUTES.update },
  { route: TEAM_ROUTES.remove },
  { route: TEAM_ROUTES.resendInvitation },
  { route: TEAM_ROUTES.grant },
  { route: TEAM_ROUTES.revoke },
];

/** Is this call (contract path or registered URL, and its `:action` param) blocked for a subordinate? */
export function subordinateBlocked(method: string, path: string, action?: string): boolean {
  const relative = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path;
  const key = routeKey(method, relative);
  return SUBORDINATE_BLOCKED.some(
    (b) =>
      routeKey(b.route.method, b.route.path) === key &&
      (!b.action || (action !== undefined && b.action.includes(action))),
  );
}

/**
 * What a visitor may still change: its own profile, avatar, password and dismissed reminders; every
 * other write answers 5443 (SPEC.md §6 "a visitor cannot configure").
 */
export const VISITOR_ALLOWED_WRITES: readonly RouteContract[] = [
  AUTH_ROUTES.logout,
  ACCOUNT_ROUTES.update,
  ACCOUNT_ROUTES.uploadAvatar,
  ACCOUNT_ROUTES.changePassword,
  TEAM_ROUTES.seenJoinedDevices,
];

export function visitorMayWrite(method: string, path: string): boolean {
  const relative = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path;
  const key = routeKey(method, relative);
  return VISITOR_ALLOWED_WRITES.some((r) => routeKey(r.method, r.path) === key);
}
