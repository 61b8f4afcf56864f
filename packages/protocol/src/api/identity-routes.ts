import { z } from 'zod';
import { SessionView } from './auth.ts';
import {
  PhoneLoginBody,
  PhoneSignInCodeBody,
  ProviderView,
  RecoveryCodesView,
  SecondFactorBody,
  SecurityView,
  SendSmsCodeBody,
  SignInStep,
  SingleSessionBody,
  SocialCallbackBody,
  SocialCallbackResult,
  SocialProviderParams,
  SocialRedirect,
  SocialStartBody,
  TwoFactorCodeBody,
  TwoFactorSetupView,
  VerifyPhoneBody,
} from './identity.ts';
import type { RouteContract } from './route-contract.ts';

/**
 * Sign-in methods (server src/auth/oidc.ts, two-factor.ts, sms.ts; web features/account/Security*,
 * features/auth/SocialCallbackPage): social sign-in and binding, the second factor, single-session
 * mode, the phone number verified by SMS. The /auth routes answer without an account; the /account
 * routes need one, from the web console (an API key answers 5090).
 */
export const IDENTITY_ROUTES = {
  socialProviders: { method: 'GET', path: '/auth/social/providers', response: z.array(ProviderView) },
  socialStart: {
    method: 'POST',
    path: '/auth/social/:provider/start',
    params: SocialProviderParams,
    body: SocialStartBody,
    response: SocialRedirect,
  },
  socialCallback: {
    method: 'POST',
    path: '/auth/social/callback',
    body: SocialCallbackBody,
    response: SocialCallbackResult,
  },
  phoneSignInCode: {
    method: 'POST',
    path: '/auth/phone/code',
    body: PhoneSignInCodeBody,
    response: z.null(),
  },
  /** Signed in, or the second factor is needed (as AUTH_ROUTES.login). */
  phoneLogin: { method: 'POST', path: '/auth/phone/login', body: PhoneLoginBody, response: SignInStep },
  secondFactor: {
    method: 'POST',
    path: '/auth/second-factor',
    body: SecondFactorBody,
    response: SessionView,
  },

  security: { method: 'GET', path: '/account/security', response: SecurityView },
  bind: {
    method: 'POST',
    path: '/account/identities/:provider',
    params: SocialProviderParams,
    response: SocialRedirect,
  },
  unbind: {
    method: 'DELETE',
    path: '/account/identities/:provider',
    params: SocialProviderParams,
    response: SecurityView,
  },
  singleSession: {
    method: 'PUT',
    path: '/account/single-session',
    body: SingleSessionBody,
    response: SecurityView,
  },
  twoFactorSetup: { method: 'POST', path: '/account/two-factor/setup', response: TwoFactorSetupView },
  twoFactorEnable: {
    method: 'POST',
    path: '/account/two-factor/enable',
    body: TwoFactorCodeBody,
    response: RecoveryCodesView,
  },
  twoFactorDisable: {
    method: 'POST',
    path: '/account/two-factor/disable',
    body: SecondFactorBody,
    response: SecurityView,
  },
  recoveryCodes: {
    method: 'POST',
    path: '/account/two-factor/recovery-codes',
    body: TwoFactorCodeBody,
    response: RecoveryCodesView,
  },
  sendSmsCode: { method: 'POST', path: '/account/phone/code', body: SendSmsCodeBody, response: z.null() },
  verifyPhone: { method: 'PUT', path: '/account/phone', body: VerifyPhoneBody, response: SecurityView },
  removePhone: { method: 'DELETE', path: '/account/phone', response: SecurityView },
} as const satisfies Record<string, RouteContract>;
