import { BACKUP_SCHEDULE_HOURS, type BackupSettings, LIMITS } from '@beacon/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ButtonProps, Form, Modal, Select, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { backupApi, backupsKey } from './api.ts';

/** Automatic backups: after each applied change, and on a schedule (writers change them). */
export function SettingsModal({
  projectId,
  writable,
  onClose,
}: {
  projectId: number;
  writable: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = [...backupsKey(projectId), 'settings'];
  const settings = useQuery({ queryKey: key, queryFn: () => backupApi.settings(projectId) });
  const [value, setValue] = useState<BackupSettings | null>(null);
  useEffect(() => {
    if (settings.data) setValue(settings.data);
  }, [settings.data]);
  const save = useMutation({
    mutationFn: (body: BackupSettings) => backupApi.saveSettings(projectId, body),
    onSuccess: (data) => {
      queryClient.setQueryData(key, data);
      showSuccess(t('backup.settings.saved'));
      onClose();
    },
    onError: (e) => showError(errorText(e)),
  });
  const label = (h: number) =>
    h === 0
      ? t('backup.settings.never')
      : h === 24
        ? t('backup.settings.daily')
        : h === 168
          ? t('backup.settings.weekly')
          : t('backup.settings.hours', { count: h });

  return (
    <Modal
      open
      title={t('backup.settings.title')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={
        {
          disabled: !writable || !value,
          loading: save.isPending,
          'data-testid': 'backup-settings-save',
        } as ButtonProps
      }
      onOk={() => value && save.mutate(value)}
      onCancel={onClose}
      data-testid="backup-settings-modal"
    >
      <Form layout="vertical" disabled={!writable || !value}>
        <Form.Item label={t('backup.settings.afterChange')} htmlFor="backup-after-change">
          <Switch
            id="backup-after-change"
            checked={value?.afterChange ?? false}
            onChange={(afterChange) => value && setValue({ ...value, afterChange })}
          />
        </Form.Item>
        <Form.Item label={t('backup.settings.every')} htmlFor="backup-every">
          <Select
            id="backup-every"
            value={value?.everyHours}
            onChange={(everyHours) => value && setValue({ ...value, everyHours })}
            options={BACKUP_SCHEDULE_HOURS.map((h) => ({ value: h, label: label(h) }))}
          />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('backup.settings.note', { minutes: LIMITS.BACKUP_INTERVAL_MINUTES, max: LIMITS.CLOUD_BACKUPS })}
      </Typography.Paragraph>
      {writable ? null : (
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          {t('backup.settings.readOnly')}
        </Typography.Paragraph>
      )}
    </Modal>
  );
}
