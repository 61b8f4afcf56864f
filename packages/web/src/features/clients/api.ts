import {
  type AddBlacklistBody,
  CLIENT_ROUTES,
  type ForceOfflineBody,
  type RouteQuery,
} from '@beacon/protocol';
import { callRoute } from '../../api/route.ts';

const R = CLIENT_ROUTES;

/** What the client list asks the server for (ClientListQuery). */
export type ClientListParams = RouteQuery<typeof CLIENT_ROUTES.list> & { page: number; pageSize: number };
export type ClientStatsParams = RouteQuery<typeof CLIENT_ROUTES.stats>;

/** Query keys under ['clients', projectId]: a `clients.changed` live event refreshes them all. */
export const clientsKey = (projectId: number | undefined) => ['clients', projectId] as const;

/** /api/v1/projects/{id}/clients…, from CLIENT_ROUTES. */
export const clientsApi = {
  list: (projectId: number, params: ClientListParams) =>
    callRoute(R.list, { id: projectId }, { query: { ...params } }),
  stats: (projectId: number, params: ClientStatsParams) =>
    callRoute(R.stats, { id: projectId }, { query: { ...params } }),
  forceOffline: (projectId: number, body: ForceOfflineBody) =>
    callRoute(R.forceOffline, { id: projectId }, { body }),
  blacklist: (projectId: number) => callRoute(R.blacklist, { id: projectId }),
  addBlacklist: (projectId: number, body: AddBlacklistBody) =>
    callRoute(R.addBlacklist, { id: projectId }, { body }),
  removeBlacklist: (projectId: number, mac: string) => callRoute(R.removeBlacklist, { id: projectId, mac }),
};
