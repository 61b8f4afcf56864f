import { MailOutlined } from '@ant-design/icons';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';

/** The account (email) input that opens every auth form. */
export function AccountField({
  name,
  testId,
  autoComplete,
}: {
  name: 'account' | 'email';
  testId: string;
  autoComplete: 'username' | 'email';
}) {
  const { t } = useTranslation();
  return (
    <Form.Item name={name} label={t('auth.account')}>
      <Input
        autoFocus
        prefix={<MailOutlined />}
        placeholder={t('auth.accountPlaceholder')}
        autoComplete={autoComplete}
        data-testid={testId}
      />
    </Form.Item>
  );
}
