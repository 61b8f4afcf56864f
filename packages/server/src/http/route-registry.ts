import type { FastifyInstance } from 'fastify';

/** One registered route: its method and its URL pattern as Fastify holds it (e.g. /api/v1/projects/:id). */
export interface RegisteredRoute {
  method: string;
  url: string;
}

const registries = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/**
 * Records every route registered on `app` from now on (call it before any route is added).
 * Tests read the table to prove that every project-scoped route is covered by the permission
 * contract suite (test/contract/).
 */
export function recordRoutes(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  registries.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
}

/** The routes recorded on `app` by recordRoutes (empty when it was not called). */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return registries.get(app) ?? [];
}
