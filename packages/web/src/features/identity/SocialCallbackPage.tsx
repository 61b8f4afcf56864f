import {
  Codes,
  MESSAGING_PROVIDER,
  needsSecondFactor,
  SOCIAL_PROVIDERS,
  type SocialCallbackResult,
  type SocialProvider,
} from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { isApiError } from '../../api/index.ts';
import { reportFailure } from '../../forms/useFormSubmit.ts';
import { landingFor, useStartSession } from '../../session/session.ts';
import { errorText, showSuccess } from '../../state/feedback.ts';
import { AuthCard } from '../auth/AuthCard.tsx';
import { identityApi, SECURITY_KEY } from './identityApi.ts';

/** The provider of a landing path: /static/wechatTransfer or /static/socialTransfer/:provider. */
function providerOf(pathname: string): SocialProvider {
  const last = pathname.split('/').pop() ?? '';
  return (SOCIAL_PROVIDERS as readonly string[]).includes(last)
    ? (last as SocialProvider)
    : MESSAGING_PROVIDER;
}

/**
 * Where a provider sends the browser back (/static/wechatTransfer for the messaging app,
 * /static/socialTransfer/:provider for the others): hands the query to the server, which checks
 * state, nonce and PKCE, then signs in, asks for the second factor, or reports the binding.
 */
export function SocialCallbackPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const startSession = useStartSession();
  const [failure, setFailure] = useState<string | null>(null);
  const [bindFailed, setBindFailed] = useState(false);
  const [otherApp, setOtherApp] = useState(false);
  const [forcing, setForcing] = useState(false);
  const started = useRef(false);

  /** Code 69: the same provider again, "sign in here anyway" (decision 0068). */
  const signInAnyway = async () => {
    setForcing(true);
    try {
      const { url } = await identityApi.start(providerOf(location.pathname), false, true);
      window.location.assign(url);
    } catch (e) {
      reportFailure(e);
      setForcing(false);
    }
  };

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    (async () => {
      let done: SocialCallbackResult;
      try {
        done = await identityApi.callback(location.search);
      } catch (e) {
        setFailure(errorText(e));
        setOtherApp(isApiError(e) && e.code === Codes.OTHER_APP_ONLINE);
        // A signed-in browser was binding: offer the way back to the account page.
        setBindFailed(
          await identityApi.security().then(
            () => true,
            () => false,
          ),
        );
        return;
      }
      if (done.outcome === 'bound') {
        queryClient.invalidateQueries({ queryKey: SECURITY_KEY });
        showSuccess(t('identity.callbackBound', { name: done.identity.label }));
        navigate('/account', { replace: true });
      } else if (needsSecondFactor(done.step)) {
        navigate('/login', { replace: true, state: { secondFactor: true } });
      } else {
        startSession(done.step);
        navigate(landingFor(done.step) ?? '/', { replace: true });
      }
    })();
  }, [location.search, navigate, queryClient, startSession, t]);

  return (
    <AuthCard title={t('identity.callbackTitle')}>
      {failure ? (
        <Result
          status="warning"
          title={t('identity.callbackFailed')}
          subTitle={<span data-testid="social-error">{failure}</span>}
          extra={[
            otherApp ? (
              <Button
                key="anyway"
                type="primary"
                loading={forcing}
                onClick={signInAnyway}
                data-testid="sign-in-anyway"
              >
                {t('auth.signInAnyway')}
              </Button>
            ) : null,
            <Link key="back" to={bindFailed ? '/account' : '/login'}>
              <Button type="primary">
                {t(bindFailed ? 'identity.backToAccount' : 'identity.backToLogin')}
              </Button>
            </Link>,
          ]}
        />
      ) : (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin />
        </div>
      )}
    </AuthCard>
  );
}
