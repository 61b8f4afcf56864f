import { ALARM_LIMITS, AlarmSettingsBody } from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, InputNumber, Select, Tooltip } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { parseForm } from '../../forms/zodForm.ts';
import { showSuccess } from '../../state/feedback.ts';
import { alarmsApi, alarmsKey } from './api.ts';

interface Values {
  emails: string[];
  webhookUrl: string;
  webhookSecret: string;
  offlineMinutes: number;
  cpuPercent: number;
  memoryPercent: number;
}

/** Who hears of the project's alarms (email, signed webhook) and the rule thresholds. */
export function SettingsTab({ projectId, blocked }: { projectId: number; blocked: string | undefined }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const { busy, run } = useFormSubmit(form);
  const settings = useQuery({
    queryKey: [...alarmsKey(projectId), 'settings'],
    queryFn: () => alarmsApi.settings(projectId),
  });
  useEffect(() => {
    if (!settings.data) return;
    form.setFieldsValue({ ...settings.data, webhookUrl: settings.data.webhookUrl ?? '', webhookSecret: '' });
  }, [settings.data, form]);

  const save = async (values: Values) => {
    const body = parseForm(
      AlarmSettingsBody,
      {
        ...values,
        webhookUrl: values.webhookUrl?.trim() ?? '',
        webhookSecret: values.webhookSecret ? values.webhookSecret : undefined,
      },
      form,
    );
    if (!body) return;
    const outcome = await run(() => alarmsApi.saveSettings(projectId, body));
    if (outcome.ok) {
      showSuccess(t('alarms.settings.saved'));
      queryClient.setQueryData([...alarmsKey(projectId), 'settings'], outcome.value);
    }
  };

  return (
    <Form<Values>
      form={form}
      layout="vertical"
      style={{ maxWidth: 560 }}
      onFinish={save}
      disabled={blocked !== undefined}
      data-testid="alarm-settings"
    >
      {blocked ? <Alert type="info" showIcon message={blocked} style={{ marginBottom: 16 }} /> : null}
      <Form.Item
        name="emails"
        label={t('alarms.settings.emails')}
        extra={t('alarms.settings.emailsHelp', { max: ALARM_LIMITS.EMAILS })}
      >
        <Select
          mode="tags"
          tokenSeparators={[',', ' ']}
          open={false}
          aria-label={t('alarms.settings.emails')}
        />
      </Form.Item>
      <Form.Item
        name="webhookUrl"
        label={t('alarms.settings.webhookUrl')}
        extra={t('alarms.settings.webhookHelp')}
      >
        <Input placeholder="https://example.com/hooks/beacon" inputMode="url" />
      </Form.Item>
      <Form.Item
        name="webhookSecret"
        label={t('alarms.settings.webhookSecret')}
        extra={
          settings.data?.webhookSecretSet ? t('alarms.settings.secretKept') : t('alarms.settings.secretHelp')
        }
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="offlineMinutes" label={t('alarms.settings.offlineMinutes')}>
        <InputNumber min={1} max={ALARM_LIMITS.OFFLINE_MINUTES_MAX} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="cpuPercent" label={t('alarms.settings.cpuPercent')}>
        <InputNumber min={1} max={100} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="memoryPercent" label={t('alarms.settings.memoryPercent')}>
        <InputNumber min={1} max={100} style={{ width: 160 }} />
      </Form.Item>
      <Tooltip title={blocked}>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="alarm-settings-save">
          {t('common.save')}
        </Button>
      </Tooltip>
    </Form>
  );
}
