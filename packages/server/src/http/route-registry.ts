import type { FastifyInstance } from 'fastify';

/** The schema objects a route was registered with (the same objects, not copies). */
export interface RegisteredSchema {
  params?: unknown;
  querystring?: unknown;
  body?: unknown;
  response?: Record<string | number, unknown>;
}

/** One registered route: its method and its URL pattern as Fastify holds it (e.g. /api/v1/projects/:id). */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** Its schema as given to Fastify (route-contract.test.ts compares it with the route's contract entry). */
  schema?: RegisteredSchema;
  /** A WebSocket route (@fastify/websocket). */
  websocket?: boolean;
}

const registries = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/**
 * Records every route registered on `app` from now on (call it before any route is added).
 * Tests read the table to prove that every project-scoped route is covered by the permission
 * contract suite (test/contract/) and that every route is an entry of a protocol route table
 * registered with that entry's schemas (test/route-contract.test.ts).
 */
export function recordRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  registries.set(app, routes);
  app.addHook('onRoute', (route) => {
    const schema = route.schema as RegisteredSchema | undefined;
    const websocket = (route as { websocket?: boolean }).websocket === true;
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, schema, websocket });
  });
}

/** The routes recorded on `app` by recordRoutes (empty when it was not called). */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return registries.get(app) ?? [];
}
