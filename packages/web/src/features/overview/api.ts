import { OVERVIEW_ROUTES, type SaveDataScreenBody } from '@beacon/protocol';
import { callRoute } from '../../api/route.ts';

const R = OVERVIEW_ROUTES;

/**
 * The overview's queries sit under ['devices', projectId], which useLiveDeviceEvents refreshes on
 * every status or inventory event of the project.
 */
export const overviewKey = (projectId: number | undefined) => ['devices', projectId, 'overview'] as const;
export const dataScreenKey = (projectId: number | undefined) => ['dataScreen', projectId] as const;
/** Under ['devices', projectId]: the map's counts follow the project's live device events. */
export const dataScreenMapKey = (projectId: number | undefined) =>
  ['devices', projectId, 'dataScreenMap'] as const;
/** Under ['stats', projectId]: refetched on the project's stats.updated live events. */
export const onlineSeriesKey = (projectId: number | undefined) =>
  ['stats', projectId, 'online', '24h'] as const;

/** Self-refresh of the overview and the data screen besides the live events (30 s). */
export const REFRESH_MS = 30_000;

/** /api/v1/projects/{id}/overview and /data-screen, from OVERVIEW_ROUTES (docs/decisions/0041). */
export const overviewApi = {
  overview: (projectId: number) => callRoute(R.overview, { id: projectId }),
  dataScreen: (projectId: number) => callRoute(R.dataScreen, { id: projectId }),
  saveDataScreen: (projectId: number, body: SaveDataScreenBody) =>
    callRoute(R.saveDataScreen, { id: projectId }, { body }),
  online: (projectId: number) =>
    callRoute(R.dataScreenOnline, { id: projectId }, { query: { range: '24h' } }),
  map: (projectId: number) => callRoute(R.dataScreenMap, { id: projectId }),
};
