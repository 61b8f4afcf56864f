import { actionBodiesOpenApi, DEVICE_ROUTES } from '@beacon/protocol';

/** OpenAPI path of a route: `/projects/:id/x` → `/api/v1/projects/{id}/x`. */
const openApiPath = (path: string) => `/api/v1${path.replace(/:(\w+)/g, '{$1}')}`;

type Doc = { paths?: Record<string, Record<string, { requestBody?: Record<string, unknown> }>> };

/**
 * @fastify/swagger's transformObject: the single action's body, and the bulk form's `params`, become
 * one schema per action (actionBodiesOpenApi) instead of "any object".
 */
export function documentActionBodies(input: { openapiObject?: unknown; swaggerObject?: unknown }) {
  const doc = (input.openapiObject ?? input.swaggerObject) as Doc;
  const bodies = actionBodiesOpenApi();
  const single = doc.paths?.[openApiPath(DEVICE_ROUTES.action.path)]?.post;
  if (single) {
    single.requestBody = {
      required: false,
      content: { 'application/json': { schema: bodies } },
    };
  }
  const bulk = doc.paths?.[openApiPath(DEVICE_ROUTES.bulk.path)]?.post;
  const bulkSchema = (
    bulk?.requestBody as { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }
  )?.content?.['application/json']?.schema;
  if (bulkSchema?.properties) bulkSchema.properties.params = bodies;
  return doc as never;
}
