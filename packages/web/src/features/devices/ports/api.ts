import { type SaveSwitchBody, SWITCH_ROUTES } from '@beacon/protocol';
import { callRoute } from '../../../api/route.ts';
import { deviceKey } from '../api.ts';

/** /api/v1/projects/{id}/devices/{sn}/switch and /switch-poe, from SWITCH_ROUTES (decision 0039). */
export const switchApi = {
  get: (projectId: number, sn: string) => callRoute(SWITCH_ROUTES.get, { id: projectId, sn }),
  save: (projectId: number, sn: string, body: SaveSwitchBody) =>
    callRoute(SWITCH_ROUTES.save, { id: projectId, sn }, { body }),
  poe: (projectId: number) => callRoute(SWITCH_ROUTES.poe, { id: projectId }),
};

/** Under the device's key: the device's live events refresh it too. */
export const switchKey = (projectId: number, sn: string) => [...deviceKey(projectId, sn), 'switch'] as const;
