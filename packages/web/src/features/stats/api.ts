import { STATS_ROUTES, type StatsRange } from '@beacon/protocol';
import { callRoute } from '../../api/route.ts';

/** /api/v1/projects/{id}/stats (STATS_ROUTES). Every key starts with ['stats', projectId]: a live
 * `stats.updated` of the project invalidates them all (features/devices/useLiveEvents.ts). */
export const statsKey = (projectId: number | undefined, ...rest: unknown[]) => ['stats', projectId, ...rest];

export const statsApi = {
  status: (projectId: number, range: StatsRange) =>
    callRoute(STATS_ROUTES.status, { id: projectId }, { query: { range } }),
  devices: (projectId: number, range: StatsRange) =>
    callRoute(STATS_ROUTES.devices, { id: projectId }, { query: { range } }),
  device: (projectId: number, sn: string, range: StatsRange) =>
    callRoute(STATS_ROUTES.device, { id: projectId, sn }, { query: { range } }),
};
