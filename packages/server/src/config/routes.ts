import {
  ConfigDeviceParams,
  ConfigDeviceRevisionParams,
  ConfigDiffQuery,
  ConfigDiffView,
  ConfigRevisionDetail,
  ConfigRevisionList,
  ConfigRevisionParams,
  ConfigRevisionQuery,
  DeviceConfigView,
  ok as envelope,
  ProjectConfigView,
  ProjectParams,
  RollbackConfigBody,
  SaveDeviceConfigBody,
} from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './service.ts';

const tags = ['configuration'];

/** A device's desired configuration as revisions: read, save, list, compare, roll back (signed in). */
export async function configRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    '/projects/:id/devices/:sn/config',
    {
      schema: {
        tags,
        summary:
          "The device's latest desired configuration (secrets as ********), its status and what it reports",
        params: ConfigDeviceParams,
        response: { 200: envelope(DeviceConfigView) },
      },
    },
    async (request) =>
      ok(await service.getDeviceConfig(deps, callerOf(request), request.params.id, request.params.sn)),
  );

  app.put(
    '/projects/:id/devices/:sn/config',
    {
      schema: {
        tags,
        summary:
          'Save a new revision based on expectedRevision (5120 when another was saved since); "********" keeps a stored secret. The device gets it when it can.',
        params: ConfigDeviceParams,
        body: SaveDeviceConfigBody,
        response: { 200: envelope(DeviceConfigView) },
      },
    },
    async (request) =>
      ok(
        await service.saveDeviceConfig(
          deps,
          callerOf(request),
          request.params.id,
          request.params.sn,
          request.body,
        ),
      ),
  );

  app.get(
    '/projects/:id/devices/:sn/config/revisions',
    {
      schema: {
        tags,
        summary: "The device's configuration revisions in this project, newest first",
        params: ConfigDeviceParams,
        querystring: ConfigRevisionQuery,
        response: { 200: envelope(ConfigRevisionList) },
      },
    },
    async (request) =>
      ok(
        await service.listRevisions(
          deps,
          callerOf(request),
          request.params.id,
          request.params.sn,
          request.query,
        ),
      ),
  );

  app.get(
    '/projects/:id/devices/:sn/config/revisions/:revision',
    {
      schema: {
        tags,
        summary: 'One revision with its document (secrets as ********)',
        params: ConfigDeviceRevisionParams,
        response: { 200: envelope(ConfigRevisionDetail) },
      },
    },
    async (request) =>
      ok(
        await service.getRevision(
          deps,
          callerOf(request),
          request.params.id,
          request.params.sn,
          request.params.revision,
        ),
      ),
  );

  app.get(
    '/projects/:id/devices/:sn/config/diff',
    {
      schema: {
        tags,
        summary: 'What changed from one revision to another, leaf by leaf',
        params: ConfigDeviceParams,
        querystring: ConfigDiffQuery,
        response: { 200: envelope(ConfigDiffView) },
      },
    },
    async (request) =>
      ok(
        await service.diffRevisions(
          deps,
          callerOf(request),
          request.params.id,
          request.params.sn,
          request.query.from,
          request.query.to,
        ),
      ),
  );

  app.post(
    '/projects/:id/devices/:sn/config/rollback',
    {
      schema: {
        tags,
        summary:
          "Save an earlier revision's document as a new revision (based on expectedRevision, 5120 otherwise)",
        params: ConfigDeviceParams,
        body: RollbackConfigBody,
        response: { 200: envelope(DeviceConfigView) },
      },
    },
    async (request) =>
      ok(
        await service.rollbackDeviceConfig(
          deps,
          callerOf(request),
          request.params.id,
          request.params.sn,
          request.body,
        ),
      ),
  );

  // The project's own configuration (settings for the whole project).
  app.get(
    '/projects/:id/config',
    {
      schema: {
        tags,
        summary: "The project's own latest configuration revision (secrets as ********)",
        params: ProjectParams,
        response: { 200: envelope(ProjectConfigView) },
      },
    },
    async (request) => ok(await service.getProjectConfig(deps, callerOf(request), request.params.id)),
  );

  app.put(
    '/projects/:id/config',
    {
      schema: {
        tags,
        summary:
          "Save a new revision of the project's own configuration based on expectedRevision (5120 otherwise)",
        params: ProjectParams,
        body: SaveDeviceConfigBody,
        response: { 200: envelope(ProjectConfigView) },
      },
    },
    async (request) =>
      ok(await service.saveProjectConfig(deps, callerOf(request), request.params.id, request.body)),
  );

  app.get(
    '/projects/:id/config/revisions',
    {
      schema: {
        tags,
        summary: "The project's own configuration revisions, newest first",
        params: ProjectParams,
        querystring: ConfigRevisionQuery,
        response: { 200: envelope(ConfigRevisionList) },
      },
    },
    async (request) =>
      ok(await service.listRevisions(deps, callerOf(request), request.params.id, null, request.query)),
  );

  app.get(
    '/projects/:id/config/revisions/:revision',
    {
      schema: {
        tags,
        summary: "One of the project's own revisions with its document (secrets as ********)",
        params: ConfigRevisionParams,
        response: { 200: envelope(ConfigRevisionDetail) },
      },
    },
    async (request) =>
      ok(
        await service.getRevision(deps, callerOf(request), request.params.id, null, request.params.revision),
      ),
  );

  app.get(
    '/projects/:id/config/diff',
    {
      schema: {
        tags,
        summary: "What changed from one of the project's own revisions to another",
        params: ProjectParams,
        querystring: ConfigDiffQuery,
        response: { 200: envelope(ConfigDiffView) },
      },
    },
    async (request) =>
      ok(
        await service.diffRevisions(
          deps,
          callerOf(request),
          request.params.id,
          null,
          request.query.from,
          request.query.to,
        ),
      ),
  );

  app.post(
    '/projects/:id/config/rollback',
    {
      schema: {
        tags,
        summary: "Save an earlier revision of the project's own configuration as a new one",
        params: ProjectParams,
        body: RollbackConfigBody,
        response: { 200: envelope(ProjectConfigView) },
      },
    },
    async (request) =>
      ok(await service.rollbackProjectConfig(deps, callerOf(request), request.params.id, request.body)),
  );
}
