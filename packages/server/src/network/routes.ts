import { ok as envelope, NETWORK_ROUTES as R } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './service.ts';

const tags = ['network'];

/** /api/v1/projects/{id}/network: the project's network configuration as revisions (issue 10). */
export async function networkRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    R.get.path,
    {
      schema: {
        tags,
        summary:
          "The project's latest network configuration (secrets as ********), its devices and how many are pending, applied or failed",
        params: R.get.params,
        response: { 200: envelope(R.get.response) },
      },
    },
    async (request) => ok(await service.getNetwork(deps, callerOf(request), request.params.id)),
  );

  app.put(
    R.save.path,
    {
      schema: {
        tags,
        summary:
          'Save a new revision based on expectedRevision (5120 when another was saved since), validated with the SPEC.md §5 rules and compiled into every affected device',
        params: R.save.params,
        body: R.save.body,
        response: { 200: envelope(R.save.response) },
      },
    },
    async (request) =>
      ok(await service.saveNetwork(deps, callerOf(request), request.params.id, request.body)),
  );

  app.post(
    R.preview.path,
    {
      schema: {
        tags,
        summary: 'Which devices a document would change (validated like a save; nothing is saved)',
        params: R.preview.params,
        body: R.preview.body,
        response: { 200: envelope(R.preview.response) },
      },
    },
    async (request) =>
      ok(await service.previewNetwork(deps, callerOf(request), request.params.id, request.body)),
  );

  app.get(
    R.revisions.path,
    {
      schema: {
        tags,
        summary: "The network configuration's revisions, newest first",
        params: R.revisions.params,
        querystring: R.revisions.query,
        response: { 200: envelope(R.revisions.response) },
      },
    },
    async (request) =>
      ok(await service.listNetworkRevisions(deps, callerOf(request), request.params.id, request.query)),
  );

  app.get(
    R.diff.path,
    {
      schema: {
        tags,
        summary: 'What changed from one network revision to another, leaf by leaf',
        params: R.diff.params,
        querystring: R.diff.query,
        response: { 200: envelope(R.diff.response) },
      },
    },
    async (request) =>
      ok(
        await service.diffNetwork(
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
        summary: "Save an earlier revision's document as a new revision (based on expectedRevision)",
        params: R.rollback.params,
        body: R.rollback.body,
        response: { 200: envelope(R.rollback.response) },
      },
    },
    async (request) =>
      ok(await service.rollbackNetwork(deps, callerOf(request), request.params.id, request.body)),
  );

  app.get(
    R.routeTable.path,
    {
      schema: {
        tags,
        summary: 'The routes the gateway runs, asked of the device (route-table command), not our database',
        params: R.routeTable.params,
        response: { 200: envelope(R.routeTable.response) },
      },
    },
    async (request) => ok(await service.routeTable(deps, callerOf(request), request.params.id)),
  );
}
