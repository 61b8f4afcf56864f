import { SecondFactorBody } from '@beacon/protocol';
import { Alert, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';
import { identityApi } from './identityApi.ts';

/** The second step of a sign-in with two-factor sign-in on: a TOTP or a recovery code. */
export function SecondFactorForm({
  onDone,
}: {
  onDone: (session: Awaited<ReturnType<typeof identityApi.secondFactor>>) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const { busy, run } = useFormSubmit(form);
  const onFinish = async (raw: Record<string, unknown>) => {
    const body = parseForm(SecondFactorBody, blanks(raw, ['code']), form);
    if (!body) return;
    await run(async () => onDone(await identityApi.secondFactor(body.code)));
  };
  return (
    <Form form={form} layout="vertical" requiredMark={false} onFinish={onFinish} initialValues={{ code: '' }}>
      <Alert type="info" showIcon title={t('identity.secondFactorHint')} style={{ marginBottom: 16 }} />
      <Form.Item name="code" label={t('identity.secondFactorCode')}>
        <Input autoComplete="one-time-code" inputMode="text" autoFocus data-testid="second-factor-code" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="second-factor-submit">
        {t('identity.verify')}
      </Button>
    </Form>
  );
}
