import { ok as envelope, WIFI_ROUTES as R } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './service.ts';

const tags = ['wifi'];

/** /api/v1/projects/{id}/wifi: the project's Wi-Fi policies as revisions (issue 11, decision 0047). */
export async function wifiRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    R.get.path,
    {
      schema: {
        tags,
        summary:
          "The project's Wi-Fi policies (secrets as ********), its Wi-Fi devices with their sync state and running SSIDs, and how many are pending, applied or failed",
        params: R.get.params,
        response: { 200: envelope(R.get.response) },
      },
    },
    async (request) => ok(await service.getWifi(deps, callerOf(request), request.params.id)),
  );

  app.put(
    R.save.path,
    {
      schema: {
        tags,
        summary:
          'Save every policy as a new revision based on expectedRevision (5120 when another was saved since), validated with the SPEC.md rules and compiled into every targeted device',
        params: R.save.params,
        body: R.save.body,
        response: { 200: envelope(R.save.response) },
      },
    },
    async (request) => ok(await service.saveWifi(deps, callerOf(request), request.params.id, request.body)),
  );

  app.post(
    R.createPolicy.path,
    {
      schema: {
        tags,
        summary: 'Add a Wi-Fi policy (a new revision based on expectedRevision)',
        params: R.createPolicy.params,
        body: R.createPolicy.body,
        response: { 200: envelope(R.createPolicy.response) },
      },
    },
    async (request) =>
      ok(await service.createWifiPolicy(deps, callerOf(request), request.params.id, request.body)),
  );

  app.put(
    R.updatePolicy.path,
    {
      schema: {
        tags,
        summary: 'Change a Wi-Fi policy (a new revision based on expectedRevision)',
        params: R.updatePolicy.params,
        body: R.updatePolicy.body,
        response: { 200: envelope(R.updatePolicy.response) },
      },
    },
    async (request) =>
      ok(
        await service.updateWifiPolicy(
          deps,
          callerOf(request),
          request.params.id,
          request.params.policyId,
          request.body,
        ),
      ),
  );

  app.delete(
    R.deletePolicy.path,
    {
      schema: {
        tags,
        summary: 'Remove a Wi-Fi policy (a new revision based on expectedRevision)',
        params: R.deletePolicy.params,
        querystring: R.deletePolicy.query,
        response: { 200: envelope(R.deletePolicy.response) },
      },
    },
    async (request) =>
      ok(
        await service.deleteWifiPolicy(
          deps,
          callerOf(request),
          request.params.id,
          request.params.policyId,
          request.query.expectedRevision,
        ),
      ),
  );

  app.get(
    R.revisions.path,
    {
      schema: {
        tags,
        summary: "The Wi-Fi policies' revisions, newest first",
        params: R.revisions.params,
        querystring: R.revisions.query,
        response: { 200: envelope(R.revisions.response) },
      },
    },
    async (request) =>
      ok(await service.listWifiRevisions(deps, callerOf(request), request.params.id, request.query)),
  );

  app.get(
    R.diff.path,
    {
      schema: {
        tags,
        summary: 'What changed from one Wi-Fi revision to another, leaf by leaf (secrets masked)',
        params: R.diff.params,
        querystring: R.diff.query,
        response: { 200: envelope(R.diff.response) },
      },
    },
    async (request) =>
      ok(
        await service.diffWifi(
          deps,
          callerOf(request),
          request.params.id,
          request.query.from,
          request.query.to,
        ),
      ),
  );

  app.post(
    R.rollback.path,
    {
      schema: {
        tags,
        summary: "Save an earlier revision's policies as a new revision (based on expectedRevision)",
        params: R.rollback.params,
        body: R.rollback.body,
        response: { 200: envelope(R.rollback.response) },
      },
    },
    async (request) =>
      ok(await service.rollbackWifi(deps, callerOf(request), request.params.id, request.body)),
  );
}
