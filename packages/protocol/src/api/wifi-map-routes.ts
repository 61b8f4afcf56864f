import { ProjectParams } from './ids.ts';
import type { RouteContract } from './route-contract.ts';
import {
  FloorPlanView,
  PlanImageQuery,
  PlanLayout,
  PlanParams,
  UploadPlanQuery,
  WifiMapView,
} from './wifi-map.ts';

/**
 * The Wi-Fi map (server wifi-map/, web features/wifi-map; decisions 0052-0053). The upload is
 * multipart (`file`); the image answers the file itself, streamed.
 */
export const WIFI_MAP_ROUTES = {
  get: {
    method: 'GET',
    path: '/projects/:id/wifi-map',
    params: ProjectParams,
    response: WifiMapView,
  },
  upload: {
    method: 'POST',
    path: '/projects/:id/wifi-map/plans',
    params: ProjectParams,
    query: UploadPlanQuery,
    response: FloorPlanView,
  },
  save: {
    method: 'PUT',
    path: '/projects/:id/wifi-map/plans/:planId',
    params: PlanParams,
    body: PlanLayout,
    response: FloorPlanView,
  },
  remove: {
    method: 'DELETE',
    path: '/projects/:id/wifi-map/plans/:planId',
    params: PlanParams,
    response: FloorPlanView,
  },
  image: {
    method: 'GET',
    path: '/projects/:id/wifi-map/plans/:planId/image',
    params: PlanParams,
    query: PlanImageQuery,
    raw: 'file',
  },
} as const satisfies Record<string, RouteContract>;
