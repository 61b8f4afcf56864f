import { LockOutlined } from '@ant-design/icons';
import { Codes, LoginBody, needsSecondFactor, type SessionView, type SignInStep } from '@beacon/protocol';
import { Alert, Button, Checkbox, Form, Input, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { api, isApiError } from '../../api/index.ts';
import { useFormSubmit } from '../../forms/useFormSubmit.ts';
import { blanks, parseForm } from '../../forms/zodForm.ts';
import { carryNext, nextFromSearch } from '../../session/returnTo.ts';
import { landingFor, useStartSession } from '../../session/session.ts';
import { storage } from '../../storage/storage.ts';
import { SecondFactorForm } from '../identity/SecondFactorForm.tsx';
import { SocialButtons } from '../identity/SocialButtons.tsx';
import { AccountField } from './AccountField.tsx';
import { AuthCard } from './AuthCard.tsx';
import { PhoneSignInForm } from './PhoneSignInForm.tsx';

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
  // Code 69: the account is online in its other app; the user may sign in here anyway (decision 0068).
  const [otherApp, setOtherApp] = useState<(() => Promise<void>) | null>(null);
  const { busy: forcing, run: runForce } = useFormSubmit();

  const signedIn = (session: SessionView) => {
    startSession(session);
    const target = nextFromSearch(location.search, window.location.origin) ?? landingFor(session) ?? '/';
    navigate(target, { replace: true });
  };

  const finish = (step: SignInStep) => {
    if (needsSecondFactor(step)) setSecondFactor(true);
    else signedIn(step);
  };

  /** Runs a sign-in call; on 69 it offers to run it again with `force` instead of failing. */
  const signIn = async (call: (force: boolean) => Promise<SignInStep>): Promise<void> => {
    setOtherApp(null);
    try {
      finish(await call(false));
    } catch (e) {
      if (!isApiError(e) || e.code !== Codes.OTHER_APP_ONLINE) throw e;
      setOtherApp(() => async () => {
        await runForce(async () => {
          finish(await call(true));
          setOtherApp(null);
        });
      });
    }
  };

  const onFinish = async (raw: Record<string, unknown>) => {
    const body = parseForm(LoginBody, blanks(raw, ['account', 'password']), form);
    if (!body) return;
    await run(() => signIn((force) => api.login(force ? { ...body, force } : body)));
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
      {otherApp ? (
        <Alert
          type="warning"
          showIcon
          title={t('auth.otherAppOnline')}
          style={{ marginBottom: 16 }}
          data-testid="other-app-notice"
          action={
            <Button
              size="small"
              type="primary"
              loading={forcing}
              onClick={otherApp}
              data-testid="sign-in-anyway"
            >
              {t('auth.signInAnyway')}
            </Button>
          }
        />
      ) : null}
      <Tabs
        defaultActiveKey="email"
        onChange={() => setOtherApp(null)}
        items={[
          {
            key: 'email',
            label: <span data-testid="login-tab-email">{t('auth.emailTab')}</span>,
            children: (
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
                  style={{
                    display: 'flex',
                    justifyContent: 'space-between',
                    alignItems: 'center',
                    marginBottom: 16,
                  }}
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
            ),
          },
          {
            key: 'phone',
            label: <span data-testid="login-tab-phone">{t('auth.phoneTab')}</span>,
            children: <PhoneSignInForm signIn={signIn} />,
          },
        ]}
      />
      <SocialButtons remember={() => form.getFieldValue('remember') === true} />
    </AuthCard>
  );
}
