import { ConfigDiffQuery, ConfigDiffView, ConfigRevisionList, ConfigRevisionQuery } from './config.ts';
import { ProjectParams } from './ids.ts';
import type { RouteContract } from './route-contract.ts';
import {
  DeleteWifiPolicyQuery,
  RollbackWifiBody,
  SaveWifiBody,
  WifiPolicyBody,
  WifiPolicyParams,
  WifiView,
} from './wifi.ts';

/**
 * The project's Wi-Fi policies (server src/wifi/, web features/wireless, issue 11, decision 0047):
 * one document of policies saved as revisions and compiled into every targeted device's `wifi`.
 * Each write names the revision it was based on (5120 when another was saved since).
 */
export const WIFI_ROUTES = {
  get: { method: 'GET', path: '/projects/:id/wifi', params: ProjectParams, response: WifiView },
  save: {
    method: 'PUT',
    path: '/projects/:id/wifi',
    params: ProjectParams,
    body: SaveWifiBody,
    response: WifiView,
  },
  createPolicy: {
    method: 'POST',
    path: '/projects/:id/wifi/policies',
    params: ProjectParams,
    body: WifiPolicyBody,
    response: WifiView,
  },
  updatePolicy: {
    method: 'PUT',
    path: '/projects/:id/wifi/policies/:policyId',
    params: WifiPolicyParams,
    body: WifiPolicyBody,
    response: WifiView,
  },
  deletePolicy: {
    method: 'DELETE',
    path: '/projects/:id/wifi/policies/:policyId',
    params: WifiPolicyParams,
    query: DeleteWifiPolicyQuery,
    response: WifiView,
  },
  revisions: {
    method: 'GET',
    path: '/projects/:id/wifi/revisions',
    params: ProjectParams,
    query: ConfigRevisionQuery,
    response: ConfigRevisionList,
  },
  diff: {
    method: 'GET',
    path: '/projects/:id/wifi/diff',
    params: ProjectParams,
    query: ConfigDiffQuery,
    response: ConfigDiffView,
  },
  rollback: {
    method: 'POST',
    path: '/projects/:id/wifi/rollback',
    params: ProjectParams,
    body: RollbackWifiBody,
    response: WifiView,
  },
} as const satisfies Record<string, RouteContract>;
