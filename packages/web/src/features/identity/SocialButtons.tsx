import type { SocialProvider } from '@beacon/protocol';
import { useQuery } from '@tanstack/react-query';
import { Button, Divider, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { reportFailure } from '../../forms/useFormSubmit.ts';
import { identityApi, PROVIDERS_KEY } from './identityApi.ts';

/** The sign-in buttons of the configured providers (nothing when none is configured). */
export function SocialButtons({ remember }: { remember: () => boolean }) {
  const { t } = useTranslation();
  const providers = useQuery({ queryKey: PROVIDERS_KEY, queryFn: identityApi.providers, retry: false });
  const [busy, setBusy] = useState<SocialProvider | null>(null);
  const configured = (providers.data ?? []).filter((p) => p.configured);
  if (configured.length === 0) return null;
  const go = async (provider: SocialProvider) => {
    setBusy(provider);
    try {
      const { url } = await identityApi.start(provider, remember());
      window.location.assign(url);
    } catch (e) {
      reportFailure(e);
      setBusy(null);
    }
  };
  return (
    <>
      <Divider plain>{t('identity.orSignInWith')}</Divider>
      <Space direction="vertical" style={{ width: '100%' }}>
        {configured.map((p) => (
          <Button
            key={p.provider}
            block
            loading={busy === p.provider}
            onClick={() => go(p.provider)}
            data-testid={`social-${p.provider}`}
          >
            {t('identity.signInWith', { name: p.name })}
          </Button>
        ))}
      </Space>
    </>
  );
}
