import { CopyOutlined } from '@ant-design/icons';
import type { ApiKeyView } from '@beacon/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Modal, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ApiKeyCreatedView, api } from '../../api/index.ts';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { reportFailure } from '../../forms/useFormSubmit.ts';
import { formatDateTime } from '../../util/format.ts';
import { ApiKeyForm } from './ApiKeyForm.tsx';
import { API_KEYS_KEY } from './accountCache.ts';

export function ApiKeysCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<ApiKeyCreatedView | null>(null);
  const keys = useQuery({ queryKey: API_KEYS_KEY, queryFn: api.apiKeys });
  const remove = useMutation({
    mutationFn: (k: ApiKeyView) => api.deleteApiKey(k.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: API_KEYS_KEY }),
    onError: (e) => reportFailure(e),
  });
  return (
    <Card title={t('account.apiKeys')}>
      <Typography.Paragraph type="secondary">{t('account.apiKeysHint')}</Typography.Paragraph>
      <ApiKeyForm
        submit={async (body) => {
          setCreated(await api.createApiKey(body));
          queryClient.invalidateQueries({ queryKey: API_KEYS_KEY });
        }}
      />
      <Table<ApiKeyView>
        rowKey="id"
        size="small"
        loading={keys.isLoading}
        dataSource={keys.data ?? []}
        pagination={false}
        // An empty table must not scroll: axe wants a scroll region to hold something focusable.
        scroll={keys.data?.length ? { x: 'max-content' } : undefined}
        style={{ marginTop: 16 }}
        data-testid="apikey-table"
        locale={{ emptyText: t('account.noKeys') }}
        columns={[
          { title: t('account.keyName'), dataIndex: 'name', key: 'name' },
          {
            title: t('account.keyPrefix'),
            dataIndex: 'prefix',
            key: 'prefix',
            render: (p: string) => <code>{p}…</code>,
          },
          {
            title: t('account.keyScope'),
            dataIndex: 'scope',
            key: 'scope',
            render: (scope: string) =>
              scope === 'read' ? (
                <Tag>{t('account.keyScopeRead')}</Tag>
              ) : (
                <Tag color="blue">{t('account.keyScopeReadWrite')}</Tag>
              ),
          },
          {
            title: t('account.keyProjects'),
            dataIndex: 'projectIds',
            key: 'projectIds',
            render: (ids: number[] | null) =>
              ids ? t('account.keyProjectCount', { count: ids.length }) : t('account.keyAllProjects'),
          },
          {
            title: t('account.keyExpires'),
            dataIndex: 'expiresAt',
            key: 'expiresAt',
            render: (s: string | null) => (s ? formatDateTime(s) : t('common.never')),
          },
          {
            title: t('account.keyRate'),
            dataIndex: 'ratePerMinute',
            key: 'ratePerMinute',
          },
          {
            title: t('account.keyCreatedAt'),
            dataIndex: 'createdAt',
            key: 'createdAt',
            render: formatDateTime,
          },
          {
            title: t('account.keyLastUsed'),
            dataIndex: 'lastUsedAt',
            key: 'lastUsedAt',
            render: (s: string | null) => (s ? formatDateTime(s) : t('common.never')),
          },
          {
            key: 'actions',
            width: 48,
            render: (_: unknown, k) => (
              <DeleteButton
                size="small"
                confirm={t('account.deleteKeyConfirm', { name: k.name })}
                onConfirm={() => remove.mutate(k)}
              />
            ),
          },
        ]}
      />
      <Modal
        open={created !== null}
        title={t('account.keyCreatedTitle')}
        onCancel={() => setCreated(null)}
        footer={
          <Button type="primary" onClick={() => setCreated(null)} data-testid="apikey-done">
            {t('common.close')}
          </Button>
        }
      >
        <Alert type="warning" showIcon title={t('account.keyShownOnce')} style={{ marginBottom: 12 }} />
        <Typography.Paragraph
          code
          copyable={{ text: created?.key ?? '', icon: [<CopyOutlined key="c" />, <CopyOutlined key="d" />] }}
          data-testid="apikey-secret"
          style={{ wordBreak: 'break-all' }}
        >
          {created?.key}
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
