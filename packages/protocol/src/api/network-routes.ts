import { ConfigDiffQuery, ConfigDiffView, ConfigRevisionList, ConfigRevisionQuery } from './config.ts';
import { ProjectParams } from './ids.ts';
import {
  NetworkPreviewView,
  NetworkView,
  PreviewNetworkBody,
  RollbackNetworkBody,
  RouteTableView,
  SaveNetworkBody,
} from './network.ts';
import type { RouteContract } from './route-contract.ts';

/**
 * The project's network configuration (server src/network/, web features/network, issue 10):
 * one document saved as revisions and compiled into every affected device's configuration.
 */
export const NETWORK_ROUTES = {
  get: { method: 'GET', path: '/projects/:id/network', params: ProjectParams, response: NetworkView },
  save: {
    method: 'PUT',
    path: '/projects/:id/network',
    params: ProjectParams,
    body: SaveNetworkBody,
    response: NetworkView,
  },
  preview: {
    method: 'POST',
    path: '/projects/:id/network/preview',
    params: ProjectParams,
    body: PreviewNetworkBody,
    response: NetworkPreviewView,
  },
  revisions: {
    method: 'GET',
    path: '/projects/:id/network/revisions',
    params: ProjectParams,
    query: ConfigRevisionQuery,
    response: ConfigRevisionList,
  },
  diff: {
    method: 'GET',
    path: '/projects/:id/network/diff',
    params: ProjectParams,
    query: ConfigDiffQuery,
    response: ConfigDiffView,
  },
  rollback: {
    method: 'POST',
    path: '/projects/:id/network/rollback',
    params: ProjectParams,
    body: RollbackNetworkBody,
    response: NetworkView,
  },
  routeTable: {
    method: 'GET',
    path: '/projects/:id/network/route-table',
    params: ProjectParams,
    response: RouteTableView,
  },
} as const satisfies Record<string, RouteContract>;
