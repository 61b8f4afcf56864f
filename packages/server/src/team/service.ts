import {
  AppError,
  Codes,
  CreateSubordinateBody,
  displayRoleOf,
  GrantProjectBody,
  type JoinedDeviceView,
  MAX_SUBORDINATES,
  ProjectRight,
  SeenJoinedDevicesBody,
  SubordinateLevel,
  type SubordinateView,
  UpdateSubordinateBody,
} from '@beacon/protocol';
import { eq, sql } from 'drizzle-orm';
import { type Actor, recordAudit } from '../audit/audit.ts';
import type { Caller } from '../auth/principal.ts';
import { cloudIdExists, findAccountByLogin, isUniqueViolation, lockKey } from '../auth/repository.ts';
import { randomCloudId } from '../auth/service.ts';
import type { DbOrTx } from '../db/client.ts';
import { accounts } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { publishSignOut } from '../events/bus.ts';
import { loadProjectAccess } from '../projects/access.ts';
import { createInvitations, hasPassword } from './invitations.ts';
import * as repo from './repository.ts';

/** How many newly joined devices the alert lists at most (the newest). */
const JOINED_ALERT_MAX = 50;

function actor(caller: Caller): Actor {
  return { accountId: caller.accountId, account: caller.account, requestId: caller.requestId };
}

function toView(
  row: repo.AccountRow,
  grants: repo.GrantRow[],
  invitations: Map<string, Date>,
): SubordinateView {
  const passwordSet = hasPassword(row.passwordHash);
  const level = row.level === SubordinateLevel.GUEST ? SubordinateLevel.GUEST : SubordinateLevel.ADMIN;
  return {
    id: row.id,
    account: row.account,
    email: row.email,
    nick: row.nick,
    role: row.role as SubordinateView['role'],
    level,
    displayRole: displayRoleOf(row),
    createdAt: row.createdAt.toISOString(),
    projects: grants
      .filter((g) => g.accountId === row.id)
      .map((g) => ({
        projectId: g.projectId,
        name: g.name,
        permission: g.permission === ProjectRight.READ_WRITE ? ProjectRight.READ_WRITE : ProjectRight.READ,
      })),
    passwordSet,
    invitationExpiresAt: passwordSet ? null : (invitations.get(row.email)?.toISOString() ?? null),
  };
}

/**
 * Account management (docs/decisions/0059): a main account's subordinate accounts and the projects it
 * gives them, and the device-joining alert. Subordinates cannot reach these writes (the access gate
 * answers 5444 first, api-keys/gate.ts); every write leaves an audit row.
 */
export function createTeamService(deps: Deps) {
  const { db } = deps.database;
  const invitations = createInvitations(deps);

  async function view(tx: DbOrTx, row: repo.AccountRow): Promise<SubordinateView> {
    return toView(
      row,
      await repo.grantsOf(tx, [row.id]),
      await invitations.waiting(tx, [row.email], deps.now()),
    );
  }

  async function own(tx: DbOrTx, caller: Caller, id: number, lock = false): Promise<repo.AccountRow> {
    const row = await repo.findSubordinate(tx, caller.accountId, id, lock);
    if (!row) throw new AppError(Codes.NOT_FOUND);
    return row;
  }

  return {
    async list(caller: Caller): Promise<SubordinateView[]> {
      const rows = await repo.listSubordinates(db, caller.accountId);
      const grants = await repo.grantsOf(
        db,
        rows.map((r) => r.id),
      );
      const waiting = await invitations.waiting(
        db,
        rows.map((r) => r.email),
        deps.now(),
      );
      return rows.map((r) => toView(r, grants, waiting));
    },

    /**
     * At most MAX_SUBORDINATES (5445); the login (the email) must be free (13). No password: the
     * account gets an invitation mail with its set-your-password link (decision 0068).
     */
    async create(caller: Caller, input: CreateSubordinateBody): Promise<SubordinateView> {
      const body = CreateSubordinateBody.parse(input);
      const now = deps.now();
      let cloudId = randomCloudId();
      while (await cloudIdExists(db, cloudId)) cloudId = randomCloudId();
      try {
        const { created, mail } = await db.transaction(async (tx) => {
          await lockKey(tx, `subordinates:${caller.accountId}`);
          await lockKey(tx, `email:${body.email}`);
          if ((await repo.countSubordinates(tx, caller.accountId)) >= MAX_SUBORDINATES) {
            throw new AppError(Codes.SUBORDINATE_LIMIT);
          }
          if (await findAccountByLogin(tx, body.email)) {
            throw new AppError(Codes.USER_EXISTS, undefined, { email: 'An account with this email exists' });
          }
          const [row] = await tx
            .insert(accounts)
            .values({
              account: body.email,
              email: body.email,
              nick: body.nick,
              passwordHash: '',
              cloudId,
              role: body.role,
              parentId: caller.accountId,
              level: body.level,
              createdAt: now,
              updatedAt: now,
            })
            .returning();
          await recordAudit(tx, actor(caller), {
            at: now,
            action: 'create',
            entity: 'subordinate',
            entityId: row.id,
            after: { email: row.email, nick: row.nick, role: row.role, level: row.level },
          });
          const invitation = await invitations.issue(tx, row.email, caller.account, now);
          return { created: await view(tx, row), mail: invitation.mail };
        });
        deps.mailer.sendLater(mail);
        return created;
      } catch (err) {
        if (isUniqueViolation(err, 'accounts_account_uq')) throw new AppError(Codes.USER_EXISTS);
        throw err;
      }
    },

    /** A new set-your-password link (the older one ends); 5449 once the account has a password. */
    async resendInvitation(caller: Caller, id: number): Promise<SubordinateView> {
      const now = deps.now();
      const { updated, mail } = await db.transaction(async (tx) => {
        const sub = await own(tx, caller, id, true);
        if (hasPassword(sub.passwordHash)) throw new AppError(Codes.PASSWORD_ALREADY_SET);
        const invitation = await invitations.issue(tx, sub.email, caller.account, now);
        await recordAudit(tx, actor(caller), {
          at: now,
          action: 'invite',
          entity: 'subordinate',
          entityId: id,
          after: { email: sub.email, expiresAt: invitation.expiresAt.toISOString() },
        });
        return { updated: await view(tx, sub), mail: invitation.mail };
      });
      deps.mailer.sendLater(mail);
      return updated;
    },

    /** Nick, role code and level; a visitor's read-write projects become read-only. */
    async update(caller: Caller, id: number, input: UpdateSubordinateBody): Promise<SubordinateView> {
      const body = UpdateSubordinateBody.parse(input);
      const now = deps.now();
      return db.transaction(async (tx) => {
        const before = await own(tx, caller, id, true);
        const [row] = await tx
          .update(accounts)
          .set({
            ...(body.nick !== undefined ? { nick: body.nick } : {}),
            ...(body.role !== undefined ? { role: body.role } : {}),
            ...(body.level !== undefined ? { level: body.level } : {}),
            updatedAt: now,
          })
          .where(eq(accounts.id, id))
          .returning();
        if (row.level === SubordinateLevel.GUEST) await repo.downgradeGrants(tx, id);
        await recordAudit(tx, actor(caller), {
          at: now,
          action: 'update',
          entity: 'subordinate',
          entityId: id,
          before: { nick: before.nick, role: before.role, level: before.level },
          after: { nick: row.nick, role: row.role, level: row.level },
        });
        return view(tx, row);
      });
    },

    /** Deletes the subordinate account: its sessions, keys and projects given go with it. */
    async remove(caller: Caller, id: number): Promise<void> {
      const now = deps.now();
      await db.transaction(async (tx) => {
        const row = await own(tx, caller, id, true);
        await tx.delete(accounts).where(eq(accounts.id, id));
        await publishSignOut(tx, id);
        await recordAudit(tx, actor(caller), {
          at: now,
          action: 'delete',
          entity: 'subordinate',
          entityId: id,
          before: { email: row.email, nick: row.nick, role: row.role, level: row.level },
        });
      });
    },

    /** Gives one of the caller's own projects (5446 otherwise); a visitor gets read-only only (5447). */
    async grant(caller: Caller, id: number, input: GrantProjectBody): Promise<SubordinateView> {
      const body = GrantProjectBody.parse(input);
      const now = deps.now();
      return db.transaction(async (tx) => {
        const sub = await own(tx, caller, id, true);
        const access = await loadProjectAccess(tx, caller, body.projectId, { now, lock: 'share' });
        if (!access.isOwner) throw new AppError(Codes.SUBORDINATE_GRANT_NOT_OWNER);
        if (sub.level === SubordinateLevel.GUEST && body.permission === ProjectRight.READ_WRITE) {
          throw new AppError(Codes.VISITOR_GRANT_READ_ONLY);
        }
        await repo.upsertGrant(tx, {
          projectId: body.projectId,
          accountId: id,
          permission: body.permission,
          sharedBy: caller.accountId,
          now,
        });
        await recordAudit(tx, actor(caller), {
          at: now,
          projectId: body.projectId,
          action: 'grant',
          entity: 'subordinate',
          entityId: id,
          after: { account: sub.account, permission: body.permission },
        });
        return view(tx, sub);
      });
    },

    async revoke(caller: Caller, id: number, projectId: number): Promise<SubordinateView> {
      const now = deps.now();
      return db.transaction(async (tx) => {
        const sub = await own(tx, caller, id, true);
        const removed = await repo.deleteGrant(tx, projectId, id, now);
        if (!removed) throw new AppError(Codes.NOT_FOUND);
        await publishSignOut(tx, id);
        await recordAudit(tx, actor(caller), {
          at: now,
          projectId,
          action: 'revoke',
          entity: 'subordinate',
          entityId: id,
          before: { account: sub.account, permission: removed.permission },
        });
        return view(tx, sub);
      });
    },

    /** The device-joining alert: devices first seen since the account last dismissed it. */
    async joinedDevices(caller: Caller): Promise<{ items: JoinedDeviceView[] }> {
      const now = deps.now();
      const [me] = await db
        .select({ createdAt: accounts.createdAt, through: accounts.joinedSeenThrough })
        .from(accounts)
        .where(eq(accounts.id, caller.accountId));
      if (!me) throw new AppError(Codes.TOKEN_OLD);
      const rows = await repo.joinedDevices(
        db,
        caller.accountId,
        me.through ?? me.createdAt,
        now,
        JOINED_ALERT_MAX,
      );
      return {
        items: rows.map((r) => ({
          sn: r.sn,
          name: r.name,
          model: r.model,
          projectId: r.projectId,
          projectName: r.projectName,
          firstSeenAt: r.firstSeenAt.toISOString(),
        })),
      };
    },

    /** The alert was shown up to `through`: it never lists those devices again (never moves back). */
    async seenJoinedDevices(caller: Caller, input: { through: string }): Promise<void> {
      const body = SeenJoinedDevicesBody.parse(input);
      const now = deps.now();
      const through = new Date(Math.min(new Date(body.through).getTime(), now.getTime()));
      await db
        .update(accounts)
        .set({
          joinedSeenThrough: sql`greatest(coalesce(${accounts.joinedSeenThrough}, ${accounts.createdAt}), ${through})`,
        })
        .where(eq(accounts.id, caller.accountId));
    },
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
