import { useQueryClient } from '@tanstack/react-query';
import { Button, Result, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { api } from '../../api/index.ts';
import { selectProject } from '../../session/currentProject.ts';
import { gateContext, SESSION_KEY } from '../../session/session.ts';
import { readTransferParams, transferTarget } from '../../session/transfer.ts';
import { errorText, showError } from '../../state/feedback.ts';
import { loadState } from '../../state/store.ts';
import { storage } from '../../storage/storage.ts';
import { AuthCard } from '../auth/AuthCard.tsx';

/** /static/transfer?token=&project=&page= — an openapi handoff into the console. */
export function TransferPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const params = readTransferParams(location.search);
    if (!params.token) {
      setFailure(t('static.transferMissing'));
      return;
    }
    storage.setToken(params.token);
    storage.setAccessType('openapi');
    loadState.set('jumping');
    (async () => {
      try {
        const session = await api.session();
        queryClient.setQueryData(SESSION_KEY, session);
        let netMode: number | undefined;
        if (params.projectId !== null) {
          const project = await api.project(params.projectId);
          selectProject(project);
          netMode = project.netMode;
        }
        const target = transferTarget(params.page, gateContext(session, netMode));
        if (!target) {
          setFailure(t('static.noLanding'));
          return;
        }
        navigate(target, { replace: true });
      } catch (e) {
        const text = errorText(e);
        showError(text);
        setFailure(text);
      } finally {
        loadState.set('end');
      }
    })();
  }, [location.search, navigate, queryClient, t]);

  return (
    <AuthCard title={t('static.transferTitle')}>
      {failure ? (
        <Result
          status="warning"
          title={t('static.transferFailed')}
          subTitle={<span data-testid="transfer-error">{failure}</span>}
          extra={
            <Link to="/login">
              <Button type="primary">{t('static.backToConsole')}</Button>
            </Link>
          }
        />
      ) : (
        <div style={{ textAlign: 'center', padding: 24 }}>
          <Spin />
        </div>
      )}
    </AuthCard>
  );
}

export function InfoPage({ titleKey, textKey }: { titleKey: string; textKey: string }) {
  const { t } = useTranslation();
  return (
    <AuthCard title={t(titleKey)}>
      <p style={{ color: 'rgba(0,0,0,0.65)' }}>{t(textKey)}</p>
      <Link to="/" data-testid="back-to-console">
        <Button type="primary" block>
          {t('static.backToConsole')}
        </Button>
      </Link>
    </AuthCard>
  );
}
