import { z } from 'zod';
import { Codes } from '../errors.ts';
import { validateSmsCode } from '../validators/account.ts';
import { type Check, invalid } from '../validators/result.ts';
import { checked } from '../validators/zod.ts';
import { PASSWORD_INPUT_MAX, SessionView } from './auth.ts';

/**
 * Sign-in methods beyond the password (server auth/oidc.ts, auth/totp.ts, auth/sms.ts; web
 * features/account/SecurityCard and features/auth/SocialCallbackPage): external identities bound
 * through OpenID Connect, single-session mode, two-factor sign-in (TOTP) and SMS phone verification.
 * docs/decisions/0056-social-sign-in.md, 0057-second-factor-and-single-session.md.
 */

/**
 * SPEC.md §1: a messaging app and two social networks. Each slot is any OpenID Connect provider,
 * configured by environment variables (README): OIDC_WECHAT_*, OIDC_GOOGLE_*, OIDC_FACEBOOK_*.
 */
export const SOCIAL_PROVIDERS = ['wechat', 'google', 'facebook'] as const;
export const SocialProvider = z.enum(SOCIAL_PROVIDERS);
export type SocialProvider = z.infer<typeof SocialProvider>;
/** The messaging app: its sign-in lands on /static/wechatTransfer (SPEC.md §2). */
export const MESSAGING_PROVIDER: SocialProvider = 'wechat';
/** The web routes a provider sends the browser back to (the redirect URI registered with it). */
export function socialLandingPath(provider: SocialProvider): string {
  return provider === MESSAGING_PROVIDER ? '/static/wechatTransfer' : `/static/socialTransfer/${provider}`;
}

export const SocialProviderParams = z.object({ provider: SocialProvider });

/** POST /auth/social/:provider/start — sign in (or sign up) with an external identity. */
export const SocialStartBody = z
  .object({ remember: z.boolean().optional(), force: z.boolean().optional() })
  .strict();
/** Where the browser goes next: the provider's authorization URL (state, nonce and PKCE inside). */
export const SocialRedirect = z.object({ url: z.string() });
export type SocialRedirect = z.infer<typeof SocialRedirect>;

/** POST /auth/social/callback — the query string the provider sent the browser back with. */
export const SocialCallbackBody = z
  .object({ search: z.string().max(4096, 'The answer of the provider is too long') })
  .strict();
export type SocialCallbackBody = z.infer<typeof SocialCallbackBody>;

/** The second factor is still needed: POST /auth/second-factor finishes the sign-in. */
export const SecondFactorNeeded = z.object({ secondFactor: z.literal(true), expiresAt: z.string() });
export type SecondFactorNeeded = z.infer<typeof SecondFactorNeeded>;

/** The end of a sign-in step: signed in, or a second factor is needed. */
export const SignInStep = z.union([SessionView, SecondFactorNeeded]);
export type SignInStep = z.infer<typeof SignInStep>;
export const needsSecondFactor = (step: SignInStep): step is SecondFactorNeeded => 'secondFactor' in step;

export const IdentityView = z.object({
  provider: SocialProvider,
  /** What the provider calls the person (name or email), for the list. */
  label: z.string(),
  boundAt: z.string(),
});
export type IdentityView = z.infer<typeof IdentityView>;

/** The answer of the callback: what happened, with the session when it signed in. */
export const SocialCallbackResult = z.discriminatedUnion('outcome', [
  z.object({ outcome: z.literal('signedIn'), step: SignInStep }),
  z.object({ outcome: z.literal('bound'), identity: IdentityView }),
]);
export type SocialCallbackResult = z.infer<typeof SocialCallbackResult>;

/** POST /auth/second-factor — a 6-digit authenticator code or a recovery code (xxxx-xxxx). */
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
const TOTP_CODE = /^\d{6}$/;
const RECOVERY_CODE = /^[a-z0-9]{4}-?[a-z0-9]{4}$/;
export function validateSecondFactorCode(value: string): Check {
  return TOTP_CODE.test(value) || RECOVERY_CODE.test(value)
    ? null
    : invalid(Codes.VERIFICATION, 'Enter the 6-digit code of your authenticator app or a recovery code');
}
export function validateTotpCode(value: string): Check {
  return TOTP_CODE.test(value)
    ? null
    : invalid(Codes.VERIFICATION, 'Enter the 6-digit code of your authenticator app');
}
const secondFactorCode = checked(z.string().trim().toLowerCase(), validateSecondFactorCode);
export const SecondFactorBody = z.object({ code: secondFactorCode }).strict();
export type SecondFactorBody = z.infer<typeof SecondFactorBody>;

/** POST /account/two-factor/setup — a new secret, not yet on until confirmed with a code. */
export const TwoFactorSetupView = z.object({ secret: z.string(), uri: z.string() });
export type TwoFactorSetupView = z.infer<typeof TwoFactorSetupView>;
/** Enabling needs a code of the new secret; disabling or new recovery codes a current code. */
export const TwoFactorCodeBody = z
  .object({
    code: checked(z.string().trim(), validateTotpCode),
  })
  .strict();
export const RecoveryCodesView = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesView = z.infer<typeof RecoveryCodesView>;

/** Default region code (SPEC.md §9) and the phone number rules (ITU-T E.164: at most 15 digits). */
export const DEFAULT_REGION_CODE = '86';
export function validateRegionCode(value: string): Check {
  return /^[1-9]\d{0,3}$/.test(value)
    ? null
    : invalid(Codes.FORM_DATA, 'Enter a region code of 1 to 4 digits');
}
export function validatePhoneNumber(value: string): Check {
  return /^\d{4,14}$/.test(value) ? null : invalid(Codes.FORM_DATA, 'Enter a phone number of 4 to 14 digits');
}
const regionCode = checked(z.string().trim(), validateRegionCode).default(DEFAULT_REGION_CODE);
const phone = checked(z.string().trim(), validatePhoneNumber);

/** POST /account/phone/code — send a 4-digit SMS code (limits 53, 51, 52 as for email). */
export const SendSmsCodeBody = z.object({ regionCode, phone }).strict();
export type SendSmsCodeBody = z.input<typeof SendSmsCodeBody>;
/** PUT /account/phone — the phone number, verified by its SMS code. */
export const VerifyPhoneBody = z
  .object({ regionCode, phone, code: checked(z.string().trim(), validateSmsCode) })
  .strict();
export type VerifyPhoneBody = z.input<typeof VerifyPhoneBody>;

/**
 * POST /auth/phone/code — a 4-digit SMS code to sign in with a verified phone number. The answer is
 * the same whether or not an account has verified the number (no SMS then), with the same limits.
 */
export const PhoneSignInCodeBody = z.object({ regionCode, phone }).strict();
export type PhoneSignInCodeBody = z.input<typeof PhoneSignInCodeBody>;

/**
 * POST /auth/phone/login — a verified phone number with the account's password or an SMS code
 * (exactly one of them); then the second factor when it is on, as for the email (decision 0068).
 */
export const PhoneLoginBody = z
  .object({
    regionCode,
    phone,
    password: z
      .string()
      .min(1, 'Password cannot be empty')
      .max(PASSWORD_INPUT_MAX, 'The password is too long')
      .optional(),
    code: checked(z.string().trim(), validateSmsCode).optional(),
    remember: z.boolean().optional(),
    force: z.boolean().optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.password === undefined) === (body.code === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['password'],
        message: 'Enter the password or the SMS code',
        params: { code: Codes.FORM_DATA },
      });
    }
  });
export type PhoneLoginBody = z.input<typeof PhoneLoginBody>;

/**
 * The kind of client a session belongs to (decision 0068): the web console, or another app that
 * says so with this request header at sign-in. In single-session mode, signing in while the
 * account is online in the other kind of client answers 69 unless the sign-in says `force`.
 */
export const SIGN_IN_CLIENT_HEADER = 'x-beacon-client';
export const SIGN_IN_CLIENTS = ['web', 'app'] as const;
export type SignInClient = (typeof SIGN_IN_CLIENTS)[number];
export function signInClientOf(header: string | string[] | undefined): SignInClient {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.trim().toLowerCase() === 'app' ? 'app' : 'web';
}

/** PUT /account/single-session */
export const SingleSessionBody = z.object({ enabled: z.boolean() }).strict();

export const ProviderView = z.object({ provider: SocialProvider, name: z.string(), configured: z.boolean() });

/** GET /account/security — every way to sign in and its safeguards. */
export const SecurityView = z.object({
  hasPassword: z.boolean(),
  identities: z.array(IdentityView),
  providers: z.array(ProviderView),
  singleSession: z.boolean(),
  twoFactor: z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number().int() }),
  phone: z.object({ regionCode: z.string(), phone: z.string(), verifiedAt: z.string() }).nullable(),
});
export type SecurityView = z.infer<typeof SecurityView>;
