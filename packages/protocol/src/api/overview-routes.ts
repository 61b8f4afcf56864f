import { ProjectParams } from './ids.ts';
import { DataScreenView, ProjectOverview, SaveDataScreenBody } from './overview.ts';
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
} as const satisfies Record<string, RouteContract>;
