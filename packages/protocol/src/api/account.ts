import { z } from 'zod';
import { validateAccountPassword, validateEmail, validateNickname } from '../validators/account.ts';
import { validateName } from '../validators/names.ts';
import { checked } from '../validators/zod.ts';
import { PASSWORD_INPUT_MAX } from './auth.ts';
import { Id } from './ids.ts';

/**
 * PATCH /api/v1/account — company name and location change once per year (codes 14, 15). Changing
 * the email needs `currentPassword` (the server answers 16 without it, 6 when it is wrong).
 */
export const UpdateProfileBody = z
  .object({
    nick: checked(z.string().trim(), validateNickname).optional(),
    email: checked(z.string().trim().toLowerCase(), validateEmail).optional(),
    currentPassword: z
      .string()
      .min(1, 'Enter your current password')
      .max(PASSWORD_INPUT_MAX, 'The password is too long')
      .optional(),
    companyName: z.string().trim().min(1).max(64).optional(),
    companyLocation: z.string().trim().min(1).max(64).optional(),
    remindTags: z.array(z.string().max(32)).max(20).optional(),
  })
  .strict();
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;

/** POST /api/v1/account/password */
export const ChangePasswordBody = z.object({
  oldPassword: z.string().min(1).max(PASSWORD_INPUT_MAX, 'The password is too long'),
  password: checked(z.string(), validateAccountPassword),
  confirmPassword: z.string(),
  /** A password change ends every API key unless the user chooses to keep them (decision 0023). */
  keepApiKeys: z.boolean().default(false),
});
export type ChangePasswordBody = z.input<typeof ChangePasswordBody>;

/** Custom scenarios: /api/v1/account/scenarios (at most 20 per account). */
export const ScenarioBody = z.object({
  name: checked(z.string().trim(), (v) => validateName(v, 'Scenario name', 32)),
});
export type ScenarioBody = z.infer<typeof ScenarioBody>;
export const ScenarioView = z.object({ id: z.number().int(), name: z.string(), createdAt: z.string() });
export type ScenarioView = z.infer<typeof ScenarioView>;

/** What an API key may do (docs/decisions/0058): call GET routes only, or change things too. */
export const ApiKeyScope = { READ: 'read', READ_WRITE: 'read-write' } as const;
export type ApiKeyScope = (typeof ApiKeyScope)[keyof typeof ApiKeyScope];
/** Calls per minute an API key gets unless its creator sets another figure. */
export const API_KEY_DEFAULT_RATE = 600;
export const API_KEY_MAX_RATE = 6000;
/** A key limited to projects names at most this many. */
export const API_KEY_MAX_PROJECTS = 100;

/**
 * OpenAPI access keys: /api/v1/account/api-keys. The secret is shown once, at creation. A key is
 * read-only unless asked otherwise, reaches every project of the account unless `projectIds` lists
 * some (absent: every project), lives until deleted unless `expiresAt` is set, and gets `ratePerMinute` calls a minute.
 */
export const ApiKeyBody = z
  .object({
    name: checked(z.string().trim(), (v) => validateName(v, 'Key name', 32)),
    scope: z.enum([ApiKeyScope.READ, ApiKeyScope.READ_WRITE]).default(ApiKeyScope.READ),
    projectIds: z
      .array(Id)
      .min(1, 'Choose at least one project, or leave the list out for every project')
      .max(API_KEY_MAX_PROJECTS)
      .optional(),
    expiresAt: z.iso.datetime({ offset: true }).optional(),
    ratePerMinute: z.int().min(1).max(API_KEY_MAX_RATE).default(API_KEY_DEFAULT_RATE),
  })
  .strict();
export type ApiKeyBody = z.input<typeof ApiKeyBody>;
export const ApiKeyView = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string(),
  scope: z.enum([ApiKeyScope.READ, ApiKeyScope.READ_WRITE]),
  /** null: every project the account can see. */
  projectIds: z.array(z.number().int()).nullable(),
  expiresAt: z.string().nullable(),
  ratePerMinute: z.number().int(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKeyView = z.infer<typeof ApiKeyView>;
export const ApiKeyCreated = ApiKeyView.extend({ key: z.string() });
