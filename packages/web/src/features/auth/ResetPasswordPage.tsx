import { ResetPasswordBody } from '@beacon/protocol';
import { Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { api } from '../../api/index.ts';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';
import { carryNext } from '../../session/returnTo.ts';
import { showSuccess } from '../../state/feedback.ts';
import { AccountField } from './AccountField.tsx';
import { AuthCard } from './AuthCard.tsx';
import { checkConfirmation, PasswordFields } from './passwordFields.tsx';
import { SendCodeField } from './SendCodeField.tsx';

export function ResetPasswordPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const navigate = useNavigate();
  const location = useLocation();
  const toLogin = `/login${carryNext(location.search, window.location.origin)}`;
  const { busy, run } = useFormSubmit(form);

  const onFinish = async (raw: Record<string, unknown>) => {
    const values = blanks(raw, ['email', 'code', 'password', 'confirmPassword']);
    const body = parseForm(ResetPasswordBody, values, form);
    const same = checkConfirmation(form);
    if (!body || !same) return;
    await run(async () => {
      await api.resetPassword(body);
      showSuccess(t('auth.resetDone'));
      navigate(toLogin, { replace: true });
    });
  };

  return (
    <AuthCard
      title={t('auth.resetTitle')}
      footer={
        <Link to={toLogin} data-testid="link-login">
          {t('auth.backToLogin')}
        </Link>
      }
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        initialValues={{ email: '', code: '', password: '', confirmPassword: '' }}
      >
        <AccountField name="email" autoComplete="email" testId="reset-email" />
        <SendCodeField form={form} purpose="reset" testIdPrefix="reset" />
        <PasswordFields testIdPrefix="reset" newLabel={t('auth.newPassword')} />
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="reset-submit">
          {t('auth.reset')}
        </Button>
      </Form>
    </AuthCard>
  );
}
