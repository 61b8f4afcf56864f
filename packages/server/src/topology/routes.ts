import { ok as envelope, TOPOLOGY_ROUTES as R } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './service.ts';

const tags = ['topology'];

/** /api/v1/projects/{id}/topology: the network topology (issue 13, decision 0050). */
export async function topologyRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    R.get.path,
    {
      schema: {
        tags,
        summary:
          'The topology the devices report: devices, neighbours not in the project, unmanaged segments, the internet link; loops kept',
        params: R.get.params,
        response: { 200: envelope(R.get.response) },
      },
    },
    async (request) => ok(await service.getTopology(deps, callerOf(request), request.params.id)),
  );

  app.put(
    R.setType.path,
    {
      schema: {
        tags,
        summary: "Set a node's topology device-type code (1 to 12), or -1 to show it as reported again",
        params: R.setType.params,
        body: R.setType.body,
        response: { 200: envelope(R.setType.response) },
      },
    },
    async (request) =>
      ok(await service.setNodeType(deps, callerOf(request), request.params.id, request.body)),
  );
}
