import { ChangePasswordBody } from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Checkbox, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/index.ts';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';
import { showSuccess } from '../../state/feedback.ts';
import { withLoadState } from '../../state/store.ts';
import { checkConfirmation } from '../auth/passwordFields.tsx';

import { API_KEYS_KEY } from './accountCache.ts';

/** The password change ends every API key unless "keep" is ticked (off by default; decision 0023). */
export function PasswordCard() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const queryClient = useQueryClient();
  const { busy, run } = useFormSubmit(form);
  const onFinish = async (raw: Record<string, unknown>) => {
    const values = blanks(raw, ['oldPassword', 'password', 'confirmPassword']);
    const body = parseForm(ChangePasswordBody, { ...values, keepApiKeys: raw.keepApiKeys === true }, form);
    const same = checkConfirmation(form);
    if (!body || !same) return;
    await run(async () => {
      await withLoadState('saving', () => api.changePassword(body));
      form.resetFields();
      showSuccess(t(body.keepApiKeys ? 'account.passwordChanged' : 'account.passwordChangedKeysEnded'));
      queryClient.invalidateQueries({ queryKey: API_KEYS_KEY });
    });
  };
  return (
    <Card title={t('account.password')}>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        initialValues={{ oldPassword: '', password: '', confirmPassword: '', keepApiKeys: false }}
      >
        <Form.Item name="oldPassword" label={t('account.oldPassword')}>
          <Input.Password autoComplete="current-password" data-testid="password-old" />
        </Form.Item>
        <Form.Item name="password" label={t('account.newPassword')}>
          <Input.Password autoComplete="new-password" data-testid="password-new" />
        </Form.Item>
        <Form.Item name="confirmPassword" label={t('account.confirmPassword')}>
          <Input.Password autoComplete="new-password" data-testid="password-confirm" />
        </Form.Item>
        <Form.Item name="keepApiKeys" valuePropName="checked" extra={t('account.keepApiKeysHint')}>
          <Checkbox data-testid="password-keep-api-keys">{t('account.keepApiKeys')}</Checkbox>
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} data-testid="password-submit">
          {t('account.changePassword')}
        </Button>
      </Form>
    </Card>
  );
}
