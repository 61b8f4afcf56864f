import {
  type CreateInviteBody,
  type CreateShareBody,
  type OfferKind,
  SHARING_ROUTES,
  type TransferBody,
  type UpdateShareBody,
} from '@beacon/protocol';
import { callRoute } from '../../api/route.ts';

const R = SHARING_ROUTES;

/** Shares, invitations, transfers and offers, from SHARING_ROUTES (paths and answer types). */
export const sharingApi = {
  shares: (projectId: number) => callRoute(R.shares, { id: projectId }),
  createShare: (projectId: number, body: CreateShareBody) =>
    callRoute(R.createShare, { id: projectId }, { body }),
  updateShare: (projectId: number, accountId: number, body: UpdateShareBody) =>
    callRoute(R.updateShare, { id: projectId, accountId }, { body }),
  deleteShare: (projectId: number, accountId: number) =>
    callRoute(R.deleteShare, { id: projectId, accountId }),
  unbind: (projectId: number) => callRoute(R.unbind, { id: projectId }),
  createInvite: (projectId: number, body: CreateInviteBody) =>
    callRoute(R.createInvite, { id: projectId }, { body }),
  transfer: (projectId: number, body: TransferBody) => callRoute(R.transfer, { id: projectId }, { body }),
  cancelTransfer: (projectId: number) => callRoute(R.cancelTransfer, { id: projectId }),
  offers: () => callRoute(R.offers, {}),
  acceptOffer: (kind: OfferKind, projectId: number) => callRoute(R.acceptOffer, { kind, projectId }),
  declineOffer: (kind: OfferKind, projectId: number) => callRoute(R.declineOffer, { kind, projectId }),
  previewInvite: (code: string) => callRoute(R.previewInvite, { code }),
  acceptInvite: (code: string) => callRoute(R.acceptInvite, { code }),
};

export const sharesKey = (projectId: number | undefined) => ['project', projectId, 'shares'] as const;
export const offersKey = ['offers'] as const;

/** "a@b.c" names an account, anything else a cloud id. */
export function targetOf(text: string): { account: string } | { cloudId: string } {
  const value = text.trim();
  return value.includes('@') ? { account: value } : { cloudId: value };
}
