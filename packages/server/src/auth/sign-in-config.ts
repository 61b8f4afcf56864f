import { SOCIAL_PROVIDERS, type SocialProvider } from '@beacon/protocol';

/**
 * One provider slot (SPEC.md §1: a messaging app and two social networks), from the environment:
 * OIDC_<SLOT>_ISSUER, OIDC_<SLOT>_CLIENT_ID, OIDC_<SLOT>_CLIENT_SECRET, and optionally
 * OIDC_<SLOT>_NAME (what the buttons say) and, for a provider without a discovery document,
 * OIDC_<SLOT>_AUTHORIZATION_URL, _TOKEN_URL, _JWKS_URL and _USERINFO_URL (then ISSUER is only
 * what its ID tokens' `iss` must say). README.md lists them.
 */
export interface SocialProviderConfig {
  provider: SocialProvider;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  endpoints?: { authorization: string; token: string; jwks: string; userinfo?: string };
  scope: string;
}

export interface SignInConfig {
  socialProviders: SocialProviderConfig[];
  /** Where SMS go (POST {to, text} as JSON): a relay to any SMS provider. Unset: the outbox only. */
  smsWebhookUrl: string | undefined;
}

const DEFAULT_NAMES: Record<SocialProvider, string> = {
  wechat: 'WeChat',
  google: 'Google',
  facebook: 'Facebook',
};

export function loadSignInConfig(env: NodeJS.ProcessEnv): SignInConfig {
  const socialProviders: SocialProviderConfig[] = [];
  for (const provider of SOCIAL_PROVIDERS) {
    const v = (name: string) => env[`OIDC_${provider.toUpperCase()}_${name}`] || undefined;
    const issuer = v('ISSUER');
    const clientId = v('CLIENT_ID');
    if (!issuer || !clientId) continue;
    const authorization = v('AUTHORIZATION_URL');
    const token = v('TOKEN_URL');
    const jwks = v('JWKS_URL');
    if ((authorization || token || jwks) && !(authorization && token && jwks)) {
      throw new Error(
        `OIDC_${provider.toUpperCase()}_AUTHORIZATION_URL, _TOKEN_URL and _JWKS_URL go together (or none, to discover them from the issuer)`,
      );
    }
    socialProviders.push({
      provider,
      name: v('NAME') ?? DEFAULT_NAMES[provider],
      issuer,
      clientId,
      clientSecret: v('CLIENT_SECRET') ?? '',
      endpoints:
        authorization && token && jwks
          ? { authorization, token, jwks, userinfo: v('USERINFO_URL') }
          : undefined,
      scope: v('SCOPE') ?? 'openid email profile',
    });
  }
  return { socialProviders, smsWebhookUrl: env.SMS_WEBHOOK_URL || undefined };
}
