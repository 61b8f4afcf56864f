import { SignUpBody } from '@beacon/protocol';
import { Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { api } from '../../api/index.ts';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';
import { carryNext, nextFromSearch } from '../../session/returnTo.ts';
import { landingFor, useStartSession } from '../../session/session.ts';
import { showSuccess } from '../../state/feedback.ts';
import { AccountField } from './AccountField.tsx';
import { AuthCard } from './AuthCard.tsx';
import { checkConfirmation, PasswordFields } from './passwordFields.tsx';
import { SendCodeField } from './SendCodeField.tsx';

export function SignUpPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const navigate = useNavigate();
  const location = useLocation();
  const startSession = useStartSession();
  const { busy, run } = useFormSubmit(form);

  const onFinish = async (raw: Record<string, unknown>) => {
    const values = blanks(raw, ['email', 'code', 'password', 'confirmPassword']);
    const body = parseForm(SignUpBody, values, form);
    const same = checkConfirmation(form);
    if (!body || !same) return;
    await run(async () => {
      const session = await api.signUp(body);
      startSession(session);
      showSuccess(t('auth.signupDone'));
      navigate(nextFromSearch(location.search, window.location.origin) ?? landingFor(session) ?? '/', {
        replace: true,
      });
    });
  };

  return (
    <AuthCard
      title={t('auth.signupTitle')}
      footer={
        <span>
          {t('auth.haveAccount')}{' '}
          <Link to={`/login${carryNext(location.search, window.location.origin)}`} data-testid="link-login">
            {t('auth.login')}
          </Link>
        </span>
      }
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        initialValues={{ email: '', code: '', password: '', confirmPassword: '' }}
      >
        <AccountField name="email" autoComplete="email" testId="signup-email" />
        <SendCodeField form={form} purpose="signup" testIdPrefix="signup" />
        <PasswordFields testIdPrefix="signup" />
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="signup-submit">
          {t('auth.signup')}
        </Button>
      </Form>
    </AuthCard>
  );
}
