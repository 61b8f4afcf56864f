import { AppError, Codes, DEMO_PROJECT_IDS, ProjectProperty, ProjectRight } from '@beacon/protocol';
import { and, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type Principal, requireAccount } from '../auth/principal.ts';
import type { DbOrTx } from '../db/client.ts';
import { accounts, projectDepartures, projectMembers, projects } from '../db/schema.ts';
import type { Deps } from '../deps.ts';

/**
 * The one permission gate of every project-scoped domain (DESIGN.md invariant 1).
 *
 * Who sees a project, and with what right:
 * - the owner: right 'rw', property 'own';
 * - a member (project_members row, not expired): right 'rw' only when the row says 'rw', was
 *   accepted and came as a share; a member who came in with an invite code is read-only whatever
 *   the row says (SPEC.md §6 "invitation projects are read-only to invitees"); property
 *   'shared_manage' for a read-write share, else 'shared_read'. Shares and transfers offered and
 *   not yet accepted (share_offers, project_transfers) grant nothing (docs/decisions/0022);
 * - every account sees the demo projects (SPEC.md §1). SPEC.md §3 lists them as "rw", so the list
 *   shows right 'rw' (the screens are the full ones, as a showcase); we mark them isDemo true and
 *   property 'shared_read' (they are not the caller's own) — and every write to them is refused
 *   on the server with 5031 (SPEC.md §6 "Demo projects cannot be configured"), whatever right says.
 *
 * A project the account cannot see answers 404 with code 30, the same whether it does not exist or
 * belongs to someone else, so ids do not leak — unless the account could see it before (SPEC.md §8
 * 73/74, docs/decisions/0013-lost-project-codes.md): an expired membership answers 74, whether its
 * row is still there or the expiry job has removed it and left a 'expired' project_departures row;
 * a share deleted by the owner, unbound by the member, or a project transferred away from its
 * previous owner answers 73 ('removed').
 */

export type ProjectRow = typeof projects.$inferSelect;

export interface ProjectAccess {
  project: ProjectRow;
  /** The owner's login name (shown as ownerAccount). */
  ownerAccount: string;
  right: ProjectRight;
  property: ProjectProperty;
  isDemo: boolean;
  isOwner: boolean;
  /** True when the project reaches the caller through a project_members row (isShare). */
  isShare: boolean;
}

/** The caller's project_members row as the access query returns it (null fields = no row). */
export interface MembershipColumns {
  permission: string | null;
  expiresAt: Date | null;
  acceptedAt: Date | null;
  /** 'share' or 'invite' (null = no row). */
  via: string | null;
}

export interface LoadProjectAccessOptions {
  /** Time used to decide whether a membership has expired; pass deps.now(). */
  now?: Date;
  /**
   * Lock the project row for the rest of the transaction (pass a transaction handle as db):
   * 'update' when the project row itself is written, 'share' to keep it from being deleted or
   * changed while a sub-resource is written.
   */
  lock?: 'update' | 'share';
}

/** Right and property of a project the caller can see (owner, demo, or through its membership row). */
export function resolveRight(
  accountId: number,
  project: Pick<ProjectRow, 'ownerId' | 'isDemo'>,
  member: MembershipColumns,
): Pick<ProjectAccess, 'right' | 'property' | 'isDemo' | 'isOwner' | 'isShare'> {
  if (project.isDemo) {
    return {
      right: ProjectRight.READ_WRITE,
      property: ProjectProperty.SHARED_READ,
      isDemo: true,
      isOwner: false,
      isShare: false,
    };
  }
  if (project.ownerId === accountId) {
    return {
      right: ProjectRight.READ_WRITE,
      property: ProjectProperty.OWN,
      isDemo: false,
      isOwner: true,
      isShare: false,
    };
  }
  const manage = member.permission === ProjectRight.READ_WRITE && member.via !== 'invite';
  return {
    right: manage && member.acceptedAt !== null ? ProjectRight.READ_WRITE : ProjectRight.READ,
    property: manage ? ProjectProperty.SHARED_MANAGE : ProjectProperty.SHARED_READ,
    isDemo: false,
    isOwner: false,
    isShare: true,
  };
}

/** The caller's membership row of a project (joined on project id and account). */
export function memberJoin(accountId: number): SQL {
  return and(eq(projectMembers.projectId, projects.id), eq(projectMembers.accountId, accountId)) as SQL;
}

/**
 * Resolves, in one query scoped by the account, the project and the caller's right on it.
 * Throws 30 (404) when the account cannot see it, 74 when its membership has expired, 73 when it
 * was removed from the project (a second query, on that path only).
 */
export async function loadProjectAccess(
  db: DbOrTx,
  principal: Pick<Principal, 'accountId'>,
  projectId: number,
  options: LoadProjectAccessOptions = {},
): Promise<ProjectAccess> {
  const now = options.now ?? new Date();
  const accountId = principal.accountId;
  const query = db
    .select({
      project: projects,
      ownerAccount: accounts.account,
      permission: projectMembers.permission,
      expiresAt: projectMembers.expiresAt,
      acceptedAt: projectMembers.acceptedAt,
      via: projectMembers.via,
    })
    .from(projects)
    .innerJoin(accounts, eq(accounts.id, projects.ownerId))
    .leftJoin(projectMembers, memberJoin(accountId))
    .where(
      and(
        eq(projects.id, projectId),
        or(eq(projects.ownerId, accountId), eq(projects.isDemo, true), isNotNull(projectMembers.accountId)),
      ),
    );
  const rows = options.lock ? await query.for(options.lock, { of: projects }) : await query;
  const row = rows[0];
  if (!row) throw await lostProjectError(db, accountId, projectId);
  const { project } = row;
  const isMemberOnly = !project.isDemo && project.ownerId !== accountId;
  if (isMemberOnly && row.expiresAt !== null && row.expiresAt.getTime() <= now.getTime()) {
    throw new AppError(Codes.PROJECT_EXPIRED);
  }
  return { project, ownerAccount: row.ownerAccount, ...resolveRight(accountId, project, row) };
}

/** Why the account cannot see the project: 74 expired, 73 removed, 30 never (or no such project). */
async function lostProjectError(db: DbOrTx, accountId: number, projectId: number): Promise<AppError> {
  const [departure] = await db
    .select({ reason: projectDepartures.reason })
    .from(projectDepartures)
    .where(and(eq(projectDepartures.projectId, projectId), eq(projectDepartures.accountId, accountId)));
  if (departure?.reason === 'expired') return new AppError(Codes.PROJECT_EXPIRED);
  if (departure?.reason === 'removed') return new AppError(Codes.PROJECT_INVALID);
  return new AppError(Codes.PROJECT_ID);
}

/** Refuses a write: demo project → 5031; read-only right (read-only member, invitee) → 5032. */
export function requireWritable(access: ProjectAccess): ProjectAccess {
  if (access.isDemo) throw new AppError(Codes.DEMO_PROJECT);
  if (access.right !== ProjectRight.READ_WRITE) throw new AppError(Codes.READ_ONLY);
  return access;
}

/** Owner-only actions (delete, transfer): demo project → 5031; anyone but the owner → 5030. */
export function requireOwner(access: ProjectAccess): ProjectAccess {
  if (access.isDemo) throw new AppError(Codes.DEMO_PROJECT);
  if (!access.isOwner) throw new AppError(Codes.FORBIDDEN);
  return access;
}

/** For route handlers: the signed-in caller (9/10/70 otherwise) and its access to the project. */
export async function projectAccess(
  request: FastifyRequest,
  deps: Pick<Deps, 'database' | 'now'>,
  projectId: number,
  options: Omit<LoadProjectAccessOptions, 'now'> = {},
): Promise<ProjectAccess> {
  const principal = requireAccount(request);
  return loadProjectAccess(deps.database.db, principal, projectId, { ...options, now: deps.now() });
}

/**
 * The ids of every project the account may see at `now`, as a subquery for queries that span
 * projects (alarm list, search): `where(inArray(devices.projectId, visibleProjectIds(id, now)))`.
 * Each branch uses its own index (owner, member account, primary key of the demo ids).
 */
export function visibleProjectIds(accountId: number, now: Date): SQL {
  return sql`(select ${projects.id} from ${projects} where ${projects.ownerId} = ${accountId}
    union select ${projectMembers.projectId} from ${projectMembers}
      where ${projectMembers.accountId} = ${accountId}
        and (${projectMembers.expiresAt} is null or ${projectMembers.expiresAt} > ${now})
    union select ${projects.id} from ${projects}
      where ${inArray(projects.id, [DEMO_PROJECT_IDS.WLAN, DEMO_PROJECT_IDS.MESH])} and ${projects.isDemo})`;
}
