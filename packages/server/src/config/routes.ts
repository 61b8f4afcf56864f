import { CONFIG_ROUTES, ok as envelope } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './service.ts';

const tags = ['configuration'];
const R = CONFIG_ROUTES;

/** A device's desired configuration as revisions: read, save, list, compare, roll back (signed in). */
export async function configRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    R.deviceConfig.path,
    {
      schema: {
        tags,
        summary:
          "The device's latest desired configuration (secrets as ********), its status and what it reports",
        params: R.deviceConfig.params,
        response: { 200: envelope(R.deviceConfig.response) },
      },
    },
    async (request) =>
      ok(await service.getDeviceConfig(deps, callerOf(request), request.params.id, request.params.sn)),
  );

  app.put(
    R.saveDeviceConfig.path,
    {
      schema: {
        tags,
        summary:
          'Save a new revision based on expectedRevision (5120 when another was saved since); "********" keeps a stored secret. The device gets it when it can.',
        params: R.saveDeviceConfig.params,
        body: R.saveDeviceConfig.body,
        response: { 200: envelope(R.saveDeviceConfig.response) },
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
    R.deviceRevisions.path,
    {
      schema: {
        tags,
        summary: "The device's configuration revisions in this project, newest first",
        params: R.deviceRevisions.params,
        querystring: R.deviceRevisions.query,
        response: { 200: envelope(R.deviceRevisions.response) },
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
    R.deviceRevision.path,
    {
      schema: {
        tags,
        summary: 'One revision with its document (secrets as ********)',
        params: R.deviceRevision.params,
        response: { 200: envelope(R.deviceRevision.response) },
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
    R.deviceDiff.path,
    {
      schema: {
        tags,
        summary: 'What changed from one revision to another, leaf by leaf',
        params: R.deviceDiff.params,
        querystring: R.deviceDiff.query,
        response: { 200: envelope(R.deviceDiff.response) },
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
    R.deviceRollback.path,
    {
      schema: {
        tags,
        summary:
          "Save an earlier revision's document as a new revision (based on expectedRevision, 5120 otherwise)",
        params: R.deviceRollback.params,
        body: R.deviceRollback.body,
        response: { 200: envelope(R.deviceRollback.response) },
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
    R.projectConfig.path,
    {
      schema: {
        tags,
        summary: "The project's own latest configuration revision (secrets as ********)",
        params: R.projectConfig.params,
        response: { 200: envelope(R.projectConfig.response) },
      },
    },
    async (request) => ok(await service.getProjectConfig(deps, callerOf(request), request.params.id)),
  );

  app.put(
    R.saveProjectConfig.path,
    {
      schema: {
        tags,
        summary:
          "Save a new revision of the project's own configuration based on expectedRevision (5120 otherwise)",
        params: R.saveProjectConfig.params,
        body: R.saveProjectConfig.body,
        response: { 200: envelope(R.saveProjectConfig.response) },
      },
    },
    async (request) =>
      ok(await service.saveProjectConfig(deps, callerOf(request), request.params.id, request.body)),
  );

  app.get(
    R.projectRevisions.path,
    {
      schema: {
        tags,
        summary: "The project's own configuration revisions, newest first",
        params: R.projectRevisions.params,
        querystring: R.projectRevisions.query,
        response: { 200: envelope(R.projectRevisions.response) },
      },
    },
    async (request) =>
      ok(await service.listRevisions(deps, callerOf(request), request.params.id, null, request.query)),
  );

  app.get(
    R.projectRevision.path,
    {
      schema: {
        tags,
        summary: "One of the project's own revisions with its document (secrets as ********)",
        params: R.projectRevision.params,
        response: { 200: envelope(R.projectRevision.response) },
      },
    },
    async (request) =>
      ok(
        await service.getRevision(deps, callerOf(request), request.params.id, null, request.params.revision),
      ),
  );

  app.get(
    R.projectDiff.path,
    {
      schema: {
        tags,
        summary: "What changed from one of the project's own revisions to another",
        params: R.projectDiff.params,
        querystring: R.projectDiff.query,
        response: { 200: envelope(R.projectDiff.response) },
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
    R.projectRollback.path,
    {
      schema: {
        tags,
        summary: "Save an earlier revision of the project's own configuration as a new one",
        params: R.projectRollback.params,
        body: R.projectRollback.body,
        response: { 200: envelope(R.projectRollback.response) },
      },
    },
    async (request) =>
      ok(await service.rollbackProjectConfig(deps, callerOf(request), request.params.id, request.body)),
  );
}
