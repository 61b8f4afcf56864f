import { ok as envelope, SHARING_ROUTES } from '@beacon/protocol';
import { webOnly } from '../accounts/web-only.ts';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './service.ts';

const tags = ['sharing'];
const R = SHARING_ROUTES;

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
    R.shares.path,
    {
      schema: {
        tags,
        summary: "The project's share records (everyone who can see the project)",
        params: R.shares.params,
        response: { 200: envelope(R.shares.response) },
      },
    },
    async (request) => ok(await service.listShares(deps, callerOf(request), request.params.id)),
  );

  app.post(
    R.createShare.path,
    {
      schema: {
        tags,
        summary:
          'Offer a share to an account or cloud id (owner only); it takes effect when the account accepts it at /offers',
        params: R.createShare.params,
        body: R.createShare.body,
        response: { 200: envelope(R.createShare.response) },
      },
    },
    async (request) =>
      ok(await service.createShare(deps, callerOf(request), request.params.id, request.body)),
  );

  app.patch(
    R.updateShare.path,
    {
      schema: {
        tags,
        summary: 'Change the permission or validity of a share (owner only)',
        params: R.updateShare.params,
        body: R.updateShare.body,
        response: { 200: envelope(R.updateShare.response) },
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
    R.deleteShare.path,
    {
      schema: {
        tags,
        summary: 'Delete a share, or withdraw a share offer (owner only)',
        params: R.deleteShare.params,
        response: { 200: envelope(R.deleteShare.response) },
      },
    },
    async (request) =>
      ok(await service.deleteShare(deps, callerOf(request), request.params.id, request.params.accountId)),
  );

  app.post(
    R.unbind.path,
    {
      schema: {
        tags,
        summary: 'Leave a project shared with you',
        params: R.unbind.params,
        response: { 200: envelope(R.unbind.response) },
      },
    },
    async (request) => ok(await service.unbind(deps, callerOf(request), request.params.id)),
  );

  app.post(
    R.createInvite.path,
    {
      schema: {
        tags,
        summary: 'Create an expiring, single-use invite code (owner only); the code is shown once',
        params: R.createInvite.params,
        body: R.createInvite.body,
        response: { 200: envelope(R.createInvite.response) },
      },
    },
    async (request) =>
      ok(await service.createInvite(deps, callerOf(request), request.params.id, request.body)),
  );

  app.post(
    R.transfer.path,
    {
      schema: {
        tags,
        summary:
          'Offer the project to another account; it changes owner (and leaves your list) when that account accepts',
        params: R.transfer.params,
        body: R.transfer.body,
        response: { 200: envelope(R.transfer.response) },
      },
    },
    async (request) => ok(await service.transfer(deps, callerOf(request), request.params.id, request.body)),
  );

  app.delete(
    R.cancelTransfer.path,
    {
      schema: {
        tags,
        summary: 'Withdraw a transfer not yet accepted (owner only)',
        params: R.cancelTransfer.params,
        response: { 200: envelope(R.cancelTransfer.response) },
      },
    },
    async (request) => ok(await service.cancelTransfer(deps, callerOf(request), request.params.id)),
  );

  app.get(
    R.offers.path,
    {
      schema: {
        tags,
        summary: 'Shares and transfers offered to your account, waiting for your answer',
        response: { 200: envelope(R.offers.response) },
      },
    },
    async (request) => ok(await service.listOffers(deps, callerOf(request))),
  );

  app.post(
    R.acceptOffer.path,
    {
      schema: {
        tags,
        summary: 'Accept a share or a transfer offered to your account (limits are counted now)',
        params: R.acceptOffer.params,
        response: { 200: envelope(R.acceptOffer.response) },
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
    R.declineOffer.path,
    {
      schema: {
        tags,
        summary: 'Decline a share or a transfer offered to your account',
        params: R.declineOffer.params,
        response: { 200: envelope(R.declineOffer.response) },
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
    R.previewInvite.path,
    {
      schema: {
        tags,
        summary: 'What an invite code offers (64 when expired or used)',
        params: R.previewInvite.params,
        response: { 200: envelope(R.previewInvite.response) },
      },
    },
    async (request) => ok(await service.previewInvite(deps, callerOf(request), request.params.code)),
  );

  app.post(
    R.acceptInvite.path,
    {
      schema: {
        tags,
        summary: 'Accept an invitation: a read-only share from now (SPEC.md §6)',
        params: R.acceptInvite.params,
        response: { 200: envelope(R.acceptInvite.response) },
      },
    },
    async (request) => ok(await service.acceptInvite(deps, callerOf(request), request.params.code)),
  );
}
