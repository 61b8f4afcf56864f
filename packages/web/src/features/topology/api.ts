import { TOPOLOGY_ROUTES, type TopologyTypeBody } from '@beacon/protocol';
import { callRoute } from '../../api/route.ts';

const R = TOPOLOGY_ROUTES;

/** /api/v1/projects/{id}/topology (TOPOLOGY_ROUTES): the network topology. */
export const topologyApi = {
  get: (projectId: number) => callRoute(R.get, { id: projectId }),
  setType: (projectId: number, body: TopologyTypeBody) => callRoute(R.setType, { id: projectId }, { body }),
};

/** Under the device queries' key, so live device events (a device offline) refetch it too. */
export const topologyKey = (projectId: number | undefined) => ['devices', projectId, 'topology'] as const;
