import { and, asc, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { accounts, devices, projectDepartures, projectMembers, projects } from '../db/schema.ts';
import { visibleProjectIds } from '../projects/access.ts';

export type AccountRow = typeof accounts.$inferSelect;

export interface GrantRow {
  accountId: number;
  projectId: number;
  name: string;
  permission: string;
}

/** The subordinate accounts of a main account, oldest first. */
export function listSubordinates(db: DbOrTx, parentId: number): Promise<AccountRow[]> {
  return db.select().from(accounts).where(eq(accounts.parentId, parentId)).orderBy(asc(accounts.id));
}

/** One subordinate account of the main account (undefined: none of its own). */
export async function findSubordinate(
  db: DbOrTx,
  parentId: number,
  id: number,
  lock = false,
): Promise<AccountRow | undefined> {
  const query = db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, id), eq(accounts.parentId, parentId)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function countSubordinates(db: DbOrTx, parentId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(accounts)
    .where(eq(accounts.parentId, parentId));
  return row.n;
}

/** The projects given to these subordinate accounts (rows of project_members via 'subordinate'). */
export async function grantsOf(db: DbOrTx, accountIds: number[]): Promise<GrantRow[]> {
  if (accountIds.length === 0) return [];
  return db
    .select({
      accountId: projectMembers.accountId,
      projectId: projectMembers.projectId,
      name: projects.name,
      permission: projectMembers.permission,
    })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.projectId))
    .where(and(inArray(projectMembers.accountId, accountIds), eq(projectMembers.via, 'subordinate')))
    .orderBy(asc(projects.name), asc(projects.id));
}

/** Gives a project (or changes its right); a share the account held on it becomes this grant. */
export async function upsertGrant(
  db: DbOrTx,
  values: { projectId: number; accountId: number; permission: string; sharedBy: number; now: Date },
): Promise<void> {
  await db
    .insert(projectMembers)
    .values({
      projectId: values.projectId,
      accountId: values.accountId,
      permission: values.permission,
      acceptedAt: values.now,
      sharedBy: values.sharedBy,
      via: 'subordinate',
      createdAt: values.now,
    })
    .onConflictDoUpdate({
      target: [projectMembers.projectId, projectMembers.accountId],
      set: {
        permission: values.permission,
        via: 'subordinate',
        expiresAt: null,
        validHours: null,
        acceptedAt: values.now,
        sharedBy: values.sharedBy,
      },
    });
  await db
    .delete(projectDepartures)
    .where(
      and(
        eq(projectDepartures.projectId, values.projectId),
        eq(projectDepartures.accountId, values.accountId),
      ),
    );
}

/** Takes a project back; the account then hears 73 for it, as a member whose share was deleted. */
export async function deleteGrant(
  db: DbOrTx,
  projectId: number,
  accountId: number,
  now: Date,
): Promise<GrantRow | undefined> {
  const [row] = await db
    .delete(projectMembers)
    .where(
      and(
        eq(projectMembers.projectId, projectId),
        eq(projectMembers.accountId, accountId),
        eq(projectMembers.via, 'subordinate'),
      ),
    )
    .returning({
      accountId: projectMembers.accountId,
      projectId: projectMembers.projectId,
      permission: projectMembers.permission,
    });
  if (!row) return undefined;
  await db
    .insert(projectDepartures)
    .values({ projectId, accountId, reason: 'removed', at: now })
    .onConflictDoUpdate({
      target: [projectDepartures.projectId, projectDepartures.accountId],
      set: { reason: 'removed', at: now },
    });
  return { ...row, name: '' };
}

/** A visitor changes nothing: every project it was given becomes read-only. */
export async function downgradeGrants(db: DbOrTx, accountId: number): Promise<void> {
  await db
    .update(projectMembers)
    .set({ permission: 'r' })
    .where(and(eq(projectMembers.accountId, accountId), eq(projectMembers.via, 'subordinate')));
}

export interface JoinedDeviceRow {
  sn: string;
  name: string;
  model: string;
  projectId: number;
  projectName: string;
  firstSeenAt: Date;
}

/** Devices of the projects the account sees that came online for the first time after `since`. */
export function joinedDevices(
  db: DbOrTx,
  accountId: number,
  since: Date,
  now: Date,
  limit: number,
): Promise<JoinedDeviceRow[]> {
  return db
    .select({
      sn: devices.sn,
      name: devices.name,
      model: devices.model,
      projectId: projects.id,
      projectName: projects.name,
      firstSeenAt: sql<Date>`${devices.firstSeenAt}`.mapWith(devices.firstSeenAt),
    })
    .from(devices)
    .innerJoin(projects, eq(projects.id, devices.projectId))
    .where(
      and(
        inArray(devices.projectId, visibleProjectIds(accountId, now)),
        eq(projects.isDemo, false),
        gt(devices.firstSeenAt, since),
      ),
    )
    .orderBy(desc(devices.firstSeenAt))
    .limit(limit);
}
