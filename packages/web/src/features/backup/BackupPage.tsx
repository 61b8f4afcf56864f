import { SettingOutlined } from '@ant-design/icons';
import type { BackupView } from '@beacon/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NoProject } from '../../components/NoProject.tsx';
import { PageTitle } from '../../layout/PageTitle.tsx';
import { canWrite, useCurrentProject } from '../../session/currentProject.ts';
import { devicesApi } from '../devices/api.ts';
import { backupApi, backupsKey } from './api.ts';
import { BackupForm } from './BackupForm.tsx';
import { BackupTable } from './BackupTable.tsx';
import { CompareModal } from './CompareModal.tsx';
import { RestoreModal } from './RestoreModal.tsx';
import { SettingsModal } from './SettingsModal.tsx';
import { UploadBackupButton } from './UploadBackupButton.tsx';

const OPEN = new Set(['unsynchronized', 'synchronizing']);

/**
 * /manage/backup (WLAN projects): back up devices, the backups with their sync status, download,
 * compare, restore, restore points, upload, automatic backups (docs/decisions/0049). Read-only
 * members list, compare and download.
 */
export function BackupPage() {
  const { t } = useTranslation();
  const current = useCurrentProject();
  const projectId = current?.id;
  const writable = canWrite(current);
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });
  const [type, setType] = useState<'general' | 'restore_point' | undefined>();
  const [restoring, setRestoring] = useState<BackupView | null>(null);
  const [comparing, setComparing] = useState<BackupView | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);

  const list = useQuery({
    queryKey: [...backupsKey(projectId), paging, type],
    queryFn: () => backupApi.list(projectId!, { ...paging, type }),
    enabled: projectId !== undefined,
    placeholderData: keepPreviousData,
    // Backups on their way to the device are followed until they settle.
    refetchInterval: (q) => (q.state.data?.items.some((b) => OPEN.has(b.status)) ? 1500 : false),
  });
  const devices = useQuery({
    queryKey: ['devices', projectId, 'backup-targets'],
    queryFn: () => devicesApi.list(projectId!, { page: 1, pageSize: 200, sort: 'name', order: 'asc' }),
    enabled: projectId !== undefined,
    staleTime: 30_000,
  });

  if (!current || projectId === undefined) return <NoProject title={t('route.backup')} />;
  const deviceList = devices.data?.items ?? [];
  const general = list.data?.general;

  return (
    <div data-testid="backup-page">
      <PageTitle
        title={t('route.backup')}
        extra={
          <Space wrap>
            {writable ? <UploadBackupButton projectId={projectId} /> : null}
            <Button
              icon={<SettingOutlined />}
              onClick={() => setSettingsOpen(true)}
              data-testid="backup-settings"
            >
              {t('backup.settings.button')}
            </Button>
          </Space>
        }
      />
      {general ? (
        <Alert
          style={{ marginBottom: 16 }}
          type={list.data?.nextOverwrite ? 'warning' : 'info'}
          showIcon
          data-testid="backup-count"
          message={t('backup.count', { count: general.count, max: general.max })}
          description={
            list.data?.nextOverwrite
              ? t('backup.full', { max: general.max, fileName: list.data.nextOverwrite.fileName })
              : t('backup.countHelp', { max: general.max })
          }
        />
      ) : null}
      {writable ? (
        <BackupForm
          projectId={projectId}
          devices={deviceList}
          loading={devices.isLoading}
          full={general ? general.count >= general.max : false}
          nextOverwrite={list.data?.nextOverwrite?.fileName ?? null}
        />
      ) : null}
      <Card
        title={
          <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
            {t('route.backup')}
          </Typography.Title>
        }
        extra={
          <Select
            aria-label={t('backup.filter.type')}
            allowClear
            placeholder={t('backup.filter.all')}
            style={{ width: 160 }}
            value={type}
            onChange={(v) => {
              setType(v);
              setPaging((p) => ({ ...p, page: 1 }));
            }}
            options={[
              { value: 'general', label: t('backup.type.general') },
              { value: 'restore_point', label: t('backup.type.restore_point') },
            ]}
            data-testid="backup-type-filter"
          />
        }
      >
        <BackupTable
          projectId={projectId}
          writable={writable}
          loading={list.isLoading}
          data={list.data}
          paging={paging}
          onPage={(page, pageSize) => setPaging({ page, pageSize })}
          onRestore={setRestoring}
          onCompare={setComparing}
        />
      </Card>
      {restoring ? (
        <RestoreModal
          projectId={projectId}
          backup={restoring}
          devices={deviceList}
          onClose={() => setRestoring(null)}
        />
      ) : null}
      {comparing ? (
        <CompareModal
          projectId={projectId}
          backup={comparing}
          others={(list.data?.items ?? []).filter(
            (b) => b.id !== comparing.id && b.status === 'synchronized',
          )}
          onClose={() => setComparing(null)}
        />
      ) : null}
      {settingsOpen ? (
        <SettingsModal projectId={projectId} writable={writable} onClose={() => setSettingsOpen(false)} />
      ) : null}
    </div>
  );
}
