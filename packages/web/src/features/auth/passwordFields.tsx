import { LockOutlined } from '@ant-design/icons';
import { validatePasswordConfirmation } from '@beacon/protocol';
import { Form, type FormInstance, Input } from 'antd';
import { useTranslation } from 'react-i18next';

/** Confirmation must match the password: "Inconsistent passwords" (SPEC.md §5). */
export function checkConfirmation(
  form: FormInstance,
  passwordField = 'password',
  confirmField = 'confirmPassword',
) {
  const failure = validatePasswordConfirmation(
    String(form.getFieldValue(passwordField) ?? ''),
    String(form.getFieldValue(confirmField) ?? ''),
  );
  if (failure) {
    form.setFields([{ name: confirmField, errors: [failure.message] }]);
    return false;
  }
  return true;
}

export function PasswordFields({ testIdPrefix, newLabel }: { testIdPrefix: string; newLabel?: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="password" label={newLabel ?? t('auth.password')}>
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={t('auth.passwordPlaceholder')}
          autoComplete="new-password"
          data-testid={`${testIdPrefix}-password`}
        />
      </Form.Item>
      <Form.Item name="confirmPassword" label={t('auth.confirmPassword')}>
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={t('auth.confirmPlaceholder')}
          autoComplete="new-password"
          data-testid={`${testIdPrefix}-confirm`}
        />
      </Form.Item>
    </>
  );
}
