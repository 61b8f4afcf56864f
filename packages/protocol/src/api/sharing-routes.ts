import { z } from 'zod';
import { IdParam, ProjectParams } from './ids.ts';
import type { RouteContract } from './route-contract.ts';
import {
  CreateInviteBody,
  CreateShareBody,
  InviteCodeParams,
  InvitePreview,
  InviteView,
  OfferList,
  OfferParams,
  ProjectIdView,
  ShareList,
  ShareView,
  TransferBody,
  TransferView,
  UpdateShareBody,
} from './sharing.ts';

/** One share of a project: /projects/{id}/shares/{accountId}. */
export const ShareParams = ProjectParams.extend({ accountId: IdParam });
/** What deleting a share answers: the account it named. */
export const DeletedShareView = z.object({ accountId: z.number().int() });

/**
 * Sharing a project, invitations and transfers (server sharing/, web features/sharing). Web-only:
 * an API key answers 5090 on every one of them.
 */
export const SHARING_ROUTES = {
  shares: { method: 'GET', path: '/projects/:id/shares', params: ProjectParams, response: ShareList },
  createShare: {
    method: 'POST',
    path: '/projects/:id/shares',
    params: ProjectParams,
    body: CreateShareBody,
    response: ShareView,
  },
  updateShare: {
    method: 'PATCH',
    path: '/projects/:id/shares/:accountId',
    params: ShareParams,
    body: UpdateShareBody,
    response: ShareView,
  },
  deleteShare: {
    method: 'DELETE',
    path: '/projects/:id/shares/:accountId',
    params: ShareParams,
    response: DeletedShareView,
  },
  unbind: { method: 'POST', path: '/projects/:id/unbind', params: ProjectParams, response: ProjectIdView },
  createInvite: {
    method: 'POST',
    path: '/projects/:id/invites',
    params: ProjectParams,
    body: CreateInviteBody,
    response: InviteView,
  },
  transfer: {
    method: 'POST',
    path: '/projects/:id/transfer',
    params: ProjectParams,
    body: TransferBody,
    response: TransferView,
  },
  cancelTransfer: {
    method: 'DELETE',
    path: '/projects/:id/transfer',
    params: ProjectParams,
    response: ProjectIdView,
  },
  offers: { method: 'GET', path: '/offers', response: OfferList },
  acceptOffer: {
    method: 'POST',
    path: '/offers/:kind/:projectId/accept',
    params: OfferParams,
    response: z.union([TransferView, ProjectIdView]),
  },
  declineOffer: {
    method: 'POST',
    path: '/offers/:kind/:projectId/decline',
    params: OfferParams,
    response: ProjectIdView,
  },
  previewInvite: { method: 'GET', path: '/invites/:code', params: InviteCodeParams, response: InvitePreview },
  acceptInvite: {
    method: 'POST',
    path: '/invites/:code/accept',
    params: InviteCodeParams,
    response: ProjectIdView,
  },
} as const satisfies Record<string, RouteContract>;
