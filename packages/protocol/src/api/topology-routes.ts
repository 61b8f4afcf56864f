import { ProjectParams } from './ids.ts';
import type { RouteContract } from './route-contract.ts';
import { TopologyTypeBody, TopologyTypeView, TopologyView } from './topology.ts';

/** The network topology (server src/topology/, web features/topology; issue 13, decision 0050). */
export const TOPOLOGY_ROUTES = {
  get: { method: 'GET', path: '/projects/:id/topology', params: ProjectParams, response: TopologyView },
  setType: {
    method: 'PUT',
    path: '/projects/:id/topology/types',
    params: ProjectParams,
    body: TopologyTypeBody,
    response: TopologyTypeView,
  },
} as const satisfies Record<string, RouteContract>;
