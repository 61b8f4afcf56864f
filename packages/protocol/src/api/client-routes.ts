import {
  AddBlacklistBody,
  BlacklistParams,
  BlacklistView,
  ClientListQuery,
  ClientPage,
  ClientStatsQuery,
  ClientStatsView,
  ForceOfflineBody,
  ForceOfflineView,
} from './clients.ts';
import { ProjectParams } from './ids.ts';
import type { RouteContract } from './route-contract.ts';

/** Online clients, their statistics, force offline and the blacklist (server clients/, web features/clients). */
export const CLIENT_ROUTES = {
  list: {
    method: 'GET',
    path: '/projects/:id/clients',
    params: ProjectParams,
    query: ClientListQuery,
    response: ClientPage,
  },
  stats: {
    method: 'GET',
    path: '/projects/:id/clients/stats',
    params: ProjectParams,
    query: ClientStatsQuery,
    response: ClientStatsView,
  },
  forceOffline: {
    method: 'POST',
    path: '/projects/:id/clients/force-offline',
    params: ProjectParams,
    body: ForceOfflineBody,
    response: ForceOfflineView,
  },
  blacklist: {
    method: 'GET',
    path: '/projects/:id/clients/blacklist',
    params: ProjectParams,
    response: BlacklistView,
  },
  addBlacklist: {
    method: 'POST',
    path: '/projects/:id/clients/blacklist',
    params: ProjectParams,
    body: AddBlacklistBody,
    response: BlacklistView,
  },
  removeBlacklist: {
    method: 'DELETE',
    path: '/projects/:id/clients/blacklist/:mac',
    params: BlacklistParams,
    response: BlacklistView,
  },
} as const satisfies Record<string, RouteContract>;
