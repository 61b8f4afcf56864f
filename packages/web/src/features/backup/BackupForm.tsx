import { CloudUploadOutlined } from '@ant-design/icons';
import { type CreateBackupsResult, type DeviceView, LIMITS } from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../state/feedback.ts';
import { backupApi, backupsKey } from './api.ts';
import { useOverwriteConfirm } from './useOverwriteConfirm.tsx';

/** Back up one device or a selection, as general backups or restore points. */
export function BackupForm({
  projectId,
  devices,
  loading,
  full,
  nextOverwrite,
}: {
  projectId: number;
  devices: DeviceView[];
  loading: boolean;
  full: boolean;
  nextOverwrite: string | null;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const withConfirm = useOverwriteConfirm();
  const [sns, setSns] = useState<string[]>([]);
  const [type, setType] = useState<'general' | 'restore_point'>('general');
  const [busy, setBusy] = useState(false);
  const [refused, setRefused] = useState<CreateBackupsResult['items']>([]);
  const nameOf = (sn: string) => devices.find((d) => d.sn === sn)?.name || sn;

  const submit = async () => {
    setBusy(true);
    const result = await withConfirm((confirmOverwrite) =>
      backupApi.create(projectId, { sns, type, confirmOverwrite }),
    );
    setBusy(false);
    if (!result) return;
    const ok = result.items.filter((i) => i.code === 0);
    setRefused(result.items.filter((i) => i.code !== 0));
    if (ok.length) {
      showSuccess(t('backup.form.requested', { count: ok.length }));
      setSns([]);
    }
    void queryClient.invalidateQueries({ queryKey: backupsKey(projectId) });
  };

  return (
    <Card
      size="small"
      style={{ marginBottom: 16 }}
      title={
        <Typography.Title level={2} style={{ fontSize: 16, margin: 0 }}>
          {t('backup.form.title')}
        </Typography.Title>
      }
      data-testid="backup-form"
    >
      <Form layout="vertical" onFinish={() => void submit()}>
        <Space wrap align="end" style={{ width: '100%' }}>
          <Form.Item label={t('backup.form.devices')} htmlFor="backup-devices" style={{ marginBottom: 0 }}>
            <Select
              id="backup-devices"
              mode="multiple"
              allowClear
              loading={loading}
              style={{ minWidth: 260, maxWidth: '100%' }}
              placeholder={t('backup.form.devicesPlaceholder')}
              notFoundContent={t('backup.form.noDevices')}
              value={sns}
              onChange={setSns}
              maxCount={LIMITS.BACKUP_DEVICES_PER_REQUEST}
              optionFilterProp="label"
              options={devices.map((d) => ({ value: d.sn, label: `${d.name || d.sn} (${d.sn})` }))}
              data-testid="backup-devices"
            />
          </Form.Item>
          <Form.Item label={t('backup.form.type')} htmlFor="backup-type" style={{ marginBottom: 0 }}>
            <Select
              id="backup-type"
              style={{ width: 160 }}
              value={type}
              onChange={setType}
              options={[
                { value: 'general', label: t('backup.type.general') },
                { value: 'restore_point', label: t('backup.type.restore_point') },
              ]}
              data-testid="backup-type"
            />
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            icon={<CloudUploadOutlined />}
            disabled={sns.length === 0}
            loading={busy}
            data-testid="backup-submit"
          >
            {t('backup.form.submit')}
          </Button>
        </Space>
      </Form>
      {full && type === 'general' && nextOverwrite ? (
        <Typography.Paragraph type="warning" style={{ margin: '8px 0 0' }}>
          {t('backup.full', { max: LIMITS.CLOUD_BACKUPS, fileName: nextOverwrite })}
        </Typography.Paragraph>
      ) : null}
      {refused.length ? (
        <Alert
          style={{ marginTop: 12 }}
          type="warning"
          showIcon
          closable
          onClose={() => setRefused([])}
          data-testid="backup-refused"
          message={
            <ul style={{ margin: 0, paddingInlineStart: 16 }}>
              {refused.map((r) => (
                <li key={r.sn}>{t('backup.form.refused', { name: nameOf(r.sn), message: r.message })}</li>
              ))}
            </ul>
          }
        />
      ) : null}
    </Card>
  );
}
