import { LOG_RETENTION_DAYS, type LogRetentionDays } from '@beacon/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, showError, showSuccess } from '../../state/feedback.ts';
import { logsApi, logsKey } from './api.ts';

/** The project's log retention (SPEC.md §9: 7, 30, 90 or 180 days); writers change it. */
export function RetentionCard({ projectId, writable }: { projectId: number; writable: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: [...logsKey(projectId), 'settings'],
    queryFn: () => logsApi.settings(projectId),
  });
  const [days, setDays] = useState<LogRetentionDays | undefined>();
  useEffect(() => {
    if (settings.data) setDays(settings.data.retentionDays as LogRetentionDays);
  }, [settings.data]);
  const save = useMutation({
    mutationFn: (retentionDays: LogRetentionDays) => logsApi.saveSettings(projectId, { retentionDays }),
    onSuccess: (data) => {
      queryClient.setQueryData([...logsKey(projectId), 'settings'], data);
      void queryClient.invalidateQueries({ queryKey: logsKey(projectId, 'audit') });
      showSuccess(t('logs.retention.saved'));
    },
    onError: (e) => showError(errorText(e)),
  });
  const changed = settings.data !== undefined && days !== settings.data.retentionDays;
  return (
    <Card
      size="small"
      title={t('logs.retention.title')}
      style={{ marginBottom: 16 }}
      data-testid="log-retention"
    >
      <Space wrap>
        <label htmlFor="log-retention-days">{t('logs.retention.label')}</label>
        <Select<LogRetentionDays>
          id="log-retention-days"
          value={days}
          disabled={!writable || settings.isLoading}
          style={{ width: 140 }}
          onChange={setDays}
          options={LOG_RETENTION_DAYS.map((d) => ({
            value: d,
            label: t('logs.retention.days', { count: d }),
          }))}
          data-testid="log-retention-select"
        />
        {writable ? (
          <Button
            type="primary"
            disabled={!changed || days === undefined}
            loading={save.isPending}
            onClick={() => days && save.mutate(days)}
            data-testid="log-retention-save"
          >
            {t('logs.retention.save')}
          </Button>
        ) : null}
      </Space>
      <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
        {writable
          ? t('logs.retention.help', { audit: settings.data?.auditRetentionDays ?? 180 })
          : t('logs.retention.readOnly')}
      </Typography.Paragraph>
    </Card>
  );
}
