import { ok as envelope, TEAM_ROUTES } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import { createTeamService } from './service.ts';

const tags = ['account'];
const R = TEAM_ROUTES;

/** Account management (subordinate accounts) and the device-joining alert: /api/v1/account/… */
export async function teamRoutes(app: App, deps: Deps): Promise<void> {
  const service = createTeamService(deps);

  app.get(
    R.list.path,
    {
      schema: {
        tags,
        summary: 'Subordinate accounts and the projects given to them',
        response: { 200: envelope(R.list.response) },
      },
    },
    async (request) => ok(await service.list(callerOf(request))),
  );

  app.post(
    R.create.path,
    {
      schema: {
        tags,
        summary:
          'Create a subordinate account (email, nick, role code, level); it is mailed a set-your-password link',
        body: R.create.body,
        response: { 200: envelope(R.create.response) },
      },
    },
    async (request) => ok(await service.create(callerOf(request), request.body)),
  );

  app.patch(
    R.update.path,
    {
      schema: {
        tags,
        summary: 'Change a subordinate account (nick, role code, level)',
        params: R.update.params,
        body: R.update.body,
        response: { 200: envelope(R.update.response) },
      },
    },
    async (request) => ok(await service.update(callerOf(request), request.params.id, request.body)),
  );

  app.post(
    R.resendInvitation.path,
    {
      schema: {
        tags,
        summary: 'Mail a new set-your-password link to a subordinate account that has no password yet',
        params: R.resendInvitation.params,
        response: { 200: envelope(R.resendInvitation.response) },
      },
    },
    async (request) => ok(await service.resendInvitation(callerOf(request), request.params.id)),
  );

  app.delete(
    R.remove.path,
    {
      schema: {
        tags,
        summary: 'Delete a subordinate account',
        params: R.remove.params,
        response: { 200: envelope(R.remove.response) },
      },
    },
    async (request) => {
      await service.remove(callerOf(request), request.params.id);
      return ok(null);
    },
  );

  app.post(
    R.grant.path,
    {
      schema: {
        tags,
        summary: 'Give one of your projects to a subordinate account, read-only or read-write',
        params: R.grant.params,
        body: R.grant.body,
        response: { 200: envelope(R.grant.response) },
      },
    },
    async (request) => ok(await service.grant(callerOf(request), request.params.id, request.body)),
  );

  app.delete(
    R.revoke.path,
    {
      schema: {
        tags,
        summary: 'Take a project back from a subordinate account',
        params: R.revoke.params,
        response: { 200: envelope(R.revoke.response) },
      },
    },
    async (request) =>
      ok(await service.revoke(callerOf(request), request.params.id, request.params.projectId)),
  );

  app.get(
    R.joinedDevices.path,
    {
      schema: {
        tags,
        summary:
          'Devices of your projects that came online for the first time since the alert was last shown',
        response: { 200: envelope(R.joinedDevices.response) },
      },
    },
    async (request) => ok(await service.joinedDevices(callerOf(request))),
  );

  app.post(
    R.seenJoinedDevices.path,
    {
      schema: {
        tags,
        summary: 'The device-joining alert was shown up to `through`',
        body: R.seenJoinedDevices.body,
        response: { 200: envelope(R.seenJoinedDevices.response) },
      },
    },
    async (request) => {
      await service.seenJoinedDevices(callerOf(request), request.body);
      return ok(null);
    },
  );
}
