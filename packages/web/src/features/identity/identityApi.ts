import { type PhoneLoginBody, IDENTITY_ROUTES as R, type SocialProvider } from '@beacon/protocol';
import { callRoute } from '../../api/route.ts';

/** Sign-in methods: the IDENTITY_ROUTES of the protocol. */
export const identityApi = {
  providers: () => callRoute(R.socialProviders, {}),
  start: (provider: SocialProvider, remember: boolean, force = false) =>
    callRoute(R.socialStart, { provider }, { body: force ? { remember, force } : { remember } }),
  phoneSignInCode: (regionCode: string, phone: string) =>
    callRoute(R.phoneSignInCode, {}, { body: { regionCode, phone } }),
  phoneLogin: (body: PhoneLoginBody) => callRoute(R.phoneLogin, {}, { body }),
  callback: (search: string) => callRoute(R.socialCallback, {}, { body: { search } }),
  secondFactor: (code: string) => callRoute(R.secondFactor, {}, { body: { code } }),
  security: () => callRoute(R.security, {}),
  bind: (provider: SocialProvider) => callRoute(R.bind, { provider }),
  unbind: (provider: SocialProvider) => callRoute(R.unbind, { provider }),
  singleSession: (enabled: boolean) => callRoute(R.singleSession, {}, { body: { enabled } }),
  setup: () => callRoute(R.twoFactorSetup, {}),
  enable: (code: string) => callRoute(R.twoFactorEnable, {}, { body: { code } }),
  disable: (code: string) => callRoute(R.twoFactorDisable, {}, { body: { code } }),
  recoveryCodes: (code: string) => callRoute(R.recoveryCodes, {}, { body: { code } }),
  sendSms: (regionCode: string, phone: string) =>
    callRoute(R.sendSmsCode, {}, { body: { regionCode, phone } }),
  verifyPhone: (regionCode: string, phone: string, code: string) =>
    callRoute(R.verifyPhone, {}, { body: { regionCode, phone, code } }),
  removePhone: () => callRoute(R.removePhone, {}),
};

export const SECURITY_KEY = ['account', 'security'] as const;
export const PROVIDERS_KEY = ['auth', 'social-providers'] as const;
