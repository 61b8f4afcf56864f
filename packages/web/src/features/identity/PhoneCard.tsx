import { DEFAULT_REGION_CODE, type SecurityView, SendSmsCodeBody, VerifyPhoneBody } from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { reportFailure, useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';
import { showSuccess } from '../../state/feedback.ts';
import { identityApi, SECURITY_KEY } from './identityApi.ts';

/** The phone number, verified by a 4-digit SMS code (region code 86 by default). */
export function PhoneCard({ security }: { security: SecurityView }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const { busy, run } = useFormSubmit(form);
  const values = () => blanks(form.getFieldsValue(), ['regionCode', 'phone', 'code']);
  const send = async () => {
    const body = parseForm(SendSmsCodeBody, { regionCode: values().regionCode, phone: values().phone }, form);
    if (!body) return;
    await run(async () => {
      await identityApi.sendSms(body.regionCode, body.phone);
      showSuccess(t('identity.smsSent'));
    });
  };
  const onFinish = async () => {
    const body = parseForm(VerifyPhoneBody, values(), form);
    if (!body) return;
    await run(async () => {
      queryClient.setQueryData(
        SECURITY_KEY,
        await identityApi.verifyPhone(body.regionCode, body.phone, body.code),
      );
      form.resetFields();
    });
  };
  const remove = async () => {
    try {
      queryClient.setQueryData(SECURITY_KEY, await identityApi.removePhone());
    } catch (e) {
      reportFailure(e);
    }
  };
  return (
    <Card title={t('identity.phone')}>
      <Space style={{ marginBottom: 12 }} wrap>
        <Typography.Text type="secondary" data-testid="phone-state">
          {security.phone ? t('identity.phoneVerified', security.phone) : t('identity.phoneNone')}
        </Typography.Text>
        {security.phone ? (
          <Button size="small" onClick={remove}>
            {t('identity.removePhone')}
          </Button>
        ) : null}
      </Space>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        initialValues={{ regionCode: DEFAULT_REGION_CODE, phone: '', code: '' }}
      >
        <Space.Compact block>
          <Form.Item name="regionCode" label={t('identity.regionCode')} style={{ width: 110 }}>
            <Input prefix="+" inputMode="numeric" data-testid="phone-region" />
          </Form.Item>
          <Form.Item name="phone" label={t('identity.phoneNumber')} style={{ flex: 1 }}>
            <Input inputMode="numeric" autoComplete="tel-national" data-testid="phone-number" />
          </Form.Item>
        </Space.Compact>
        <Form.Item name="code" label={t('identity.smsCode')}>
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            style={{ maxWidth: 200 }}
            data-testid="phone-code"
            addonAfter={
              <Button type="link" size="small" onClick={send} style={{ padding: 0 }} data-testid="phone-send">
                {t('identity.sendSms')}
              </Button>
            }
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="phone-verify">
          {t('identity.verifyPhone')}
        </Button>
      </Form>
    </Card>
  );
}
