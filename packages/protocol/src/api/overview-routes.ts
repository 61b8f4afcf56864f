import { ProjectParams } from './ids.ts';
import {
  DataScreenMapView,
  DataScreenView,
  OnlineSeriesQuery,
  OnlineSeriesView,
  ProjectOverview,
  SaveDataScreenBody,
} from './overview.ts';
import type { RouteContract } from './route-contract.ts';

/** Project overview and data screen (server overview/, web features/overview): docs/decisions/0041. */
export const OVERVIEW_ROUTES = {
  overview: {
    method: 'GET',
    path: '/projects/:id/overview',
    params: ProjectParams,
    response: ProjectOverview,
  },
  dataScreen: {
    method: 'GET',
    path: '/projects/:id/data-screen',
    params: ProjectParams,
    response: DataScreenView,
  },
  saveDataScreen: {
    method: 'PUT',
    path: '/projects/:id/data-screen',
    params: ProjectParams,
    body: SaveDataScreenBody,
    response: DataScreenView,
  },
  /** Devices online over time (decision 0045). */
  dataScreenOnline: {
    method: 'GET',
    path: '/projects/:id/data-screen/online',
    params: ProjectParams,
    query: OnlineSeriesQuery,
    response: OnlineSeriesView,
  },
  /** The chosen countries with their device counts (decision 0045). */
  dataScreenMap: {
    method: 'GET',
    path: '/projects/:id/data-screen/map',
    params: ProjectParams,
    response: DataScreenMapView,
  },
} as const satisfies Record<string, RouteContract>;
