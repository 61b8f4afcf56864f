import type {
  CreateInviteBody,
  CreateShareBody,
  InvitePreview,
  InviteView,
  OfferKind,
  OfferList,
  ProjectIdView,
  ShareList,
  ShareView,
  TransferBody,
  TransferView,
  UpdateShareBody,
} from '@beacon/protocol';
import { client } from '../../api/index.ts';

/** /api/v1/projects/{id}/shares, /unbind, /invites, /transfer, /api/v1/invites/{code} and /api/v1/offers. */
export const sharingApi = {
  shares: (projectId: number) => client.get<ShareList>(`/projects/${projectId}/shares`),
  createShare: (projectId: number, body: CreateShareBody) =>
    client.post<ShareView>(`/projects/${projectId}/shares`, body),
  updateShare: (projectId: number, accountId: number, body: UpdateShareBody) =>
    client.patch<ShareView>(`/projects/${projectId}/shares/${accountId}`, body),
  deleteShare: (projectId: number, accountId: number) =>
    client.del<unknown>(`/projects/${projectId}/shares/${accountId}`),
  unbind: (projectId: number) => client.post<ProjectIdView>(`/projects/${projectId}/unbind`),
  createInvite: (projectId: number, body: CreateInviteBody) =>
    client.post<InviteView>(`/projects/${projectId}/invites`, body),
  transfer: (projectId: number, body: TransferBody) =>
    client.post<TransferView>(`/projects/${projectId}/transfer`, body),
  cancelTransfer: (projectId: number) => client.del<ProjectIdView>(`/projects/${projectId}/transfer`),
  offers: () => client.get<OfferList>('/offers'),
  acceptOffer: (kind: OfferKind, projectId: number) =>
    client.post<ProjectIdView>(`/offers/${kind}/${projectId}/accept`),
  declineOffer: (kind: OfferKind, projectId: number) =>
    client.post<ProjectIdView>(`/offers/${kind}/${projectId}/decline`),
  previewInvite: (code: string) => client.get<InvitePreview>(`/invites/${encodeURIComponent(code)}`),
  acceptInvite: (code: string) => client.post<ProjectIdView>(`/invites/${encodeURIComponent(code)}/accept`),
};

export const sharesKey = (projectId: number | undefined) => ['project', projectId, 'shares'] as const;
export const offersKey = ['offers'] as const;

/** "a@b.c" names an account, anything else a cloud id. */
export function targetOf(text: string): { account: string } | { cloudId: string } {
  const value = text.trim();
  return value.includes('@') ? { account: value } : { cloudId: value };
}
