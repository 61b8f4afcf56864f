import { type SecurityView, TwoFactorCodeBody, type TwoFactorSetupView } from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Modal, QRCode, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reportFailure, useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';
import { identityApi, SECURITY_KEY } from './identityApi.ts';

/** Two-factor sign-in: set up with an authenticator (QR code and key), recovery codes, turn off. */
export function TwoFactorCard({ security }: { security: SecurityView }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const { busy, run } = useFormSubmit(form);
  const [setup, setSetup] = useState<TwoFactorSetupView | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: SECURITY_KEY });
  const on = security.twoFactor.enabled;

  const start = async () => {
    try {
      setSetup(await identityApi.setup());
    } catch (e) {
      reportFailure(e);
    }
  };
  const onFinish = async (raw: Record<string, unknown>) => {
    const values = blanks(raw, ['code']);
    if (on) {
      const code = String(values.code).trim();
      await run(async () => {
        queryClient.setQueryData(SECURITY_KEY, await identityApi.disable(code));
        form.resetFields();
      });
      return;
    }
    const body = parseForm(TwoFactorCodeBody, values, form);
    if (!body) return;
    await run(async () => {
      const answer = await identityApi.enable(body.code);
      setSetup(null);
      form.resetFields();
      setCodes(answer.recoveryCodes);
      refresh();
    });
  };
  const regenerate = async () => {
    const body = parseForm(TwoFactorCodeBody, blanks(form.getFieldsValue(), ['code']), form);
    if (!body) return;
    await run(async () => {
      setCodes((await identityApi.recoveryCodes(body.code)).recoveryCodes);
      form.resetFields();
      refresh();
    });
  };

  return (
    <Card title={t('identity.twoFactor')}>
      <Typography.Paragraph type="secondary" data-testid="two-factor-state">
        {on
          ? t('identity.twoFactorOn', { count: security.twoFactor.recoveryCodesLeft })
          : t('identity.twoFactorOff')}
      </Typography.Paragraph>
      {!on && !setup ? (
        <Button type="primary" onClick={start} data-testid="two-factor-start">
          {t('identity.turnOn')}
        </Button>
      ) : null}
      {setup ? (
        <Space direction="vertical" style={{ marginBottom: 12 }}>
          <Typography.Text>{t('identity.setupScan')}</Typography.Text>
          <QRCode value={setup.uri} size={160} />
          <Typography.Text>
            {t('identity.setupKey')}:{' '}
            <Typography.Text code copyable data-testid="two-factor-secret">
              {setup.secret}
            </Typography.Text>
          </Typography.Text>
        </Space>
      ) : null}
      {on || setup ? (
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={onFinish}
          initialValues={{ code: '' }}
        >
          <Form.Item name="code" label={on ? t('identity.currentCode') : t('identity.confirmCode')}>
            <Input autoComplete="one-time-code" style={{ maxWidth: 240 }} data-testid="two-factor-code" />
          </Form.Item>
          <Space wrap>
            <Button
              type="primary"
              htmlType="submit"
              danger={on}
              loading={busy}
              data-testid="two-factor-submit"
            >
              {on ? t('identity.turnOff') : t('identity.turnOn')}
            </Button>
            {on ? (
              <Button onClick={regenerate} data-testid="two-factor-regenerate">
                {t('identity.newRecoveryCodes')}
              </Button>
            ) : null}
          </Space>
        </Form>
      ) : null}
      <Modal
        open={codes !== null}
        title={t('identity.recoveryTitle')}
        onOk={() => setCodes(null)}
        onCancel={() => setCodes(null)}
        okText={t('identity.done')}
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        <Typography.Paragraph>{t('identity.recoveryHint')}</Typography.Paragraph>
        <pre data-testid="recovery-codes" style={{ fontSize: 15 }}>
          {(codes ?? []).join('\n')}
        </pre>
      </Modal>
    </Card>
  );
}
