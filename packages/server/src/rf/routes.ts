import { ok as envelope, RF_ROUTES as R } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './service.ts';

const tags = ['rf'];

/** /api/v1/projects/{id}/rf: RF optimisation and the Wi-Fi country (issue 11, decision 0048). */
export async function rfRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    R.get.path,
    {
      schema: {
        tags,
        summary:
          "The Wi-Fi country, the APs' radios as saved and as reported, the run going and the schedule",
        params: R.get.params,
        response: { 200: envelope(R.get.response) },
      },
    },
    async (request) => ok(await service.getRf(deps, callerOf(request), request.params.id)),
  );

  app.put(
    R.country.path,
    {
      schema: {
        tags,
        summary:
          "Change the Wi-Fi country: every AP's channels and power are held to its rules and the radios re-adapt (about 3 minutes)",
        params: R.country.params,
        body: R.country.body,
        response: { 200: envelope(R.country.response) },
      },
    },
    async (request) => ok(await service.setCountry(deps, callerOf(request), request.params.id, request.body)),
  );

  app.put(
    R.manual.path,
    {
      schema: {
        tags,
        summary:
          'Manual RF: channel, width, transmit power (8-29) and access threshold (-90 to -60) on the chosen APs, as a run',
        params: R.manual.params,
        body: R.manual.body,
        response: { 200: envelope(R.manual.response) },
      },
    },
    async (request) => ok(await service.manualRf(deps, callerOf(request), request.params.id, request.body)),
  );

  app.put(
    R.roaming.path,
    {
      schema: {
        tags,
        summary: 'Roaming tuner: access threshold, band steering and load balancing per AP',
        params: R.roaming.params,
        body: R.roaming.body,
        response: { 200: envelope(R.roaming.response) },
      },
    },
    async (request) => ok(await service.setRoaming(deps, callerOf(request), request.params.id, request.body)),
  );

  app.post(
    R.optimise.path,
    {
      schema: {
        tags,
        summary:
          'Start an automatic optimisation (5022 with fewer than 2 online APs, 27 while one runs); its progress is the run',
        params: R.optimise.params,
        body: R.optimise.body,
        response: { 200: envelope(R.optimise.response) },
      },
    },
    async (request) => ok(await service.optimise(deps, callerOf(request), request.params.id)),
  );

  app.get(
    R.runs.path,
    {
      schema: {
        tags,
        summary: 'The optimisation log: the latest 20 runs, newest first',
        params: R.runs.params,
        response: { 200: envelope(R.runs.response) },
      },
    },
    async (request) => ok(await service.listRuns(deps, callerOf(request), request.params.id)),
  );

  app.get(
    R.run.path,
    {
      schema: {
        tags,
        summary: 'One run with each radio before and after (channel, power, RSSI, noise, co-channel count)',
        params: R.run.params,
        response: { 200: envelope(R.run.response) },
      },
    },
    async (request) =>
      ok(await service.getRun(deps, callerOf(request), request.params.id, request.params.runId)),
  );

  app.put(
    R.schedule.path,
    {
      schema: {
        tags,
        summary: "Scheduled automatic optimisation: days and time on the project's clock",
        params: R.schedule.params,
        body: R.schedule.body,
        response: { 200: envelope(R.schedule.response) },
      },
    },
    async (request) =>
      ok(await service.saveSchedule(deps, callerOf(request), request.params.id, request.body)),
  );
}
