import { ok as envelope, MODEL_ROUTES as R } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './service.ts';

const tags = ['models'];

/** /api/v1/models…: the cloud-managed model list (docs/decisions/0055). */
export async function modelRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    R.list.path,
    {
      schema: {
        tags,
        summary: 'Every model the console manages, with type, capabilities and image; searchable',
        querystring: R.list.query,
        response: { 200: envelope(R.list.response) },
      },
    },
    async (request) => {
      callerOf(request);
      return ok(await service.listModels(deps, request.query));
    },
  );
  app.post(
    R.upload.path,
    {
      schema: {
        tags,
        summary: 'Upload a model (manufacturer accounts); an existing model answers 5021',
        body: R.upload.body,
        response: { 200: envelope(R.upload.response) },
      },
    },
    async (request) => ok(await service.uploadModel(deps, callerOf(request), request.body)),
  );
  app.get(
    R.image.path,
    {
      schema: {
        tags,
        summary: "The model's image (SVG)",
        params: R.image.params,
        produces: ['image/svg+xml'],
      },
    },
    async (request, reply) => {
      callerOf(request);
      const svg = await service.modelImage(deps, request.params.model);
      return reply
        .header('content-type', 'image/svg+xml; charset=utf-8')
        .header('cache-control', 'private, max-age=3600')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(svg);
    },
  );
}
