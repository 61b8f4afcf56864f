import type { z } from 'zod';

/** Where every route of a contract table lives: `path` is relative to it. */
export const API_PREFIX = '/api/v1';

/**
 * What a route answers when it is not the JSON envelope: a file or an image (`file`), a WebSocket
 * (`websocket`), a device's page through the remote-management proxy (`proxy`) or a JSON document
 * of its own (`document`, the OpenAPI description).
 */
export type RawAnswer = 'file' | 'websocket' | 'proxy' | 'document';

/**
 * One HTTP route as both sides see it: the server registers it with these schemas (fastify-type-
 * provider-zod) and the web client takes its path and its types from the same entry, so a path or
 * a response shape cannot drift between them. `path` is relative to /api/v1, with `:name` params.
 * Every /api/v1 route is an entry of a `*_ROUTES` table exported from the protocol index
 * (docs/decisions/0040-every-route-a-contract-entry.md; the server's route-contract test checks it).
 */
export interface RouteContract {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The `data` of the success envelope (absent only for a `raw` route). */
  response?: z.ZodType;
  /** Set (instead of `response`) when the route does not answer the JSON envelope. */
  raw?: RawAnswer;
}

/** What a route answers (inside the envelope). */
export type RouteResponse<R extends RouteContract> = R['response'] extends z.ZodType
  ? z.output<R['response']>
  : never;
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

/** The route's absolute path below the host: /api/v1 and routePath (links, images, WebSockets). */
export function routeUrl(
  route: Pick<RouteContract, 'path'>,
  params: Record<string, string | number> = {},
): string {
  return `${API_PREFIX}${routePath(route, params)}`;
}
