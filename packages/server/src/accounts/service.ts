import {
  type AccountView,
  ApiKeyBody,
  type ApiKeyView,
  AppError,
  BUILTIN_SCENARIOS,
  type ChangePasswordBody,
  Codes,
  errorMessage,
  MAX_CUSTOM_SCENARIOS,
  type ScenarioView,
  type UpdateProfileBody,
  validatePasswordConfirmation,
} from '@beacon/protocol';
import { fileTypeFromBuffer } from 'file-type';
import { type Actor, recordAudit } from '../audit/audit.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import type { Principal } from '../auth/principal.ts';
import { findSession, isUniqueViolation, lockKey, setPassword } from '../auth/repository.ts';
import type { AuthService } from '../auth/service.ts';
import { createSession, revokeSession } from '../auth/sessions.ts';
import { hashSecret, newSecret } from '../auth/tokens.ts';
import type { Deps } from '../deps.ts';
import { loadProjectAccess } from '../projects/access.ts';
import * as repo from './repository.ts';
import { nextChangeAllowedAt, toAccountView } from './views.ts';

/** SPEC.md §5/§9: images jpg, png, jpeg, gif, bmp, up to 10 MB — judged by content, not by name. */
export const AVATAR_MAX_BYTES = 10 * 1024 * 1024;
export const AVATAR_TYPES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/bmp',
]);

export interface CallContext {
  requestId: string;
  ip?: string;
  userAgent?: string;
}

function actor(principal: Principal, ctx: CallContext): Actor {
  return { accountId: principal.accountId, account: principal.account, requestId: ctx.requestId };
}

function toScenarioView(row: repo.ScenarioRow): ScenarioView {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString() };
}

function toApiKeyView(row: repo.ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scope: row.scope,
    projectIds: row.projectIds ? row.projectIds.map(Number) : null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    ratePerMinute: row.ratePerMinute,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

function changedAllowed(changedAt: Date | null, now: Date): boolean {
  const next = nextChangeAllowedAt(changedAt);
  return next === null || next.getTime() <= now.getTime();
}

export function createAccountService(deps: Deps, auth: AuthService) {
  const { db } = deps.database;
  const { config } = deps;

  async function load(principal: Principal): Promise<repo.AccountRow> {
    const row = await repo.getAccount(db, principal.accountId);
    if (!row) throw new AppError(Codes.TOKEN_OLD);
    return row;
  }

  /**
   * The caller proves it knows the account's password (change password, change email): refused
   * while the login is locked (80); a wrong password answers 6 on `field` and counts towards the
   * login lockout, the 5th failure within 5 minutes answering 80.
   */
  async function confirmPassword(
    row: repo.AccountRow,
    password: string,
    field: string,
    wrong: string,
    now: Date,
  ): Promise<void> {
    await auth.assertLoginNotLocked(row.id, now);
    if (await verifyPassword(row.passwordHash, password)) return;
    if (await auth.recordLoginFailure(row.id, now)) throw new AppError(Codes.PASSWORD_INPUT_LIMIT);
    throw new AppError(Codes.PASSWORD, wrong, { [field]: wrong });
  }

  const ENTER_CURRENT_PASSWORD = 'Enter your current password to change the email';

  return {
    async get(principal: Principal): Promise<AccountView> {
      return toAccountView(await load(principal), deps.now());
    },

    /**
     * PATCH /account. Company name and location may each change once per year (14, 15): setting
     * one for the first time counts as a change, setting the current value does not. A new email
     * needs the current password (16 without it; a wrong one answers 6 and counts towards the
     * login lockout, as for a password change) and must not be any other account's login name or
     * email (13).
     */
    async update(principal: Principal, body: UpdateProfileBody, ctx: CallContext): Promise<AccountView> {
      const now = deps.now();
      let passwordConfirmed = false;
      if (body.email !== undefined) {
        const current = await load(principal);
        if (body.email !== current.email) {
          if (!body.currentPassword) {
            throw new AppError(Codes.FORM_DATA, ENTER_CURRENT_PASSWORD, {
              currentPassword: ENTER_CURRENT_PASSWORD,
            });
          }
          await confirmPassword(
            current,
            body.currentPassword,
            'currentPassword',
            'The current password is incorrect',
            now,
          );
          passwordConfirmed = true;
        }
      }
      return db.transaction(async (tx) => {
        const row = await repo.getAccount(tx, principal.accountId, true);
        if (!row) throw new AppError(Codes.TOKEN_OLD);
        const changes: repo.AccountChanges = {};
        if (body.nick !== undefined && body.nick !== row.nick) changes.nick = body.nick;
        if (
          body.remindTags !== undefined &&
          JSON.stringify(body.remindTags) !== JSON.stringify(row.remindTags)
        ) {
          changes.remindTags = body.remindTags;
        }
        if (body.companyName !== undefined && body.companyName !== row.companyName) {
          if (!changedAllowed(row.companyNameChangedAt, now)) throw new AppError(Codes.ALTER_NAME);
          changes.companyName = body.companyName;
          changes.companyNameChangedAt = now;
        }
        if (body.companyLocation !== undefined && body.companyLocation !== row.companyLocation) {
          if (!changedAllowed(row.companyLocationChangedAt, now)) throw new AppError(Codes.ALTER_ADDRESS);
          changes.companyLocation = body.companyLocation;
          changes.companyLocationChangedAt = now;
        }
        if (body.email !== undefined && body.email !== row.email) {
          // The email changed since it was read above: the password was not asked for.
          if (!passwordConfirmed) {
            throw new AppError(Codes.FORM_DATA, ENTER_CURRENT_PASSWORD, {
              currentPassword: ENTER_CURRENT_PASSWORD,
            });
          }
          await lockKey(tx, `email:${body.email}`);
          if (await repo.emailTaken(tx, body.email, row.id)) throw new AppError(Codes.USER_EXISTS);
          changes.email = body.email;
        }
        const keys = Object.keys(changes) as (keyof repo.AccountChanges)[];
        if (keys.length === 0) return toAccountView(row, now);
        const updated = await repo.updateAccount(tx, row.id, changes, now);
        await recordAudit(tx, actor(principal, ctx), {
          at: now,
          action: 'update',
          entity: 'account',
          entityId: row.id,
          before: Object.fromEntries(keys.map((k) => [k, row[k]])),
          after: Object.fromEntries(keys.map((k) => [k, updated[k]])),
        });
        return toAccountView(updated, now);
      });
    },

    /** POST /account/avatar: the type is read from the bytes (5041), at most 10 MB (5017). */
    async setAvatar(principal: Principal, bytes: Buffer, ctx: CallContext): Promise<AccountView> {
      if (bytes.length > AVATAR_MAX_BYTES) throw new AppError(Codes.IMAGE_TOO_LARGE);
      const type = bytes.length > 0 ? await fileTypeFromBuffer(bytes) : undefined;
      if (!type || !AVATAR_TYPES.has(type.mime)) {
        throw new AppError(Codes.FILE_FORMAT, 'The image must be a jpg, png, gif or bmp file', {
          file: 'The image must be a jpg, png, gif or bmp file',
        });
      }
      const now = deps.now();
      return db.transaction(async (tx) => {
        const before = await repo.getAccount(tx, principal.accountId, true);
        if (!before) throw new AppError(Codes.TOKEN_OLD);
        const row = await repo.setAvatar(tx, principal.accountId, bytes, type.mime, now);
        await recordAudit(tx, actor(principal, ctx), {
          at: now,
          action: 'update-avatar',
          entity: 'account',
          entityId: row.id,
          before: { avatarMime: before.avatarMime, avatarVersion: before.avatarVersion },
          after: { avatarMime: row.avatarMime, avatarVersion: row.avatarVersion, bytes: bytes.length },
        });
        return toAccountView(row, now);
      });
    },

    /** GET /accounts/:id/avatar, for any signed-in account. */
    async avatar(accountId: number) {
      const avatar = await repo.getAvatar(db, accountId);
      if (!avatar) throw new AppError(Codes.NOT_FOUND);
      return avatar;
    },

    /**
     * POST /account/password. A wrong old password answers 6 and counts towards the login lockout
     * (80). Bumps passwordVersion so every other session answers 70, and re-issues the caller's
     * session (returned token) so the caller stays signed in. Every API key ends with the old
     * password unless the caller keeps them (keepApiKeys; docs/decisions/0023).
     */
    async changePassword(
      principal: Principal,
      body: ChangePasswordBody,
      ctx: CallContext,
    ): Promise<{ token: string; persistent: boolean } | null> {
      const now = deps.now();
      const mismatch = validatePasswordConfirmation(body.password, body.confirmPassword);
      if (mismatch)
        throw new AppError(mismatch.code, mismatch.message, { confirmPassword: mismatch.message });
      const row = await load(principal);
      await confirmPassword(row, body.oldPassword, 'oldPassword', 'The old password is incorrect', now);
      const passwordHash = await hashPassword(body.password);
      return db.transaction(async (tx) => {
        const passwordVersion = await setPassword(tx, row.id, passwordHash, now);
        const keepApiKeys = body.keepApiKeys ?? false;
        const revokedKeys = keepApiKeys ? 0 : await repo.deleteAllApiKeys(tx, row.id);
        await recordAudit(tx, actor(principal, ctx), {
          at: now,
          action: 'change-password',
          entity: 'account',
          entityId: row.id,
          after: { keepApiKeys, revokedApiKeys: revokedKeys },
        });
        if (!principal.sessionId) return null;
        const current = await findSession(tx, principal.sessionId);
        await revokeSession(tx, principal.sessionId, now);
        const persistent = current?.persistent ?? false;
        const token = await createSession(tx, config, now, {
          accountId: row.id,
          passwordVersion,
          persistent,
          userAgent: ctx.userAgent,
          ip: ctx.ip,
        });
        return { token, persistent };
      });
    },

    async listScenarios(principal: Principal): Promise<ScenarioView[]> {
      return (await repo.listScenarios(db, principal.accountId)).map(toScenarioView);
    },

    /** At most 20 custom scenarios (5037); a name is used once per account, built-ins included (5038). */
    async addScenario(principal: Principal, name: string, ctx: CallContext): Promise<ScenarioView> {
      const now = deps.now();
      try {
        return await db.transaction(async (tx) => {
          await lockKey(tx, `scenarios:${principal.accountId}`);
          const builtin = BUILTIN_SCENARIOS.some((b) => b === name.toLowerCase());
          if (builtin || (await repo.scenarioNameUsed(tx, principal.accountId, name))) {
            throw new AppError(Codes.NAME_TAKEN, undefined, { name: 'The name is already in use' });
          }
          if ((await repo.countScenarios(tx, principal.accountId)) >= MAX_CUSTOM_SCENARIOS) {
            throw new AppError(Codes.SCENARIO_LIMIT);
          }
          const row = await repo.insertScenario(tx, principal.accountId, name, now);
          await recordAudit(tx, actor(principal, ctx), {
            at: now,
            action: 'create',
            entity: 'scenario',
            entityId: row.id,
            after: { name: row.name },
          });
          return toScenarioView(row);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(Codes.NAME_TAKEN);
        throw err;
      }
    },

    async deleteScenario(principal: Principal, id: number, ctx: CallContext): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await repo.deleteScenario(tx, principal.accountId, id);
        if (!row) throw new AppError(Codes.NOT_FOUND);
        await recordAudit(tx, actor(principal, ctx), {
          at: deps.now(),
          action: 'delete',
          entity: 'scenario',
          entityId: row.id,
          before: { name: row.name },
        });
      });
    },

    async listApiKeys(principal: Principal): Promise<ApiKeyView[]> {
      return (await repo.listApiKeys(db, principal.accountId)).map(toApiKeyView);
    },

    /**
     * The secret is returned once; only its SHA-256 is stored. At most config.maxApiKeysPerAccount
     * keys per account (5047), counted under a per-account lock so concurrent creations cannot pass it.
     */
    async createApiKey(
      principal: Principal,
      input: ApiKeyBody,
      ctx: CallContext,
    ): Promise<ApiKeyView & { key: string }> {
      const body = ApiKeyBody.parse(input);
      const key = newSecret();
      const now = deps.now();
      const expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
      if (expiresAt && expiresAt.getTime() <= now.getTime()) {
        throw new AppError(Codes.EXPIRY_IN_PAST, undefined, {
          expiresAt: errorMessage(Codes.EXPIRY_IN_PAST),
        });
      }
      const projectIds = body.projectIds ? [...new Set(body.projectIds)] : null;
      return db.transaction(async (tx) => {
        // A key can be limited only to projects the account can see now (30/73/74 otherwise).
        for (const id of projectIds ?? []) await loadProjectAccess(tx, principal, id, { now });
        await lockKey(tx, `api-keys:${principal.accountId}`);
        const limit = deps.config.maxApiKeysPerAccount;
        if ((await repo.countApiKeys(tx, principal.accountId)) >= limit) {
          throw new AppError(
            Codes.API_KEY_LIMIT,
            `An account can hold at most ${limit} API keys; delete one to create another`,
          );
        }
        const row = await repo.insertApiKey(tx, {
          accountId: principal.accountId,
          name: body.name,
          prefix: key.slice(0, 8),
          keyHash: hashSecret(key),
          createdAt: now,
          scope: body.scope,
          projectIds,
          expiresAt,
          ratePerMinute: body.ratePerMinute,
        });
        await recordAudit(tx, actor(principal, ctx), {
          at: now,
          action: 'create',
          entity: 'api_key',
          entityId: row.id,
          after: {
            name: row.name,
            prefix: row.prefix,
            scope: row.scope,
            projectIds,
            expiresAt: body.expiresAt ?? null,
            ratePerMinute: row.ratePerMinute,
          },
        });
        return { ...toApiKeyView(row), key };
      });
    },

    async deleteApiKey(principal: Principal, id: number, ctx: CallContext): Promise<void> {
      await db.transaction(async (tx) => {
        const row = await repo.deleteApiKey(tx, principal.accountId, id);
        if (!row) throw new AppError(Codes.NOT_FOUND);
        await recordAudit(tx, actor(principal, ctx), {
          at: deps.now(),
          action: 'delete',
          entity: 'api_key',
          entityId: row.id,
          before: { name: row.name, prefix: row.prefix },
        });
      });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
