import {
  AppError,
  Codes,
  ok as envelope,
  PLAN_IMAGE_LIMITS,
  PLAN_TOO_LARGE_REASON,
  uploadFailure,
  WIFI_MAP_ROUTES,
} from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import { readOneFile } from '../http/upload.ts';
import { planImageStream } from './image.ts';
import * as service from './service.ts';

const tags = ['wifi-map'];
const R = WIFI_MAP_ROUTES;

const refusal = (reason: string) => {
  const f = uploadFailure(reason);
  return new AppError(f.code, f.message, f.fields);
};

/** /api/v1/projects/{id}/wifi-map…: floor plans, walls and AP positions (SPEC.md §2 /manage/visualization/td). */
export async function wifiMapRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    R.get.path,
    {
      schema: {
        tags,
        summary:
          'The floor plans of the project (without their images) and its APs with the channel, power and clients they report',
        params: R.get.params,
        response: { 200: envelope(R.get.response) },
      },
    },
    async (request) => ok(await service.getMap(deps, callerOf(request), request.params.id)),
  );

  app.post(
    R.upload.path,
    {
      schema: {
        tags,
        summary:
          'Upload a floor plan (multipart field `file`: PNG or JPEG up to 10 MB, 10,000 px a side, 40 megapixels; checked by its header before it is stored, else 79 with the reason); at most 20 per project (5390)',
        params: R.upload.params,
        querystring: R.upload.query,
        consumes: ['multipart/form-data'],
        response: { 200: envelope(R.upload.response) },
      },
    },
    async (request) => {
      const who = callerOf(request);
      const projectId = request.params.id;
      await service.requirePlanWriter(deps, who, projectId);
      let bytes: Buffer;
      try {
        ({ bytes } = await readOneFile(request, {
          maxBytes: PLAN_IMAGE_LIMITS.MAX_BYTES,
          tooLarge: () => refusal(PLAN_TOO_LARGE_REASON),
          choose: 'Choose a PNG or JPEG floor plan',
        }));
      } catch (err) {
        if (err instanceof AppError && err.code === Codes.FILE) throw refusal('the file is empty');
        throw err;
      }
      return ok(await service.uploadPlan(deps, who, projectId, { bytes, name: request.query.name }));
    },
  );

  app.put(
    R.save.path,
    {
      schema: {
        tags,
        summary:
          'Save a floor plan as the editor has it: name, scale line, walls with their material, AP positions (image pixels; 5393 off the image, 5392 not an AP of the project, 5391 placed on another plan)',
        params: R.save.params,
        body: R.save.body,
        response: { 200: envelope(R.save.response) },
      },
    },
    async (request) =>
      ok(
        await service.savePlan(
          deps,
          callerOf(request),
          request.params.id,
          request.params.planId,
          request.body,
        ),
      ),
  );

  app.delete(
    R.remove.path,
    {
      schema: {
        tags,
        summary: 'Delete a floor plan with its image, walls and AP positions',
        params: R.remove.params,
        response: { 200: envelope(R.remove.response) },
      },
    },
    async (request) =>
      ok(await service.removePlan(deps, callerOf(request), request.params.id, request.params.planId)),
  );

  app.get(
    R.image.path,
    {
      schema: {
        tags,
        summary: 'The floor plan image, streamed; its SHA-256 in the x-checksum-sha256 header and the ETag',
        params: R.image.params,
        querystring: R.image.query,
        produces: ['image/png', 'image/jpeg'],
      },
    },
    async (request, reply) => {
      const plan = await service.planForImage(
        deps,
        callerOf(request),
        request.params.id,
        request.params.planId,
      );
      const etag = `"plan-${plan.checksum}"`;
      reply
        .header('x-content-type-options', 'nosniff')
        .header('etag', etag)
        .header(
          'cache-control',
          request.query.v && plan.checksum.startsWith(request.query.v)
            ? 'private, max-age=31536000, immutable'
            : 'private, no-cache',
        );
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply
        .header('content-type', plan.mime)
        .header('content-length', String(plan.size))
        .header('x-checksum-sha256', plan.checksum)
        .header('content-disposition', 'inline')
        .send(planImageStream(deps.database, plan));
    },
  );
}
