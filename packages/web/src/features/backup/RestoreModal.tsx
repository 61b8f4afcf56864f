import type { BackupView, DeviceView, RestoreView } from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, type ButtonProps, Form, Modal, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../state/feedback.ts';
import { backupApi } from './api.ts';

/**
 * Restores a backup to its device or to another of the same model (a replacement), then follows the
 * new revision until the device reports it applied (or refused it).
 */
export function RestoreModal({
  projectId,
  backup,
  devices,
  onClose,
}: {
  projectId: number;
  backup: BackupView;
  devices: DeviceView[];
  onClose(): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const targets = devices.filter((d) => d.model === backup.model);
  const [sn, setSn] = useState<string | undefined>(
    targets.some((d) => d.sn === backup.sn) ? backup.sn : targets[0]?.sn,
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<RestoreView | null>(null);

  const status = useQuery({
    queryKey: ['devices', projectId, 'config', sent?.sn],
    queryFn: () => backupApi.deviceConfig(projectId, sent!.sn),
    enabled: sent !== null,
    refetchInterval: (q) => (q.state.data?.status === 'pending' || !q.state.data ? 1000 : false),
  });
  const state =
    status.data && sent && status.data.revision === sent.revision
      ? status.data.status
      : sent
        ? 'pending'
        : null;

  const restore = async () => {
    if (!sn) return;
    setBusy(true);
    setError(null);
    try {
      setSent(await backupApi.restore(projectId, backup.id, sn));
      void queryClient.invalidateQueries({ queryKey: ['devices', projectId] });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t('backup.restore.title', { fileName: backup.fileName })}
      okText={sent ? t('common.close') : t('backup.restore.submit')}
      cancelText={t('common.cancel')}
      cancelButtonProps={{ style: sent ? { display: 'none' } : undefined }}
      okButtonProps={
        { disabled: !sn, loading: busy, danger: !sent, 'data-testid': 'restore-ok' } as ButtonProps
      }
      onOk={() => (sent ? onClose() : void restore())}
      onCancel={onClose}
      data-testid="restore-modal"
    >
      <Typography.Paragraph>{t('backup.restore.text')}</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item
          label={t('backup.restore.target')}
          htmlFor="restore-target"
          help={targets.length ? t('backup.restore.targetHelp', { model: backup.model }) : undefined}
        >
          <Select
            id="restore-target"
            value={sn}
            onChange={setSn}
            disabled={sent !== null}
            notFoundContent={t('backup.restore.noTarget', { model: backup.model })}
            options={targets.map((d) => ({ value: d.sn, label: `${d.name || d.sn} (${d.sn})` }))}
            data-testid="restore-target"
          />
        </Form.Item>
      </Form>
      {targets.length === 0 ? (
        <Alert type="warning" showIcon message={t('backup.restore.noTarget', { model: backup.model })} />
      ) : null}
      {error ? <Alert type="error" showIcon message={error} data-testid="restore-error" /> : null}
      {sent && state ? (
        <Alert
          type={state === 'failed' ? 'error' : state === 'applied' ? 'success' : 'info'}
          showIcon
          data-testid="restore-state"
          data-state={state}
          message={
            <>
              {t('backup.restore.sent', { revision: sent.revision })}:{' '}
              <strong>{t(`backup.restore.state.${state}`)}</strong>
            </>
          }
          description={sent.waiting && state === 'pending' ? t('backup.restore.waiting') : undefined}
        />
      ) : null}
    </Modal>
  );
}
