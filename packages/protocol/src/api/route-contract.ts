import type { z } from 'zod';

/**
 * One HTTP route as both sides see it: the server registers it with these schemas (fastify-type-
 * provider-zod) and the web client takes its path and its types from the same entry, so a path or
 * a response shape cannot drift between them. `path` is relative to /api/v1, with `:name` params.
 */
export interface RouteContract {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The `data` of the success envelope. */
  response: z.ZodType;
}

/** What a route answers (inside the envelope). */
export type RouteResponse<R extends RouteContract> = z.output<R['response']>;
/** What a client sends as the route's body. */
export type RouteBody<R extends RouteContract> = R['body'] extends z.ZodType ? z.input<R['body']> : never;
/** What a client sends as the route's query string. */
export type RouteQuery<R extends RouteContract> = R['query'] extends z.ZodType
  ? Partial<z.input<R['query']>>
  : never;

/** The route's path with its `:name` params filled in (each value URI-encoded). */
export function routePath(
  route: Pick<RouteContract, 'path'>,
  params: Record<string, string | number>,
): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}
