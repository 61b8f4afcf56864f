import type { SecurityView, SocialProvider } from '@beacon/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, List, Popconfirm, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { reportFailure } from '../../forms/useFormSubmit.ts';
import { showSuccess } from '../../state/feedback.ts';
import { identityApi, SECURITY_KEY } from './identityApi.ts';

/** Bound accounts (bind, unbind) and single-session mode. */
export function SignInMethodsCard({ security }: { security: SecurityView }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const saved = (view: SecurityView) => queryClient.setQueryData(SECURITY_KEY, view);
  const bind = useMutation({
    mutationFn: (provider: SocialProvider) => identityApi.bind(provider),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (e) => reportFailure(e),
  });
  const unbind = useMutation({
    mutationFn: (provider: SocialProvider) => identityApi.unbind(provider),
    onSuccess: (view, provider) => {
      saved(view);
      showSuccess(
        t('identity.unbound', { name: security.providers.find((p) => p.provider === provider)?.name }),
      );
    },
    onError: (e) => reportFailure(e),
  });
  const single = useMutation({
    mutationFn: (enabled: boolean) => identityApi.singleSession(enabled),
    onSuccess: saved,
    onError: (e) => reportFailure(e),
  });
  return (
    <Card title={t('identity.signInMethods')}>
      {!security.hasPassword ? (
        <Alert type="info" showIcon title={t('identity.noPassword')} style={{ marginBottom: 12 }} />
      ) : null}
      <List
        size="small"
        bordered
        dataSource={security.providers}
        renderItem={(p) => {
          const identity = security.identities.find((i) => i.provider === p.provider);
          return (
            <List.Item
              data-testid={`identity-${p.provider}`}
              actions={[
                identity ? (
                  <Popconfirm
                    key="unbind"
                    title={t('identity.unbindConfirm', { name: p.name })}
                    onConfirm={() => unbind.mutate(p.provider)}
                  >
                    <Button size="small" danger data-testid={`unbind-${p.provider}`}>
                      {t('identity.unbind')}
                    </Button>
                  </Popconfirm>
                ) : (
                  <Button
                    key="bind"
                    size="small"
                    disabled={!p.configured}
                    loading={bind.isPending && bind.variables === p.provider}
                    onClick={() => bind.mutate(p.provider)}
                    data-testid={`bind-${p.provider}`}
                  >
                    {t('identity.bind')}
                  </Button>
                ),
              ]}
            >
              <List.Item.Meta
                title={p.name}
                description={
                  identity
                    ? t('identity.bound', { label: identity.label })
                    : p.configured
                      ? t('identity.notBound')
                      : t('identity.notConfigured')
                }
              />
            </List.Item>
          );
        }}
      />
      <div style={{ display: 'flex', gap: 12, alignItems: 'flex-start', marginTop: 16 }}>
        <Switch
          checked={security.singleSession}
          loading={single.isPending}
          onChange={(on) => single.mutate(on)}
          aria-label={t('identity.singleSession')}
          data-testid="single-session"
        />
        <div>
          <Typography.Text strong>{t('identity.singleSession')}</Typography.Text>
          <br />
          <Typography.Text type="secondary">{t('identity.singleSessionHint')}</Typography.Text>
        </div>
      </div>
    </Card>
  );
}
