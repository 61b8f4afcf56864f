import {
  CreateInviteBody,
  CreateShareBody,
  ok as envelope,
  IdParam,
  InviteCodeParams,
  InvitePreview,
  InviteView,
  OfferList,
  OfferParams,
  ProjectIdView,
  ProjectParams,
  ShareList,
  ShareView,
  TransferBody,
  TransferView,
  UpdateShareBody,
} from '@beacon/protocol';
import { z } from 'zod';
import { webOnly } from '../accounts/web-only.ts';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './service.ts';

const ShareParams = ProjectParams.extend({ accountId: IdParam });
const tags = ['sharing'];

/**
 * Sharing a project, invitations and transfer of permission (SPEC.md §3 Share record, §4, §6).
 * Web-only (SPEC.md §2 /manage/authority): an API key answers 5090 on every one of these routes.
 */
export async function sharingRoutes(parent: App, deps: Deps): Promise<void> {
  await parent.register(async (child) => {
    const app = child as App;
    app.addHook('onRequest', webOnly);
    await routes(app, deps);
  });
}

async function routes(app: App, deps: Deps): Promise<void> {
  app.get(
    '/projects/:id/shares',
    {
      schema: {
        tags,
        summary: "The project's share records (everyone who can see the project)",
        params: ProjectParams,
        response: { 200: envelope(ShareList) },
      },
    },
    async (request) => ok(await service.listShares(deps, callerOf(request), request.params.id)),
  );

  app.post(
    '/projects/:id/shares',
    {
      schema: {
        tags,
        summary:
          'Offer a share to an account or cloud id (owner only); it takes effect when the account accepts it at /offers',
        params: ProjectParams,
        body: CreateShareBody,
        response: { 200: envelope(ShareView) },
      },
    },
    async (request) =>
      ok(await service.createShare(deps, callerOf(request), request.params.id, request.body)),
  );

  app.patch(
    '/projects/:id/shares/:accountId',
    {
      schema: {
        tags,
        summary: 'Change the permission or validity of a share (owner only)',
        params: ShareParams,
        body: UpdateShareBody,
        response: { 200: envelope(ShareView) },
      },
    },
    async (request) =>
      ok(
        await service.updateShare(
          deps,
          callerOf(request),
          request.params.id,
          request.params.accountId,
          request.body,
        ),
      ),
  );

  app.delete(
    '/projects/:id/shares/:accountId',
    {
      schema: {
        tags,
        summary: 'Delete a share, or withdraw a share offer (owner only)',
        params: ShareParams,
        response: { 200: envelope(z.object({ accountId: z.number().int() })) },
      },
    },
    async (request) =>
      ok(await service.deleteShare(deps, callerOf(request), request.params.id, request.params.accountId)),
  );

  app.post(
    '/projects/:id/unbind',
    {
      schema: {
        tags,
        summary: 'Leave a project shared with you',
        params: ProjectParams,
        response: { 200: envelope(ProjectIdView) },
      },
    },
    async (request) => ok(await service.unbind(deps, callerOf(request), request.params.id)),
  );

  app.post(
    '/projects/:id/invites',
    {
      schema: {
        tags,
        summary: 'Create an expiring, single-use invite code (owner only); the code is shown once',
        params: ProjectParams,
        body: CreateInviteBody,
        response: { 200: envelope(InviteView) },
      },
    },
    async (request) =>
      ok(await service.createInvite(deps, callerOf(request), request.params.id, request.body)),
  );

  app.post(
    '/projects/:id/transfer',
    {
      schema: {
        tags,
        summary:
          'Offer the project to another account; it changes owner (and leaves your list) when that account accepts',
        params: ProjectParams,
        body: TransferBody,
        response: { 200: envelope(TransferView) },
      },
    },
    async (request) => ok(await service.transfer(deps, callerOf(request), request.params.id, request.body)),
  );

  app.delete(
    '/projects/:id/transfer',
    {
      schema: {
        tags,
        summary: 'Withdraw a transfer not yet accepted (owner only)',
        params: ProjectParams,
        response: { 200: envelope(ProjectIdView) },
      },
    },
    async (request) => ok(await service.cancelTransfer(deps, callerOf(request), request.params.id)),
  );

  app.get(
    '/offers',
    {
      schema: {
        tags,
        summary: 'Shares and transfers offered to your account, waiting for your answer',
        response: { 200: envelope(OfferList) },
      },
    },
    async (request) => ok(await service.listOffers(deps, callerOf(request))),
  );

  app.post(
    '/offers/:kind/:projectId/accept',
    {
      schema: {
        tags,
        summary: 'Accept a share or a transfer offered to your account (limits are counted now)',
        params: OfferParams,
        response: { 200: envelope(z.union([TransferView, ProjectIdView])) },
      },
    },
    async (request) => {
      const { kind, projectId } = request.params;
      const who = callerOf(request);
      return ok(
        kind === 'share'
          ? await service.acceptShareOffer(deps, who, projectId)
          : await service.acceptTransfer(deps, who, projectId),
      );
    },
  );

  app.post(
    '/offers/:kind/:projectId/decline',
    {
      schema: {
        tags,
        summary: 'Decline a share or a transfer offered to your account',
        params: OfferParams,
        response: { 200: envelope(ProjectIdView) },
      },
    },
    async (request) => {
      const { kind, projectId } = request.params;
      const who = callerOf(request);
      return ok(
        kind === 'share'
          ? await service.declineShareOffer(deps, who, projectId)
          : await service.declineTransfer(deps, who, projectId),
      );
    },
  );

  app.get(
    '/invites/:code',
    {
      schema: {
        tags,
        summary: 'What an invite code offers (64 when expired or used)',
        params: InviteCodeParams,
        response: { 200: envelope(InvitePreview) },
      },
    },
    async (request) => ok(await service.previewInvite(deps, callerOf(request), request.params.code)),
  );

  app.post(
    '/invites/:code/accept',
    {
      schema: {
        tags,
        summary: 'Accept an invitation: a read-only share from now (SPEC.md §6)',
        params: InviteCodeParams,
        response: { 200: envelope(ProjectIdView) },
      },
    },
    async (request) => ok(await service.acceptInvite(deps, callerOf(request), request.params.code)),
  );
}
