import { ALARM_ROUTES, ok as envelope } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import { DEV_SECRET_KEY, Secrets } from '../security/secrets.ts';
import * as service from './service.ts';

const tags = ['alarms'];

/** /api/v1/projects/{id}/alarms…: SPEC.md §2 /manage/alarminfo (docs/alarms.md). */
export async function alarmRoutes(app: App, base: Deps): Promise<void> {
  const deps: service.AlarmDeps = { ...base, secrets: new Secrets(base.config.secretKey ?? DEV_SECRET_KEY) };
  const R = ALARM_ROUTES;

  app.get(
    R.list.path,
    {
      schema: {
        tags,
        summary: "The project's alarms, newest first: filters by time, kind, device and read state; pages",
        params: R.list.params,
        querystring: R.list.query,
        response: { 200: envelope(R.list.response) },
      },
    },
    async (request) =>
      ok(await service.listAlarms(deps, callerOf(request), request.params.id, request.query)),
  );

  app.get(
    R.unread.path,
    {
      schema: {
        tags,
        summary: 'How many alarms of the project are unread (state 0)',
        params: R.unread.params,
        response: { 200: envelope(R.unread.response) },
      },
    },
    async (request) => ok(await service.unreadCount(deps, callerOf(request), request.params.id)),
  );

  app.post(
    R.markRead.path,
    {
      schema: {
        tags,
        summary: 'Mark alarms read (state 1)',
        params: R.markRead.params,
        body: R.markRead.body,
        response: { 200: envelope(R.markRead.response) },
      },
    },
    async (request) =>
      ok(await service.markRead(deps, callerOf(request), request.params.id, request.body, false)),
  );

  app.post(
    R.markAllRead.path,
    {
      schema: {
        tags,
        summary: "Mark all of the project's alarms read",
        params: R.markAllRead.params,
        body: R.markAllRead.body,
        response: { 200: envelope(R.markAllRead.response) },
      },
    },
    async (request) =>
      ok(await service.markRead(deps, callerOf(request), request.params.id, request.body, true)),
  );

  app.get(
    R.settings.path,
    {
      schema: {
        tags,
        summary: 'Alarm delivery (email, webhook) and rule thresholds of the project',
        params: R.settings.params,
        response: { 200: envelope(R.settings.response) },
      },
    },
    async (request) => ok(await service.getSettings(deps, callerOf(request), request.params.id)),
  );

  app.put(
    R.saveSettings.path,
    {
      schema: {
        tags,
        summary: 'Save alarm delivery and thresholds (the webhook secret is kept when omitted)',
        params: R.saveSettings.params,
        body: R.saveSettings.body,
        response: { 200: envelope(R.saveSettings.response) },
      },
    },
    async (request) =>
      ok(await service.saveSettings(deps, callerOf(request), request.params.id, request.body)),
  );

  app.get(
    R.deliveries.path,
    {
      schema: {
        tags,
        summary: 'Alarm deliveries and their outcome, newest first',
        params: R.deliveries.params,
        querystring: R.deliveries.query,
        response: { 200: envelope(R.deliveries.response) },
      },
    },
    async (request) =>
      ok(await service.listDeliveries(deps, callerOf(request), request.params.id, request.query)),
  );

  app.get(
    R.windows.path,
    {
      schema: {
        tags,
        summary: 'Maintenance windows that have not ended',
        params: R.windows.params,
        response: { 200: envelope(R.windows.response) },
      },
    },
    async (request) => ok(await service.listWindows(deps, callerOf(request), request.params.id)),
  );

  app.post(
    R.addWindow.path,
    {
      schema: {
        tags,
        summary: 'Add a maintenance window: its devices raise no alarm between start and end',
        params: R.addWindow.params,
        body: R.addWindow.body,
        response: { 200: envelope(R.addWindow.response) },
      },
    },
    async (request) => ok(await service.addWindow(deps, callerOf(request), request.params.id, request.body)),
  );

  app.delete(
    R.removeWindow.path,
    {
      schema: {
        tags,
        summary: 'Delete a maintenance window',
        params: R.removeWindow.params,
        response: { 200: envelope(R.removeWindow.response) },
      },
    },
    async (request) =>
      ok(await service.removeWindow(deps, callerOf(request), request.params.id, request.params.windowId)),
  );
}
