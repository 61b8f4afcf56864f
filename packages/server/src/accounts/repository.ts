import { and, asc, eq, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { accounts, apiKeys, customScenarios } from '../db/schema.ts';
import { publishSignOut } from '../events/bus.ts';

export type AccountRow = typeof accounts.$inferSelect;
export type AccountChanges = Partial<
  Pick<
    AccountRow,
    | 'nick'
    | 'email'
    | 'companyName'
    | 'companyNameChangedAt'
    | 'companyLocation'
    | 'companyLocationChangedAt'
    | 'remindTags'
  >
>;

export async function getAccount(db: DbOrTx, id: number, forUpdate = false): Promise<AccountRow | undefined> {
  const query = db.select().from(accounts).where(eq(accounts.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

/** Whether another account already uses `email` as its login name or its email. */
export async function emailTaken(db: DbOrTx, email: string, exceptId: number): Promise<boolean> {
  const rows = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(or(eq(accounts.account, email), eq(accounts.email, email)), ne(accounts.id, exceptId)))
    .limit(1);
  return rows.length > 0;
}

export async function updateAccount(
  db: DbOrTx,
  id: number,
  changes: AccountChanges,
  now: Date,
): Promise<AccountRow> {
  const [row] = await db
    .update(accounts)
    .set({ ...changes, updatedAt: now })
    .where(eq(accounts.id, id))
    .returning();
  return row;
}

export async function setAvatar(
  db: DbOrTx,
  id: number,
  avatar: Buffer,
  mime: string,
  now: Date,
): Promise<AccountRow> {
  const [row] = await db
    .update(accounts)
    .set({ avatar, avatarMime: mime, avatarVersion: sql`${accounts.avatarVersion} + 1`, updatedAt: now })
    .where(eq(accounts.id, id))
    .returning();
  return row;
}

export async function getAvatar(db: DbOrTx, id: number) {
  const [row] = await db
    .select({ avatar: accounts.avatar, mime: accounts.avatarMime, version: accounts.avatarVersion })
    .from(accounts)
    .where(eq(accounts.id, id));
  return row?.avatar && row.mime ? { avatar: row.avatar, mime: row.mime, version: row.version } : undefined;
}

// ---------------------------------------------------------------- custom scenarios

export type ScenarioRow = typeof customScenarios.$inferSelect;

export function listScenarios(db: DbOrTx, accountId: number): Promise<ScenarioRow[]> {
  return db
    .select()
    .from(customScenarios)
    .where(eq(customScenarios.accountId, accountId))
    .orderBy(asc(customScenarios.createdAt), asc(customScenarios.id));
}

export async function countScenarios(db: DbOrTx, accountId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(customScenarios)
    .where(eq(customScenarios.accountId, accountId));
  return row.n;
}

export async function scenarioNameUsed(db: DbOrTx, accountId: number, name: string): Promise<boolean> {
  const rows = await db
    .select({ id: customScenarios.id })
    .from(customScenarios)
    .where(
      and(eq(customScenarios.accountId, accountId), sql`lower(${customScenarios.name}) = lower(${name})`),
    )
    .limit(1);
  return rows.length > 0;
}

export async function insertScenario(
  db: DbOrTx,
  accountId: number,
  name: string,
  now: Date,
): Promise<ScenarioRow> {
  const [row] = await db.insert(customScenarios).values({ accountId, name, createdAt: now }).returning();
  return row;
}

export async function deleteScenario(
  db: DbOrTx,
  accountId: number,
  id: number,
): Promise<ScenarioRow | undefined> {
  const [row] = await db
    .delete(customScenarios)
    .where(and(eq(customScenarios.id, id), eq(customScenarios.accountId, accountId)))
    .returning();
  return row;
}

// ---------------------------------------------------------------- API keys

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export async function countApiKeys(db: DbOrTx, accountId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(apiKeys)
    .where(eq(apiKeys.accountId, accountId));
  return row.n;
}

export function listApiKeys(db: DbOrTx, accountId: number): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(eq(apiKeys.accountId, accountId)).orderBy(asc(apiKeys.id));
}

export async function insertApiKey(
  db: DbOrTx,
  values: {
    accountId: number;
    name: string;
    prefix: string;
    keyHash: string;
    createdAt: Date;
    scope: ApiKeyRow['scope'];
    projectIds: number[] | null;
    expiresAt: Date | null;
    ratePerMinute: number;
  },
): Promise<ApiKeyRow> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  return row;
}

export async function deleteApiKey(
  db: DbOrTx,
  accountId: number,
  id: number,
): Promise<ApiKeyRow | undefined> {
  const [row] = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, accountId)))
    .returning();
  // Its open WebSockets close on every instance once this commits.
  if (row) await publishSignOut(db, accountId);
  return row;
}

/** Ends every API key of the account (a password change); returns how many there were. */
export async function deleteAllApiKeys(db: DbOrTx, accountId: number): Promise<number> {
  const rows = await db.delete(apiKeys).where(eq(apiKeys.accountId, accountId)).returning({ id: apiKeys.id });
  return rows.length;
}
