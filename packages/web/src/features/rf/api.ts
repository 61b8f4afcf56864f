import { type ManualRfBody, RF_ROUTES, type RfScheduleBody, type RoamingBody } from '@beacon/protocol';
import { callRoute } from '../../api/route.ts';

const R = RF_ROUTES;

/** /api/v1/projects/{id}/rf (RF_ROUTES): RF optimisation and the Wi-Fi country. */
export const rfApi = {
  get: (projectId: number) => callRoute(R.get, { id: projectId }),
  country: (projectId: number, country: string) =>
    callRoute(R.country, { id: projectId }, { body: { country } }),
  manual: (projectId: number, body: ManualRfBody) => callRoute(R.manual, { id: projectId }, { body }),
  roaming: (projectId: number, body: RoamingBody) => callRoute(R.roaming, { id: projectId }, { body }),
  optimise: (projectId: number) => callRoute(R.optimise, { id: projectId }, { body: {} }),
  runs: (projectId: number) => callRoute(R.runs, { id: projectId }),
  run: (projectId: number, runId: number) => callRoute(R.run, { id: projectId, runId }),
  schedule: (projectId: number, body: RfScheduleBody) => callRoute(R.schedule, { id: projectId }, { body }),
};

/** Under the device queries' key, so live device events refetch them too. */
export const rfKey = (projectId: number | undefined) => ['devices', projectId, 'rf'] as const;
export const rfRunsKey = (projectId: number | undefined) => ['devices', projectId, 'rf-runs'] as const;
