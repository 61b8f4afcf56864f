import { ok as envelope, LOG_ROUTES } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import { downloadLog } from './download.ts';
import * as service from './service.ts';

const tags = ['logs'];

/** /api/v1/projects/{id}/logs/…: the Log screen (SPEC.md §2 /manage/runlog, docs/decisions/0036). */
export async function logRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    LOG_ROUTES.deviceLogs.path,
    {
      schema: {
        tags,
        summary:
          'Events the devices of the project reported, newest first: filters by time, device, type, level',
        params: LOG_ROUTES.deviceLogs.params,
        querystring: LOG_ROUTES.deviceLogs.query,
        response: { 200: envelope(LOG_ROUTES.deviceLogs.response) },
      },
    },
    async (request) =>
      ok(await service.listDeviceLogs(deps, callerOf(request), request.params.id, request.query)),
  );

  app.get(
    LOG_ROUTES.auditLogs.path,
    {
      schema: {
        tags,
        summary:
          "The project's audit log (who, what, when, before and after), newest first: filters by time, entity, action",
        params: LOG_ROUTES.auditLogs.params,
        querystring: LOG_ROUTES.auditLogs.query,
        response: { 200: envelope(LOG_ROUTES.auditLogs.response) },
      },
    },
    async (request) =>
      ok(await service.listAuditLogs(deps, callerOf(request), request.params.id, request.query)),
  );

  for (const [kind, route] of [
    ['device', LOG_ROUTES.deviceLogDownload],
    ['audit', LOG_ROUTES.auditLogDownload],
  ] as const) {
    app.get(
      route.path,
      {
        schema: {
          tags,
          summary: `The ${kind} log as a CSV or xlsx file (at most 50,000 rows, newest first), streamed`,
          params: route.params,
          querystring: route.query,
          produces: ['text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        await service.checkLogReadable(deps, callerOf(request), id);
        const file = downloadLog(deps.database, kind, id, request.query, deps.now());
        return reply
          .header('content-type', file.contentType)
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('cache-control', 'no-store')
          .send(file.body);
      },
    );
  }

  app.get(
    LOG_ROUTES.getSettings.path,
    {
      schema: {
        tags,
        summary: "The project's log retention (7, 30, 90 or 180 days) and the download limit",
        params: LOG_ROUTES.getSettings.params,
        response: { 200: envelope(LOG_ROUTES.getSettings.response) },
      },
    },
    async (request) => ok(await service.getLogSettings(deps, callerOf(request), request.params.id)),
  );

  app.put(
    LOG_ROUTES.putSettings.path,
    {
      schema: {
        tags,
        summary: "Choose the project's log retention: 7, 30, 90 or 180 days",
        params: LOG_ROUTES.putSettings.params,
        body: LOG_ROUTES.putSettings.body,
        response: { 200: envelope(LOG_ROUTES.putSettings.response) },
      },
    },
    async (request) =>
      ok(await service.putLogSettings(deps, callerOf(request), request.params.id, request.body)),
  );
}
