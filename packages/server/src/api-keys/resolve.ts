import type { ApiKeyScope } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { hashSecret } from '../auth/tokens.ts';
import type { Db } from '../db/client.ts';
import { accounts, apiKeys } from '../db/schema.ts';

/** What an API key allows beyond naming its account (docs/decisions/0058). */
export interface ApiKeyGrant {
  id: number;
  scope: ApiKeyScope;
  /** null: every project the account can see. */
  projectIds: number[] | null;
  ratePerMinute: number;
}

export interface ResolvedApiKey {
  accountId: number;
  account: string;
  grant: ApiKeyGrant;
  lastUsedAt: Date | null;
}

// Writing last_used_at on every request would turn every read into a write.
const TOUCH_AFTER_MS = 60_000;

/**
 * The key a Bearer secret names, or 'expired' when there is none or it has expired (both answer 10:
 * the caller needs another key). Stamps last_used_at at most once a minute.
 */
export async function resolveApiKey(db: Db, secret: string, now: Date): Promise<ResolvedApiKey | 'expired'> {
  const [row] = await db
    .select({
      id: apiKeys.id,
      accountId: apiKeys.accountId,
      account: accounts.account,
      lastUsedAt: apiKeys.lastUsedAt,
      scope: apiKeys.scope,
      projectIds: apiKeys.projectIds,
      expiresAt: apiKeys.expiresAt,
      ratePerMinute: apiKeys.ratePerMinute,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(eq(apiKeys.keyHash, hashSecret(secret)));
  if (!row) return 'expired';
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > TOUCH_AFTER_MS) {
    await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, row.id));
  }
  return {
    accountId: row.accountId,
    account: row.account,
    lastUsedAt: row.lastUsedAt,
    grant: {
      id: row.id,
      scope: row.scope,
      projectIds: row.projectIds ? row.projectIds.map(Number) : null,
      ratePerMinute: row.ratePerMinute,
    },
  };
}
