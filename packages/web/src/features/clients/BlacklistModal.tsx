import { type BlacklistEntryView, CLIENT_BLACKLIST_MAX, macSchema } from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Form, Input, Modal, Popconfirm, Space, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { useProjectTime } from '../projects/useProjectTime.ts';
import { clientsApi, clientsKey } from './api.ts';

/** The project's client blacklist: at most CLIENT_BLACKLIST_MAX MACs that its devices refuse. */
export function BlacklistModal({
  open,
  projectId,
  writable,
  onClose,
}: {
  open: boolean;
  projectId: number;
  writable: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { format } = useProjectTime(projectId);
  const [mac, setMac] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [macError, setMacError] = useState<string | null>(null);
  const query = useQuery({
    queryKey: [...clientsKey(projectId), 'blacklist'],
    queryFn: () => clientsApi.blacklist(projectId),
    enabled: open,
  });
  const items = query.data?.items ?? [];
  const full = items.length >= CLIENT_BLACKLIST_MAX;

  const refresh = () => queryClient.invalidateQueries({ queryKey: clientsKey(projectId) });
  const add = async () => {
    const value = mac.trim().toUpperCase();
    if (!macSchema.safeParse(value).success) {
      setMacError(t('clients.badMac'));
      return;
    }
    setMacError(null);
    setBusy(true);
    try {
      await clientsApi.addBlacklist(projectId, { macs: [value], note: note.trim() });
      showSuccess(t('clients.blacklistAdded'));
      setMac('');
      setNote('');
    } catch (e) {
      showError(errorText(e));
    } finally {
      setBusy(false);
      void refresh();
    }
  };
  const remove = async (entry: BlacklistEntryView) => {
    try {
      await clientsApi.removeBlacklist(projectId, entry.mac);
      showSuccess(t('clients.blacklistRemoved'));
    } catch (e) {
      showError(errorText(e));
    } finally {
      void refresh();
    }
  };

  return (
    <Modal
      open={open}
      title={t('clients.blacklistTitle')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('common.close')}</Button>}
      width={640}
      data-testid="blacklist-modal"
    >
      <Typography.Paragraph type="secondary">
        {t('clients.blacklistHelp', { max: CLIENT_BLACKLIST_MAX })}
      </Typography.Paragraph>
      {writable ? (
        <Form layout="vertical" onFinish={add}>
          <Space wrap align="start">
            <Form.Item
              label={t('clients.blacklistMac')}
              validateStatus={macError ? 'error' : undefined}
              help={macError ?? undefined}
              style={{ marginBottom: 8 }}
            >
              <Input
                value={mac}
                onChange={(e) => setMac(e.target.value)}
                aria-label={t('clients.blacklistMac')}
                placeholder={t('clients.blacklistMacHint')}
                maxLength={17}
                style={{ width: 200 }}
                data-testid="blacklist-mac"
              />
            </Form.Item>
            <Form.Item label={t('clients.blacklistNote')} style={{ marginBottom: 8 }}>
              <Input
                value={note}
                onChange={(e) => setNote(e.target.value)}
                aria-label={t('clients.blacklistNote')}
                maxLength={64}
                style={{ width: 180 }}
                data-testid="blacklist-note"
              />
            </Form.Item>
            <Form.Item label=" " style={{ marginBottom: 8 }}>
              <Button
                type="primary"
                htmlType="submit"
                loading={busy}
                disabled={full}
                data-testid="blacklist-add"
              >
                {t('clients.blacklistAdd')}
              </Button>
            </Form.Item>
          </Space>
        </Form>
      ) : null}
      <Typography.Text data-testid="blacklist-used">
        {t('clients.blacklistUsed', { count: items.length, max: CLIENT_BLACKLIST_MAX })}
      </Typography.Text>
      <Table<BlacklistEntryView>
        rowKey="mac"
        size="small"
        style={{ marginTop: 8 }}
        loading={query.isLoading}
        dataSource={items}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={t('clients.blacklistEmpty')} /> }}
        columns={[
          {
            key: 'mac',
            dataIndex: 'mac',
            title: t('clients.blacklistMac'),
            sorter: (a, b) => a.mac.localeCompare(b.mac),
          },
          { key: 'note', dataIndex: 'note', title: t('clients.blacklistNote') },
          {
            key: 'createdAt',
            dataIndex: 'createdAt',
            title: t('clients.blacklistCreated'),
            sorter: (a, b) => a.createdAt.localeCompare(b.createdAt),
            render: (v: string) => format(v),
          },
          {
            key: 'actions',
            title: t('common.actions'),
            render: (_, entry) => (
              <Popconfirm
                title={t('clients.blacklistRemoveTitle', { mac: entry.mac })}
                okText={t('clients.blacklistRemove')}
                cancelText={t('common.cancel')}
                onConfirm={() => remove(entry)}
                disabled={!writable}
              >
                <Button
                  type="link"
                  size="small"
                  danger
                  disabled={!writable}
                  style={{ padding: 0 }}
                  data-testid={`blacklist-remove-${entry.mac}`}
                >
                  {t('clients.blacklistRemove')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Modal>
  );
}
