import { z } from 'zod';
import { AccessType, AccountRole } from '../enums/account.ts';
import { MENU_FLAGS } from '../enums/menu.ts';
import {
  validateAccountPassword,
  validateEmail,
  validateEmailCode,
  validateLoginAccount,
  validateNickname,
} from '../validators/account.ts';
import { checked } from '../validators/zod.ts';
import { DISPLAY_ROLES } from './team.ts';

const email = checked(z.string().trim().toLowerCase(), validateEmail);
const password = checked(z.string(), validateAccountPassword);
const emailCode = checked(z.string().trim(), validateEmailCode);

/**
 * The longest password a sign-in or confirmation field takes (login, old and current password).
 * New passwords are 6 to 32 characters (SPEC.md §5); the wider bound still keeps the argon2 work
 * a caller can cause before signing in small.
 */
export const PASSWORD_INPUT_MAX = 128;

export const CodePurpose = z.enum(['signup', 'reset']);
export type CodePurpose = z.infer<typeof CodePurpose>;

/** POST /api/v1/auth/codes — send a 6-digit email code. */
export const SendCodeBody = z.object({ email, purpose: CodePurpose });
export type SendCodeBody = z.infer<typeof SendCodeBody>;

/** POST /api/v1/auth/signup — the account is the email; signs in on success. */
export const SignUpBody = z.object({
  email,
  password,
  confirmPassword: z.string(),
  code: emailCode,
  /** The profile's rule (validateNickname); without it the nickname is taken from the email. */
  nick: checked(z.string().trim(), validateNickname).optional(),
});
export type SignUpBody = z.infer<typeof SignUpBody>;

/** POST /api/v1/auth/login */
export const LoginBody = z.object({
  account: checked(z.string().trim().toLowerCase(), validateLoginAccount),
  password: z.string().min(1, 'Password cannot be empty').max(PASSWORD_INPUT_MAX, 'The password is too long'),
  /** Keep the session beyond the browser session (cookie Max-Age). */
  remember: z.boolean().optional(),
  /** "Sign in here anyway": end the session of the account's other app (code 69; decision 0068). */
  force: z.boolean().optional(),
});
export type LoginBody = z.infer<typeof LoginBody>;

/** POST /api/v1/auth/reset — reset the password with an email code. */
export const ResetPasswordBody = z.object({ email, code: emailCode, password, confirmPassword: z.string() });
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

/**
 * POST /api/v1/auth/invitation — a subordinate account sets its first password with the one-time
 * link its invitation mail carries (7 days; an expired link answers 64, a used one 5435).
 */
export const INVITATION_TTL_DAYS = 7;
export const AcceptInvitationBody = z
  .object({
    email,
    token: z
      .string()
      .trim()
      .min(1, 'The invitation link is incomplete')
      .max(128, 'The invitation link is invalid'),
    password,
    confirmPassword: z.string(),
  })
  .strict();
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBody>;
/** The web page that takes the invitation link (email and token in its query). */
export const INVITATION_PAGE_PATH = '/set-password';

export const AccountView = z.object({
  id: z.number().int(),
  account: z.string(),
  nick: z.string(),
  email: z.string(),
  role: z.union([
    z.literal(AccountRole.NORMAL),
    z.literal(AccountRole.ENGINEER),
    z.literal(AccountRole.MANUFACTURER),
    z.literal(AccountRole.OPERATOR),
  ]),
  cloudId: z.string(),
  companyName: z.string(),
  companyLocation: z.string(),
  /** When each may next be changed (ISO time), null if it may be changed now. */
  companyNameLockedUntil: z.string().nullable(),
  companyLocationLockedUntil: z.string().nullable(),
  avatarUrl: z.string().nullable(),
  remindTags: z.array(z.string()),
  createdAt: z.string(),
  /** SPEC.md §6 display role (protocol displayRoleOf; docs/decisions/0059). */
  displayRole: z.enum(DISPLAY_ROLES),
  /** Subordinate accounts: the main account's id and the level (guest 0, admin 1); null otherwise. */
  parentId: z.number().int().nullable(),
  level: z.union([z.literal(0), z.literal(1)]).nullable(),
});
export type AccountView = z.infer<typeof AccountView>;

export const MenuFlagsView = z.object(
  Object.fromEntries(MENU_FLAGS.map((f) => [f, z.boolean()])) as Record<
    (typeof MENU_FLAGS)[number],
    z.ZodBoolean
  >,
);

/** GET /api/v1/auth/session, and the data of login and sign-up answers. */
export const SessionView = z.object({
  account: AccountView,
  accessType: z.enum([AccessType.WEB, AccessType.OPENAPI]),
  flags: MenuFlagsView,
  /** Idle time after which the web app logs out, in seconds (0 = never). */
  idleTimeoutSeconds: z.number().int(),
});
export type SessionView = z.infer<typeof SessionView>;
