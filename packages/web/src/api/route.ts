import {
  type RouteBody,
  type RouteContract,
  type RouteQuery,
  type RouteResponse,
  routePath,
} from '@beacon/protocol';
import { buildQuery, type RequestOptions } from './client.ts';
import { client } from './index.ts';

/**
 * Calls a route of the protocol's route contract (e.g. DEVICE_ROUTES): the path and the answer's
 * type come from the same entry the server registers, not from a copy typed here.
 */
export function callRoute<R extends RouteContract>(
  route: R,
  params: Record<string, string | number>,
  options: { body?: RouteBody<R>; query?: RouteQuery<R> } = {},
): Promise<RouteResponse<R>> {
  return client.request<RouteResponse<R>>(route.method, routePath(route, params), {
    body: options.body,
    query: options.query as RequestOptions['query'],
  });
}

/** A multipart upload to a route of the contract (its `file` field), typed by the route's answer. */
export function uploadToRoute<R extends RouteContract>(
  route: R,
  params: Record<string, string | number>,
  form: FormData,
  query?: RouteQuery<R>,
): Promise<RouteResponse<R>> {
  return client.upload<RouteResponse<R>>(
    `${routePath(route, params)}${buildQuery(query as RequestOptions['query'])}`,
    form,
  );
}
