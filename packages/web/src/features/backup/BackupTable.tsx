import { DiffOutlined, DownloadOutlined, EllipsisOutlined, HistoryOutlined } from '@ant-design/icons';
import { type BackupList, type BackupView, formatBytes } from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Dropdown, Space, Table, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { saveFile } from '../../api/save-file.ts';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { useIsPhone } from '../../layout/useIsPhone.ts';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { useProjectTime } from '../projects/useProjectTime.ts';
import { backupApi, backupsKey } from './api.ts';
import { useOverwriteConfirm } from './useOverwriteConfirm.tsx';

const STATUS_BADGE = {
  unsynchronized: 'default',
  synchronizing: 'processing',
  synchronized: 'success',
  failed: 'error',
} as const;

/** The backups: SPEC.md §3 fields, the sync status (§4) and each row's actions. */
export function BackupTable({
  projectId,
  writable,
  loading,
  data,
  paging,
  onPage,
  onRestore,
  onCompare,
}: {
  projectId: number;
  writable: boolean;
  loading: boolean;
  data: BackupList | undefined;
  paging: { page: number; pageSize: number };
  onPage(page: number, pageSize: number): void;
  onRestore(b: BackupView): void;
  onCompare(b: BackupView): void;
}) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const time = useProjectTime(projectId);
  const queryClient = useQueryClient();
  const withConfirm = useOverwriteConfirm();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: backupsKey(projectId) });

  const remove = async (b: BackupView) => {
    try {
      await backupApi.remove(projectId, b.id);
      showSuccess(t('backup.confirm.deleted'));
    } catch (e) {
      showError(errorText(e));
    }
    refresh();
  };
  const setType = async (b: BackupView, type: 'general' | 'restore_point') => {
    const done = await withConfirm((confirm) => backupApi.setType(projectId, b.id, type, confirm));
    if (done) showSuccess(t('backup.confirm.typeChanged'));
    refresh();
  };

  return (
    <Table<BackupView>
      rowKey="id"
      size="small"
      loading={loading}
      dataSource={data?.items ?? []}
      scroll={phone ? undefined : { x: 'max-content' }}
      locale={{ emptyText: t('backup.empty') }}
      data-testid="backup-table"
      onRow={(b) => ({ 'data-testid': `backup-row-${b.id}`, 'data-status': b.status }) as object}
      pagination={{
        current: paging.page,
        pageSize: paging.pageSize,
        total: data?.total ?? 0,
        showSizeChanger: !phone,
        onChange: onPage,
      }}
      columns={[
        {
          key: 'fileName',
          title: t('backup.column.fileName'),
          render: (_, b) => (
            <span style={{ wordBreak: 'break-all' }} data-testid={`backup-file-${b.id}`}>
              {b.fileName}
            </span>
          ),
        },
        {
          key: 'device',
          title: t('backup.column.device'),
          render: (_, b) => (
            <>
              <div>{b.deviceName || b.sn}</div>
              {b.deviceName ? <div style={{ fontSize: 12 }}>{b.sn}</div> : null}
            </>
          ),
        },
        { key: 'model', dataIndex: 'model', title: t('backup.column.model'), responsive: ['md'] },
        {
          key: 'mac',
          title: t('backup.column.mac'),
          responsive: ['lg'],
          render: (_, b) => b.mac ?? t('common.none'),
        },
        {
          key: 'type',
          title: t('backup.column.type'),
          render: (_, b) => (
            <Tag color={b.type === 'restore_point' ? 'blue' : undefined} data-testid={`backup-type-${b.id}`}>
              {t(`backup.type.${b.type}`)}
            </Tag>
          ),
        },
        {
          key: 'size',
          title: t('backup.column.size'),
          responsive: ['md'],
          render: (_, b) => (b.size ? formatBytes(b.size) : t('common.none')),
        },
        {
          key: 'time',
          title: t('backup.column.time'),
          render: (_, b) => time.format(b.takenAt ?? b.requestedAt),
        },
        {
          key: 'status',
          title: t('backup.column.status'),
          render: (_, b) => (
            <Tooltip title={b.status === 'failed' ? b.message : undefined}>
              <Badge
                status={STATUS_BADGE[b.status]}
                text={t(`backup.status.${b.status}`)}
                data-testid={`backup-status-${b.id}`}
              />
            </Tooltip>
          ),
        },
        {
          key: 'actions',
          title: t('backup.column.actions'),
          render: (_, b) => {
            const ready = b.status === 'synchronized';
            return (
              <Space size={0} wrap>
                <Tooltip title={t('backup.action.download')}>
                  <Button
                    type="text"
                    icon={<DownloadOutlined />}
                    aria-label={`${t('backup.action.download')} ${b.fileName}`}
                    disabled={!ready}
                    onClick={() => void saveFile(backupApi.fileUrl(projectId, b.id), b.fileName)}
                    data-testid={`backup-download-${b.id}`}
                  />
                </Tooltip>
                <Tooltip title={t('backup.action.compare')}>
                  <Button
                    type="text"
                    icon={<DiffOutlined />}
                    aria-label={`${t('backup.action.compare')} ${b.fileName}`}
                    disabled={!ready}
                    onClick={() => onCompare(b)}
                    data-testid={`backup-compare-${b.id}`}
                  />
                </Tooltip>
                {writable ? (
                  <>
                    <Tooltip title={t('backup.action.restore')}>
                      <Button
                        type="text"
                        icon={<HistoryOutlined />}
                        aria-label={`${t('backup.action.restore')} ${b.fileName}`}
                        disabled={!ready}
                        onClick={() => onRestore(b)}
                        data-testid={`backup-restore-${b.id}`}
                      />
                    </Tooltip>
                    <Dropdown
                      disabled={!ready}
                      menu={{
                        items: [
                          b.type === 'general'
                            ? { key: 'restore_point', label: t('backup.action.makeRestorePoint') }
                            : { key: 'general', label: t('backup.action.makeGeneral') },
                        ],
                        onClick: ({ key }) => void setType(b, key as 'general' | 'restore_point'),
                      }}
                    >
                      <Button
                        type="text"
                        icon={<EllipsisOutlined />}
                        aria-label={t('backup.action.more', { name: b.fileName })}
                        data-testid={`backup-more-${b.id}`}
                      />
                    </Dropdown>
                    <DeleteButton
                      confirm={t('backup.confirm.deleteTitle')}
                      description={t('backup.confirm.deleteText', { fileName: b.fileName })}
                      testId={`backup-delete-${b.id}`}
                      confirmTestId="backup-delete-ok"
                      onConfirm={() => remove(b)}
                    />
                  </>
                ) : null}
              </Space>
            );
          },
        },
      ]}
    />
  );
}
