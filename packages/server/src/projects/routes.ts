import {
  AuditView,
  CreateProjectBody,
  ok as envelope,
  Paged,
  PageQuery,
  ProjectListQuery,
  ProjectParams,
  ProjectView,
  UpdateProjectBody,
} from '@beacon/protocol';
import { z } from 'zod';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './service.ts';

const tags = ['projects'];

/** /api/v1/projects: the project list and the project itself (SPEC.md §3 Project). */
export async function projectRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    '/projects',
    {
      schema: {
        tags,
        summary: 'Projects the account may see: own, shared with it, and the demo projects',
        querystring: ProjectListQuery,
        response: { 200: envelope(Paged(ProjectView)) },
      },
    },
    async (request) => ok(await service.listProjects(deps, callerOf(request), request.query)),
  );

  app.post(
    '/projects',
    {
      schema: {
        tags,
        summary: 'Create a project',
        body: CreateProjectBody,
        response: { 200: envelope(ProjectView) },
      },
    },
    async (request) => ok(await service.createProject(deps, callerOf(request), request.body)),
  );

  app.get(
    '/projects/:id',
    {
      schema: {
        tags,
        summary: 'One project',
        params: ProjectParams,
        response: { 200: envelope(ProjectView) },
      },
    },
    async (request) => ok(await service.getProject(deps, callerOf(request), request.params.id)),
  );

  app.patch(
    '/projects/:id',
    {
      schema: {
        tags,
        summary: 'Change a project (its network mode cannot change)',
        params: ProjectParams,
        body: UpdateProjectBody,
        response: { 200: envelope(ProjectView) },
      },
    },
    async (request) =>
      ok(await service.updateProject(deps, callerOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/projects/:id',
    {
      schema: {
        tags,
        summary: 'Delete a project (owner only)',
        params: ProjectParams,
        response: { 200: envelope(z.object({ id: z.number().int() })) },
      },
    },
    async (request) => ok(await service.deleteProject(deps, callerOf(request), request.params.id)),
  );

  app.get(
    '/projects/:id/logs',
    {
      schema: {
        tags,
        summary: "The project's audit trail, newest first",
        params: ProjectParams,
        querystring: PageQuery,
        response: { 200: envelope(Paged(AuditView)) },
      },
    },
    async (request) =>
      ok(await service.projectLogs(deps, callerOf(request), request.params.id, request.query)),
  );
}
