import { SharePermission } from '@beacon/protocol';
import { aliasedTable, and, asc, count, eq, gt, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import {
  accounts,
  auditLog,
  projectDepartures,
  projectMembers,
  projects,
  projectTransfers,
  shareInvites,
  shareOffers,
} from '../db/schema.ts';

export type MemberRow = typeof projectMembers.$inferSelect;
export type OfferRow = typeof shareOffers.$inferSelect;
export type TransferRow = typeof projectTransfers.$inferSelect;
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

/**
 * Rows that give `permission`: a member who came with an invitation is read-only (SPEC.md §6).
 * Projects given to subordinate accounts are not shares and count toward no share limit (decision 0059).
 */
const grants = (permission: SharePermission): SQL =>
  (permission === SharePermission.READ_WRITE
    ? and(eq(projectMembers.permission, permission), eq(projectMembers.via, 'share'))
    : and(
        ne(projectMembers.via, 'subordinate'),
        or(eq(projectMembers.permission, permission), eq(projectMembers.via, 'invite')),
      )) as SQL;

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
    .where(and(eq(projectMembers.accountId, accountId), grants(permission), unexpired(now)));
  return row.n;
}

/**
 * Unexpired read-write shares of a project: all of them, and the permanent ones. With
 * `withOffers`, read-write offers not yet accepted count too: the owner cannot offer more
 * manager slots than the project has.
 */
export async function countManagers(
  db: DbOrTx,
  projectId: number,
  now: Date,
  withOffers = false,
): Promise<{ manageable: number; permanent: number }> {
  const members = await countMemberManagers(db, projectId, now);
  if (!withOffers) return members;
  const [offered] = await db
    .select({
      manageable: count(),
      permanent: sql<number>`count(*) filter (where ${shareOffers.validHours} is null)`.mapWith(Number),
    })
    .from(shareOffers)
    .where(and(eq(shareOffers.projectId, projectId), eq(shareOffers.permission, SharePermission.READ_WRITE)));
  return {
    manageable: members.manageable + offered.manageable,
    permanent: members.permanent + offered.permanent,
  };
}

async function countMemberManagers(
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
    .where(and(eq(projectMembers.projectId, projectId), grants(SharePermission.READ_WRITE), unexpired(now)));
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

/** The offer of `projectId` to `accountId`, locked when asked. */
export async function findOffer(
  db: DbOrTx,
  projectId: number,
  accountId: number,
  lock = false,
): Promise<OfferRow | undefined> {
  const query = db
    .select()
    .from(shareOffers)
    .where(and(eq(shareOffers.projectId, projectId), eq(shareOffers.accountId, accountId)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function insertOffer(db: DbOrTx, values: typeof shareOffers.$inferInsert): Promise<OfferRow> {
  const [row] = await db.insert(shareOffers).values(values).returning();
  return row;
}

export async function updateOffer(
  db: DbOrTx,
  projectId: number,
  accountId: number,
  changes: Partial<Pick<OfferRow, 'permission' | 'validHours'>>,
): Promise<OfferRow> {
  const [row] = await db
    .update(shareOffers)
    .set(changes)
    .where(and(eq(shareOffers.projectId, projectId), eq(shareOffers.accountId, accountId)))
    .returning();
  return row;
}

export async function deleteOffer(db: DbOrTx, projectId: number, accountId: number): Promise<void> {
  await db
    .delete(shareOffers)
    .where(and(eq(shareOffers.projectId, projectId), eq(shareOffers.accountId, accountId)));
}

export interface ListedOffer {
  offer: OfferRow;
  account: AccountRow;
  offeredBy: string | null;
}

/** The project's share offers not yet accepted, oldest first. */
export async function listOffers(db: DbOrTx, projectId: number): Promise<ListedOffer[]> {
  return db
    .select({ offer: shareOffers, account: accountColumns, offeredBy: sharer.account })
    .from(shareOffers)
    .innerJoin(accounts, eq(accounts.id, shareOffers.accountId))
    .leftJoin(sharer, eq(sharer.id, shareOffers.offeredBy))
    .where(eq(shareOffers.projectId, projectId))
    .orderBy(asc(shareOffers.createdAt), asc(shareOffers.accountId));
}

export async function offerOf(db: DbOrTx, projectId: number, accountId: number): Promise<ListedOffer> {
  const [row] = await db
    .select({ offer: shareOffers, account: accountColumns, offeredBy: sharer.account })
    .from(shareOffers)
    .innerJoin(accounts, eq(accounts.id, shareOffers.accountId))
    .leftJoin(sharer, eq(sharer.id, shareOffers.offeredBy))
    .where(and(eq(shareOffers.projectId, projectId), eq(shareOffers.accountId, accountId)));
  return row;
}

const recipient = aliasedTable(accounts, 'recipient');

/** The pending transfer of a project with the receiving account's login, locked when asked. */
export async function findTransfer(
  db: DbOrTx,
  projectId: number,
  lock = false,
): Promise<(TransferRow & { toAccount: string }) | undefined> {
  const query = db
    .select({ transfer: projectTransfers, toAccount: recipient.account })
    .from(projectTransfers)
    .innerJoin(recipient, eq(recipient.id, projectTransfers.toAccountId))
    .where(eq(projectTransfers.projectId, projectId));
  const [row] = lock ? await query.for('update', { of: projectTransfers }) : await query;
  return row ? { ...row.transfer, toAccount: row.toAccount } : undefined;
}

/** Offers the project to a new owner; a pending offer to someone else is replaced. */
export async function upsertTransfer(
  db: DbOrTx,
  values: typeof projectTransfers.$inferInsert,
): Promise<void> {
  await db
    .insert(projectTransfers)
    .values(values)
    .onConflictDoUpdate({
      target: projectTransfers.projectId,
      set: {
        fromAccountId: values.fromAccountId,
        toAccountId: values.toAccountId,
        createdAt: values.createdAt,
      },
    });
}

export async function deleteTransfer(db: DbOrTx, projectId: number): Promise<void> {
  await db.delete(projectTransfers).where(eq(projectTransfers.projectId, projectId));
}

export interface PendingOffer {
  kind: 'share' | 'transfer';
  projectId: number;
  projectName: string;
  fromAccount: string;
  permission: string | null;
  validHours: number | null;
  createdAt: Date;
}

/** Every offer waiting for `accountId`: shares and transfers, oldest first. */
export async function pendingOffersFor(db: DbOrTx, accountId: number): Promise<PendingOffer[]> {
  const shares = await db
    .select({
      projectId: shareOffers.projectId,
      projectName: projects.name,
      fromAccount: accounts.account,
      permission: shareOffers.permission,
      validHours: shareOffers.validHours,
      createdAt: shareOffers.createdAt,
    })
    .from(shareOffers)
    .innerJoin(projects, eq(projects.id, shareOffers.projectId))
    .innerJoin(accounts, eq(accounts.id, projects.ownerId))
    .where(eq(shareOffers.accountId, accountId));
  const transfers = await db
    .select({
      projectId: projectTransfers.projectId,
      projectName: projects.name,
      fromAccount: accounts.account,
      createdAt: projectTransfers.createdAt,
    })
    .from(projectTransfers)
    .innerJoin(projects, eq(projects.id, projectTransfers.projectId))
    .innerJoin(accounts, eq(accounts.id, projects.ownerId))
    .where(eq(projectTransfers.toAccountId, accountId));
  return [
    ...shares.map((s) => ({ kind: 'share' as const, ...s })),
    ...transfers.map((t) => ({ kind: 'transfer' as const, ...t, permission: null, validHours: null })),
  ].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.projectId - b.projectId);
}
