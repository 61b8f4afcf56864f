import type { OfferView } from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, List, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { formatDateTime } from '../../util/format.ts';
import { offersKey, sharingApi } from './api.ts';

/**
 * Shares and transfers offered to this account, waiting for its answer
 * (docs/decisions/0022-consent-to-shares-and-transfers.md). Nothing shows when there are none.
 */
export function PendingOffers() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const offers = useQuery({ queryKey: offersKey, queryFn: sharingApi.offers });
  const items = offers.data?.items ?? [];
  if (items.length === 0) return null;

  const answer = async (offer: OfferView, yes: boolean) => {
    try {
      await withLoadState('saving', () =>
        yes
          ? sharingApi.acceptOffer(offer.kind, offer.projectId)
          : sharingApi.declineOffer(offer.kind, offer.projectId),
      );
      showSuccess(t(yes ? 'sharing.offerAccepted' : 'sharing.offerDeclined', { project: offer.projectName }));
      if (yes) queryClient.invalidateQueries({ queryKey: ['projects'] });
    } catch (e) {
      showError(errorText(e));
    } finally {
      queryClient.invalidateQueries({ queryKey: offersKey });
    }
  };

  const terms = (offer: OfferView): string => {
    if (offer.kind === 'transfer') return t('sharing.offerTransfer');
    const permission = t(offer.permission === 'rw' ? 'sharing.permissionRw' : 'sharing.permissionR');
    const validity =
      offer.validity === 'timed'
        ? t('sharing.hoursValue', { count: offer.hours ?? 0 })
        : t('sharing.permanent');
    return `${permission} · ${validity}`;
  };

  return (
    <Card
      title={t('sharing.offersTitle')}
      size="small"
      style={{ marginBottom: 16 }}
      data-testid="pending-offers"
    >
      <List
        dataSource={items}
        renderItem={(offer) => (
          <List.Item
            data-testid={`offer-${offer.kind}-${offer.projectId}`}
            actions={[
              <Button
                key="accept"
                type="primary"
                size="small"
                onClick={() => answer(offer, true)}
                data-testid={`offer-accept-${offer.kind}-${offer.projectId}`}
              >
                {t('sharing.offerAccept')}
              </Button>,
              <Button
                key="decline"
                size="small"
                onClick={() => answer(offer, false)}
                data-testid={`offer-decline-${offer.kind}-${offer.projectId}`}
              >
                {t('sharing.offerDecline')}
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={
                <Space size={8}>
                  <span>{offer.projectName}</span>
                  <Tag color={offer.kind === 'transfer' ? 'gold' : 'blue'}>
                    {t(offer.kind === 'transfer' ? 'sharing.offerKindTransfer' : 'sharing.offerKindShare')}
                  </Tag>
                </Space>
              }
              description={t('sharing.offerFrom', {
                account: offer.fromAccount,
                terms: terms(offer),
                time: formatDateTime(offer.offeredAt),
              })}
            />
          </List.Item>
        )}
      />
    </Card>
  );
}
