import { z } from 'zod';
import { ProjectParams } from './ids.ts';
import type { RouteContract } from './route-contract.ts';
import { DeviceStatsView, ProjectStatsView, StatsQuery, StatusSummaryView } from './stats.ts';

const StatsDeviceParams = ProjectParams.extend({ sn: z.string().min(1).max(64) });

/** Device statistics routes (server stats/, web features/stats). All read-only. */
export const STATS_ROUTES = {
  status: {
    method: 'GET',
    path: '/projects/:id/stats/status',
    params: ProjectParams,
    query: StatsQuery,
    response: StatusSummaryView,
  },
  devices: {
    method: 'GET',
    path: '/projects/:id/stats/devices',
    params: ProjectParams,
    query: StatsQuery,
    response: ProjectStatsView,
  },
  device: {
    method: 'GET',
    path: '/projects/:id/stats/devices/:sn',
    params: StatsDeviceParams,
    query: StatsQuery,
    response: DeviceStatsView,
  },
} as const satisfies Record<string, RouteContract>;
