import { SharePermission } from '@beacon/protocol';
import { aliasedTable, and, asc, count, eq, gt, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import {
  accounts,
  auditLog,
  projectDepartures,
  projectMembers,
  projects,
  shareInvites,
} from '../db/schema.ts';

export type MemberRow = typeof projectMembers.$inferSelect;
export type InviteRow = typeof shareInvites.$inferSelect;
export type AccountRow = Pick<typeof accounts.$inferSelect, 'id' | 'account' | 'nick' | 'cloudId' | 'role'>;

const accountColumns = {
  id: accounts.id,
  account: accounts.account,
  nick: accounts.nick,
  cloudId: accounts.cloudId,
  role: accounts.role,
};

/** The account named by login (email) or cloud id; system accounts (demo owner) are not targets. */
export async function findAccount(
  db: DbOrTx,
  target: { account?: string; cloudId?: string },
): Promise<AccountRow | undefined> {
  const where =
    target.account !== undefined
      ? eq(accounts.account, target.account)
      : eq(accounts.cloudId, target.cloudId ?? '');
  const [row] = await db
    .select(accountColumns)
    .from(accounts)
    .where(and(where, eq(accounts.isSystem, false)));
  return row;
}

/** Locks the receiving account's row: shares to one account are counted one at a time (61/62). */
export async function lockAccount(db: DbOrTx, accountId: number): Promise<void> {
  await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
}

const unexpired = (now: Date): SQL =>
  or(isNull(projectMembers.expiresAt), gt(projectMembers.expiresAt, now)) as SQL;

export async function findMember(
  db: DbOrTx,
  projectId: number,
  accountId: number,
  lock = false,
): Promise<MemberRow | undefined> {
  const query = db
    .select()
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.accountId, accountId)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** Unexpired shares an account holds with `permission`, across projects (SPEC.md §6: 61/62). */
export async function countHeldShares(
  db: DbOrTx,
  accountId: number,
  permission: SharePermission,
  now: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(projectMembers)
    .where(
      and(eq(projectMembers.accountId, accountId), eq(projectMembers.permission, permission), unexpired(now)),
    );
  return row.n;
}

/** Unexpired read-write shares of a project: all of them, and the permanent ones. */
export async function countManagers(
  db: DbOrTx,
  projectId: number,
  now: Date,
): Promise<{ manageable: number; permanent: number }> {
  const [row] = await db
    .select({
      manageable: count(),
      // Permanent as rules.isPermanent reads it: no hours granted, and no end unless not yet accepted.
      permanent: sql<number>`count(*) filter (where ${projectMembers.validHours} is null
        and (${projectMembers.expiresAt} is null or ${projectMembers.acceptedAt} is null))`.mapWith(Number),
    })
    .from(projectMembers)
    .where(
      and(
        eq(projectMembers.projectId, projectId),
        eq(projectMembers.permission, SharePermission.READ_WRITE),
        unexpired(now),
      ),
    );
  return row;
}

const sharer = aliasedTable(accounts, 'sharer');

export interface ListedShare {
  member: MemberRow;
  account: AccountRow;
  sharedBy: string | null;
}

/** Every share record of a project (expired ones until the expiry job removes them are left out). */
export async function listShares(db: DbOrTx, projectId: number, now: Date): Promise<ListedShare[]> {
  return db
    .select({ member: projectMembers, account: accountColumns, sharedBy: sharer.account })
    .from(projectMembers)
    .innerJoin(accounts, eq(accounts.id, projectMembers.accountId))
    .leftJoin(sharer, eq(sharer.id, projectMembers.sharedBy))
    .where(and(eq(projectMembers.projectId, projectId), unexpired(now)))
    .orderBy(asc(projectMembers.createdAt), asc(projectMembers.accountId));
}

export async function shareOf(db: DbOrTx, projectId: number, accountId: number): Promise<ListedShare> {
  const [row] = await db
    .select({ member: projectMembers, account: accountColumns, sharedBy: sharer.account })
    .from(projectMembers)
    .innerJoin(accounts, eq(accounts.id, projectMembers.accountId))
    .leftJoin(sharer, eq(sharer.id, projectMembers.sharedBy))
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.accountId, accountId)));
  return row;
}

export async function insertMember(
  db: DbOrTx,
  values: typeof projectMembers.$inferInsert,
): Promise<MemberRow> {
  const [row] = await db.insert(projectMembers).values(values).returning();
  return row;
}

export async function updateMember(
  db: DbOrTx,
  projectId: number,
  accountId: number,
  changes: Partial<Pick<MemberRow, 'permission' | 'expiresAt' | 'validHours' | 'acceptedAt'>>,
): Promise<MemberRow> {
  const [row] = await db
    .update(projectMembers)
    .set(changes)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.accountId, accountId)))
    .returning();
  return row;
}

export async function deleteMember(db: DbOrTx, projectId: number, accountId: number): Promise<void> {
  await db
    .delete(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.accountId, accountId)));
}

export type DepartureReason = (typeof projectDepartures.$inferInsert)['reason'];

/**
 * Remembers why an account lost a project (docs/decisions/0013-lost-project-codes.md), so
 * projects/access.ts answers 74 ('expired') or 73 ('removed') rather than 30; the latest reason wins.
 */
export async function recordDeparture(
  db: DbOrTx,
  projectId: number,
  accountId: number,
  reason: DepartureReason,
  at: Date,
): Promise<void> {
  await db
    .insert(projectDepartures)
    .values({ projectId, accountId, reason, at })
    .onConflictDoUpdate({
      target: [projectDepartures.projectId, projectDepartures.accountId],
      set: { reason, at },
    });
}

/** The account can see the project again: nothing to explain any more. */
export async function clearDeparture(db: DbOrTx, projectId: number, accountId: number): Promise<void> {
  await db
    .delete(projectDepartures)
    .where(and(eq(projectDepartures.projectId, projectId), eq(projectDepartures.accountId, accountId)));
}

/** Unused invitations addressed to an account for a project (they die with its share). */
export async function deleteOpenInvitesFor(db: DbOrTx, projectId: number, accountId: number): Promise<void> {
  await db
    .delete(shareInvites)
    .where(
      and(
        eq(shareInvites.projectId, projectId),
        eq(shareInvites.accountId, accountId),
        isNull(shareInvites.usedAt),
      ),
    );
}

/** Unused invitations addressed to an account follow its pending share's permission and validity. */
export async function updateOpenInvitesFor(
  db: DbOrTx,
  projectId: number,
  accountId: number,
  terms: Pick<MemberRow, 'permission' | 'validHours'>,
): Promise<void> {
  await db
    .update(shareInvites)
    .set({ permission: terms.permission, validHours: terms.validHours })
    .where(
      and(
        eq(shareInvites.projectId, projectId),
        eq(shareInvites.accountId, accountId),
        isNull(shareInvites.usedAt),
      ),
    );
}

export async function insertInvite(db: DbOrTx, values: typeof shareInvites.$inferInsert): Promise<InviteRow> {
  const [row] = await db.insert(shareInvites).values(values).returning();
  return row;
}

export async function findInviteByHash(
  db: DbOrTx,
  codeHash: string,
  lock = false,
): Promise<InviteRow | undefined> {
  const query = db.select().from(shareInvites).where(eq(shareInvites.codeHash, codeHash));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function markInviteUsed(db: DbOrTx, id: number, accountId: number, at: Date): Promise<void> {
  await db.update(shareInvites).set({ usedAt: at, usedBy: accountId }).where(eq(shareInvites.id, id));
}

/** The project row with its owner's login, locked for update (sharing changes who may see it). */
export async function lockProject(
  db: DbOrTx,
  projectId: number,
): Promise<{ project: typeof projects.$inferSelect; ownerAccount: string } | undefined> {
  const [row] = await db
    .select({ project: projects, ownerAccount: accounts.account })
    .from(projects)
    .innerJoin(accounts, eq(accounts.id, projects.ownerId))
    .where(eq(projects.id, projectId))
    .for('update', { of: projects });
  return row;
}

export async function projectSummary(
  db: DbOrTx,
  projectId: number,
): Promise<{ name: string; ownerAccount: string } | undefined> {
  const [row] = await db
    .select({ name: projects.name, ownerAccount: accounts.account })
    .from(projects)
    .innerJoin(accounts, eq(accounts.id, projects.ownerId))
    .where(eq(projects.id, projectId));
  return row;
}

export async function setOwner(db: DbOrTx, projectId: number, ownerId: number, at: Date): Promise<void> {
  await db.update(projects).set({ ownerId, updatedAt: at }).where(eq(projects.id, projectId));
}

/** Audit row of a change no account made (the expiry job): account_name 'system'. */
export async function recordSystemAudit(
  db: DbOrTx,
  entry: { projectId: number; action: string; entity: string; entityId: string; before: unknown },
): Promise<void> {
  await db.insert(auditLog).values({ accountId: null, accountName: 'system', after: null, ...entry });
}
