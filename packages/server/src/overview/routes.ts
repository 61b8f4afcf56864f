import { ok as envelope, OVERVIEW_ROUTES } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as screen from './data-screen.ts';
import * as service from './service.ts';

const tags = ['overview'];
const R = OVERVIEW_ROUTES;

/** Project overview counts and the data screen's settings (docs/decisions/0041), signed in. */
export async function overviewRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    R.overview.path,
    {
      schema: {
        tags,
        summary:
          'Device counts of the project (total, online, offline, busy, clients now, configuration failed, health), in total and by device type',
        params: R.overview.params,
        response: { 200: envelope(R.overview.response) },
      },
    },
    async (request) => ok(await service.getOverview(deps, callerOf(request), request.params.id)),
  );

  app.get(
    R.dataScreen.path,
    {
      schema: {
        tags,
        summary: "The data screen's title, subtitle and countries (the defaults until saved)",
        params: R.dataScreen.params,
        response: { 200: envelope(R.dataScreen.response) },
      },
    },
    async (request) => ok(await service.getDataScreen(deps, callerOf(request), request.params.id)),
  );

  app.put(
    R.saveDataScreen.path,
    {
      schema: {
        tags,
        summary:
          "Save the data screen's title (1-18 characters), subtitle (0-30) and at most 5 countries (ISO 3166-1 alpha-2; 5045 over 5, 5270 unknown code); writers only",
        params: R.saveDataScreen.params,
        body: R.saveDataScreen.body,
        response: { 200: envelope(R.saveDataScreen.response) },
      },
    },
    async (request) =>
      ok(await service.saveDataScreen(deps, callerOf(request), request.params.id, request.body)),
  );

  app.get(
    R.dataScreenOnline.path,
    {
      schema: {
        tags,
        summary:
          'Devices online over time: per bucket of the range (12h, 24h, 72h: 5 minutes; 7d, 30d: 1 hour), the devices that reported telemetry in it',
        params: R.dataScreenOnline.params,
        querystring: R.dataScreenOnline.query,
        response: { 200: envelope(R.dataScreenOnline.response) },
      },
    },
    async (request) =>
      ok(await screen.getOnlineSeries(deps, callerOf(request), request.params.id, request.query)),
  );

  app.get(
    R.dataScreenMap.path,
    {
      schema: {
        tags,
        summary:
          "The data screen's countries with the devices of the caller's projects located there (the project location's country)",
        params: R.dataScreenMap.params,
        response: { 200: envelope(R.dataScreenMap.response) },
      },
    },
    async (request) => ok(await screen.getDataScreenMap(deps, callerOf(request), request.params.id)),
  );
}
