import { ok as envelope, PROJECT_ROUTES } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './service.ts';

const tags = ['projects'];
const R = PROJECT_ROUTES;

/** /api/v1/projects: the project list and the project itself (SPEC.md §3 Project). */
export async function projectRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    R.list.path,
    {
      schema: {
        tags,
        summary: 'Projects the account may see: own, shared with it, and the demo projects',
        querystring: R.list.query,
        response: { 200: envelope(R.list.response) },
      },
    },
    async (request) =>
      ok(
        await service.listProjects(
          deps,
          callerOf(request),
          request.query,
          request.principal?.apiKey?.projectIds,
        ),
      ),
  );

  app.post(
    R.create.path,
    {
      schema: {
        tags,
        summary: 'Create a project',
        body: R.create.body,
        response: { 200: envelope(R.create.response) },
      },
    },
    async (request) => ok(await service.createProject(deps, callerOf(request), request.body)),
  );

  app.get(
    R.get.path,
    {
      schema: {
        tags,
        summary: 'One project',
        params: R.get.params,
        response: { 200: envelope(R.get.response) },
      },
    },
    async (request) => ok(await service.getProject(deps, callerOf(request), request.params.id)),
  );

  app.patch(
    R.update.path,
    {
      schema: {
        tags,
        summary: 'Change a project (its network mode cannot change)',
        params: R.update.params,
        body: R.update.body,
        response: { 200: envelope(R.update.response) },
      },
    },
    async (request) =>
      ok(await service.updateProject(deps, callerOf(request), request.params.id, request.body)),
  );

  app.delete(
    R.remove.path,
    {
      schema: {
        tags,
        summary: 'Delete a project (owner only)',
        params: R.remove.params,
        response: { 200: envelope(R.remove.response) },
      },
    },
    async (request) => ok(await service.deleteProject(deps, callerOf(request), request.params.id)),
  );

  app.get(
    R.auditLog.path,
    {
      schema: {
        tags,
        summary: "The project's audit trail, newest first",
        params: R.auditLog.params,
        querystring: R.auditLog.query,
        response: { 200: envelope(R.auditLog.response) },
      },
    },
    async (request) =>
      ok(await service.projectLogs(deps, callerOf(request), request.params.id, request.query)),
  );
}
