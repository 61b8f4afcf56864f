import { AppError, Codes, type SecurityView, SOCIAL_PROVIDERS, type SocialProvider } from '@beacon/protocol';
import { and, eq } from 'drizzle-orm';
import { recordAudit } from '../audit/audit.ts';
import type { DbOrTx } from '../db/client.ts';
import { accountIdentities } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { toIdentityView } from './oidc.ts';
import type { Principal } from './principal.ts';
import * as repo from './repository.ts';
import { endOtherSessions } from './single-session.ts';
import { recoveryCodesLeft, securityRow, upsertSecurity } from './two-factor.ts';

/** The account's ways to sign in and their safeguards (GET /account/security and the changes). */
export function createSecurity(deps: Deps) {
  const { db } = deps.database;
  const { config } = deps;

  const providers = () =>
    SOCIAL_PROVIDERS.map((provider) => {
      const p = config.signIn.socialProviders.find((c) => c.provider === provider);
      return { provider, name: p?.name ?? provider, configured: Boolean(p) };
    });

  async function view(tx: DbOrTx, accountId: number): Promise<SecurityView> {
    const account = await repo.findAccountById(tx, accountId);
    if (!account) throw new AppError(Codes.TOKEN_OLD);
    const identities = await tx
      .select()
      .from(accountIdentities)
      .where(eq(accountIdentities.accountId, accountId))
      .orderBy(accountIdentities.boundAt);
    const row = await securityRow(tx, accountId);
    const twoFactorEnabled = Boolean(row?.totpEnabledAt && row.totpSecret);
    return {
      hasPassword: account.passwordHash.startsWith('$argon2'),
      identities: identities.map(toIdentityView),
      providers: providers(),
      singleSession: row?.singleSession === true,
      twoFactor: {
        enabled: twoFactorEnabled,
        recoveryCodesLeft: twoFactorEnabled ? await recoveryCodesLeft(tx, accountId) : 0,
      },
      phone:
        row?.phoneNumber && row.phoneRegion && row.phoneVerifiedAt
          ? {
              regionCode: row.phoneRegion,
              phone: row.phoneNumber,
              verifiedAt: row.phoneVerifiedAt.toISOString(),
            }
          : null,
    };
  }

  const actor = (p: Principal, requestId: string) => ({
    accountId: p.accountId,
    account: p.account,
    requestId,
  });

  return {
    providers,
    view: (principal: Principal) => view(db, principal.accountId),

    /**
     * DELETE /account/identities/:provider. Refused (5421) when it is the last way in: no password
     * and no other identity.
     */
    async unbind(principal: Principal, provider: SocialProvider, requestId: string): Promise<SecurityView> {
      const now = deps.now();
      return db.transaction(async (tx) => {
        await repo.lockKey(tx, `identities:${principal.accountId}`);
        const rows = await tx
          .select()
          .from(accountIdentities)
          .where(eq(accountIdentities.accountId, principal.accountId));
        const target = rows.find((r) => r.provider === provider);
        if (!target) throw new AppError(Codes.NOT_FOUND);
        const account = await repo.findAccountById(tx, principal.accountId);
        const hasPassword = account?.passwordHash.startsWith('$argon2') === true;
        if (!hasPassword && rows.length <= 1) throw new AppError(Codes.LAST_SIGN_IN_METHOD);
        await tx
          .delete(accountIdentities)
          .where(
            and(
              eq(accountIdentities.accountId, principal.accountId),
              eq(accountIdentities.provider, provider),
            ),
          );
        await recordAudit(tx, actor(principal, requestId), {
          action: 'unbind-identity',
          entity: 'account',
          entityId: principal.accountId,
          before: { provider, label: target.label },
          at: now,
        });
        return view(tx, principal.accountId);
      });
    },

    /** PUT /account/single-session: turning it on ends the account's other sessions (5003). */
    async setSingleSession(principal: Principal, enabled: boolean, requestId: string): Promise<SecurityView> {
      const now = deps.now();
      return db.transaction(async (tx) => {
        await upsertSecurity(tx, principal.accountId, { singleSession: enabled });
        if (enabled) await endOtherSessions(tx, principal.accountId, principal.sessionId, now);
        await recordAudit(tx, actor(principal, requestId), {
          action: 'single-session',
          entity: 'account',
          entityId: principal.accountId,
          after: { enabled },
          at: now,
        });
        return view(tx, principal.accountId);
      });
    },

    /** DELETE /account/phone */
    async removePhone(principal: Principal, requestId: string): Promise<SecurityView> {
      const now = deps.now();
      return db.transaction(async (tx) => {
        await upsertSecurity(tx, principal.accountId, {
          phoneRegion: null,
          phoneNumber: null,
          phoneVerifiedAt: null,
        });
        await recordAudit(tx, actor(principal, requestId), {
          action: 'remove-phone',
          entity: 'account',
          entityId: principal.accountId,
          at: now,
        });
        return view(tx, principal.accountId);
      });
    },
  };
}
