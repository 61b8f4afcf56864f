import { z } from 'zod';
import { Paged, PageQuery } from './envelope.ts';
import { ProjectParams } from './ids.ts';
import {
  AuditView,
  CreateProjectBody,
  ProjectListItem,
  ProjectListQuery,
  ProjectView,
  UpdateProjectBody,
} from './projects.ts';
import type { RouteContract } from './route-contract.ts';

/** What deleting a project answers: the id it had. */
export const DeletedProjectView = z.object({ id: z.number().int() });

/** The project list, a project itself and its audit trail (server projects/, web features/projects). */
export const PROJECT_ROUTES = {
  list: { method: 'GET', path: '/projects', query: ProjectListQuery, response: Paged(ProjectListItem) },
  create: { method: 'POST', path: '/projects', body: CreateProjectBody, response: ProjectView },
  get: { method: 'GET', path: '/projects/:id', params: ProjectParams, response: ProjectView },
  update: {
    method: 'PATCH',
    path: '/projects/:id',
    params: ProjectParams,
    body: UpdateProjectBody,
    response: ProjectView,
  },
  remove: { method: 'DELETE', path: '/projects/:id', params: ProjectParams, response: DeletedProjectView },
  auditLog: {
    method: 'GET',
    path: '/projects/:id/logs',
    params: ProjectParams,
    query: PageQuery,
    response: Paged(AuditView),
  },
} as const satisfies Record<string, RouteContract>;
