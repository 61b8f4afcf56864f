import { AcceptInvitationBody } from '@beacon/protocol';
import { Alert, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { api } from '../../api/index.ts';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';
import { showSuccess } from '../../state/feedback.ts';
import { storage } from '../../storage/storage.ts';
import { AuthCard } from './AuthCard.tsx';
import { checkConfirmation, PasswordFields } from './passwordFields.tsx';

/**
 * /set-password?email=…&token=…: the page of a subordinate account's invitation mail (decision
 * 0068). The link sets the first password once; then the account logs in with it.
 */
export function SetPasswordPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const navigate = useNavigate();
  const location = useLocation();
  const query = new URLSearchParams(location.search);
  const email = query.get('email') ?? '';
  const token = query.get('token') ?? '';
  const { busy, run } = useFormSubmit(form);

  const onFinish = async (raw: Record<string, unknown>) => {
    const values = { ...blanks(raw, ['password', 'confirmPassword']), email, token };
    const body = parseForm(AcceptInvitationBody, values, form);
    const same = checkConfirmation(form);
    if (!body || !same) return;
    await run(async () => {
      await api.acceptInvitation(body);
      storage.setLastAccount(body.email);
      showSuccess(t('auth.invitationDone'));
      navigate('/login', { replace: true });
    });
  };

  return (
    <AuthCard
      title={t('auth.invitationTitle')}
      footer={
        <Link to="/login" data-testid="link-login">
          {t('auth.backToLogin')}
        </Link>
      }
    >
      {!email || !token ? (
        <Alert
          type="error"
          showIcon
          title={t('auth.invitationIncomplete')}
          data-testid="invitation-incomplete"
        />
      ) : (
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={onFinish}
          initialValues={{ password: '', confirmPassword: '' }}
        >
          <Form.Item label={t('auth.account')} htmlFor="invitation-email">
            <Input
              id="invitation-email"
              value={email}
              readOnly
              data-testid="invitation-email"
              autoComplete="username"
            />
          </Form.Item>
          <PasswordFields testIdPrefix="invitation" newLabel={t('auth.newPassword')} />
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="invitation-submit">
            {t('auth.invitationSubmit')}
          </Button>
        </Form>
      )}
    </AuthCard>
  );
}
