import { API_PREFIX, apiKeyMayCall, isWriteMethod } from '@beacon/protocol';
import type { SwaggerTransform } from '@fastify/swagger';

/** What an API key may do with a route, as the OpenAPI document states it (x-beacon-api-key). */
export type ApiKeyUse = 'read' | 'read-write' | 'none';

export function apiKeyUse(method: string, url: string): ApiKeyUse {
  if (!apiKeyMayCall(method, url)) return 'none';
  return isWriteMethod(method) ? 'read-write' : 'read';
}

const NOTE: Record<ApiKeyUse, string> = {
  read: 'API keys: any key (read-only or read-write) may call this route.',
  'read-write': 'API keys: read-write keys only; a read-only key answers 5440.',
  none: 'Web console only: an API key answers 5090.',
};

/**
 * Wraps the zod transform so that every operation of /api/openapi.json says whether an API key may
 * call it (protocol `apiKeyMayCall`, the same table the access gate reads; docs/decisions/0058): the
 * `x-beacon-api-key` extension, the `security` schemes it accepts and a sentence in its description.
 */
export function apiKeyDocTransform<S extends Parameters<SwaggerTransform>[0]['schema']>(
  inner: SwaggerTransform<S>,
): SwaggerTransform<S> {
  return (args) => {
    const out = inner(args);
    if (!args.url.startsWith(API_PREFIX)) return out;
    const method = [args.route.method].flat()[0] ?? 'GET';
    const use = apiKeyUse(method, args.url);
    const schema = out.schema as Record<string, unknown>;
    const description = typeof schema.description === 'string' ? `${schema.description}\n\n` : '';
    return {
      ...out,
      schema: {
        ...schema,
        description: `${description}${NOTE[use]}`,
        security: (use === 'none' ? [{ cookie: [] }] : [{ cookie: [] }, { bearer: [] }]) as Record<
          string,
          string[]
        >[],
        'x-beacon-api-key': use,
      },
    };
  };
}
