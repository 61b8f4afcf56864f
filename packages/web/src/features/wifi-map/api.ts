import { type PlanLayout, WIFI_MAP_ROUTES as R } from '@beacon/protocol';
import { callRoute, uploadToRoute } from '../../api/route.ts';

/** /api/v1/projects/{id}/wifi-map (WIFI_MAP_ROUTES): floor plans, walls, AP positions. */
export const wifiMapApi = {
  get: (projectId: number) => callRoute(R.get, { id: projectId }),
  upload: (projectId: number, file: File, name?: string) => {
    const form = new FormData();
    form.append('file', file);
    return uploadToRoute(R.upload, { id: projectId }, form, name ? { name } : undefined);
  },
  save: (projectId: number, planId: number, body: PlanLayout) =>
    callRoute(R.save, { id: projectId, planId }, { body }),
  remove: (projectId: number, planId: number) => callRoute(R.remove, { id: projectId, planId }),
};

export const wifiMapKey = (projectId: number | undefined) => ['wifi-map', projectId] as const;
