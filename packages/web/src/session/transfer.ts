import { type GateContext, isRouteAllowed, landingPath, ROUTES } from '@beacon/protocol';

export interface TransferParams {
  token: string | null;
  projectId: number | null;
  page: string | null;
}

/** Reads ?token=&project=&page= of /static/transfer (the openapi handoff). */
export function readTransferParams(search: string): TransferParams {
  const params = new URLSearchParams(search);
  const token = params.get('token')?.trim() || null;
  const rawProject = params.get('project');
  const projectId = rawProject && /^\d+$/.test(rawProject) ? Number(rawProject) : null;
  const page = params.get('page')?.trim() || null;
  return { token, projectId, page };
}

/** The requested page if it is a route the gate allows, otherwise the landing page. */
export function transferTarget(page: string | null, ctx: GateContext): string | null {
  if (page) {
    const path = page.startsWith('/') ? page : `/${page}`;
    const route = ROUTES.find((r) => r.path === path);
    if (route && isRouteAllowed(route, ctx)) return route.path;
  }
  return landingPath(ctx);
}
