import { ok as envelope, STATS_ROUTES } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './service.ts';

const tags = ['stats'];

/** /api/v1/projects/{id}/stats: device statistics (SPEC.md §2 /manage/status, /manage/devsrunstat). */
export async function statsRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    STATS_ROUTES.status.path,
    {
      schema: {
        tags,
        summary:
          'Status: devices online and offline by type, clients now, WAN throughput, top 5 APs (range 12h…30d)',
        params: STATS_ROUTES.status.params,
        querystring: STATS_ROUTES.status.query,
        response: { 200: envelope(STATS_ROUTES.status.response) },
      },
    },
    async (request) =>
      ok(await service.statusSummary(deps, callerOf(request), request.params.id, request.query)),
  );
  app.get(
    STATS_ROUTES.devices.path,
    {
      schema: {
        tags,
        summary: "Device data: the project's CPU, memory, traffic and clients over the range; top 10 lists",
        params: STATS_ROUTES.devices.params,
        querystring: STATS_ROUTES.devices.query,
        response: { 200: envelope(STATS_ROUTES.devices.response) },
      },
    },
    async (request) =>
      ok(await service.projectStats(deps, callerOf(request), request.params.id, request.query)),
  );
  app.get(
    STATS_ROUTES.device.path,
    {
      schema: {
        tags,
        summary: "One device's CPU, memory, traffic and clients, per port, radio and SSID, over the range",
        params: STATS_ROUTES.device.params,
        querystring: STATS_ROUTES.device.query,
        response: { 200: envelope(STATS_ROUTES.device.response) },
      },
    },
    async (request) =>
      ok(
        await service.deviceStats(
          deps,
          callerOf(request),
          request.params.id,
          request.params.sn,
          request.query,
        ),
      ),
  );
}
