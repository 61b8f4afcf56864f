import { LockOutlined } from '@ant-design/icons';
import { LoginBody, needsSecondFactor, type SessionView } from '@beacon/protocol';
import { Alert, Button, Checkbox, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { api } from '../../api/index.ts';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';
import { carryNext, nextFromSearch } from '../../session/returnTo.ts';
import { landingFor, useStartSession } from '../../session/session.ts';
import { storage } from '../../storage/storage.ts';
import { SecondFactorForm } from '../identity/SecondFactorForm.tsx';
import { SocialButtons } from '../identity/SocialButtons.tsx';
import { AccountField } from './AccountField.tsx';
import { AuthCard } from './AuthCard.tsx';

interface LoginState {
  reason?: 'idle' | 'expired' | 'elsewhere';
  /** A social sign-in came back asking for the second factor (SocialCallbackPage). */
  secondFactor?: boolean;
}

export function LoginPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const navigate = useNavigate();
  const location = useLocation();
  const startSession = useStartSession();
  const { busy, run } = useFormSubmit(form);
  const state = (location.state ?? {}) as LoginState;
  const carried = carryNext(location.search, window.location.origin);
  const [secondFactor, setSecondFactor] = useState(state.secondFactor === true);

  const signedIn = (session: SessionView) => {
    startSession(session);
    const target = nextFromSearch(location.search, window.location.origin) ?? landingFor(session) ?? '/';
    navigate(target, { replace: true });
  };

  const onFinish = async (raw: Record<string, unknown>) => {
    const body = parseForm(LoginBody, blanks(raw, ['account', 'password']), form);
    if (!body) return;
    await run(async () => {
      const step = await api.login(body);
      if (needsSecondFactor(step)) setSecondFactor(true);
      else signedIn(step);
    });
  };

  if (secondFactor) {
    return (
      <AuthCard title={t('identity.secondFactorTitle')}>
        <SecondFactorForm onDone={signedIn} />
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('auth.loginTitle')}
      footer={
        <span>
          {t('auth.noAccount')}{' '}
          <Link to={`/signup${carried}`} data-testid="link-signup">
            {t('auth.createAccount')}
          </Link>
        </span>
      }
    >
      {state.reason === 'idle' ? (
        <Alert
          type="info"
          showIcon
          title={t('auth.idleLoggedOut')}
          style={{ marginBottom: 16 }}
          data-testid="idle-notice"
        />
      ) : state.reason === 'elsewhere' ? (
        <Alert
          type="warning"
          showIcon
          title={t('identity.loggedInElsewhere')}
          style={{ marginBottom: 16 }}
          data-testid="elsewhere-notice"
        />
      ) : state.reason === 'expired' ? (
        <Alert type="warning" showIcon title={t('auth.sessionExpired')} style={{ marginBottom: 16 }} />
      ) : null}
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={onFinish}
        initialValues={{ account: storage.getLastAccount() ?? '', password: '', remember: false }}
      >
        <AccountField name="account" autoComplete="username" testId="login-account" />
        <Form.Item name="password" label={t('auth.password')}>
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('auth.passwordPlaceholder')}
            autoComplete="current-password"
            data-testid="login-password"
          />
        </Form.Item>
        <div
          style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', marginBottom: 16 }}
        >
          <Form.Item name="remember" valuePropName="checked" noStyle>
            <Checkbox data-testid="login-remember">{t('auth.remember')}</Checkbox>
          </Form.Item>
          <Link to={`/reset-password${carried}`} data-testid="link-reset">
            {t('auth.forgot')}
          </Link>
        </div>
        <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
          {t('auth.login')}
        </Button>
      </Form>
      <SocialButtons remember={() => form.getFieldValue('remember') === true} />
    </AuthCard>
  );
}
