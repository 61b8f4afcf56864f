import { randomInt } from 'node:crypto';
import {
  AppError,
  Codes,
  CreateInviteBody,
  CreateShareBody,
  failureFromZod,
  type InvitePreview,
  type InviteView,
  LIMITS,
  type ProjectIdView,
  type ShareList,
  SharePermission,
  ShareValidity,
  type ShareView,
  TransferBody,
  type TransferView,
  UpdateShareBody,
} from '@beacon/protocol';
import type { z } from 'zod';
import { type Actor, recordAudit } from '../audit/audit.ts';
import type { Principal } from '../auth/principal.ts';
import { hashSecret } from '../auth/tokens.ts';
import type { DbOrTx, Tx } from '../db/client.ts';
import type { Deps } from '../deps.ts';
import { cancelJob, scheduleJob } from '../jobs/runner.ts';
import { loadProjectAccess } from '../projects/access.ts';
import * as projectRepo from '../projects/repository.ts';
import { emitRevoked, type MembershipRevoked, notifyRevoked } from './events.ts';
import * as repo from './repository.ts';
import {
  auditFields,
  checkLimits,
  isPermanent,
  requireShareManager,
  type ShareLimits,
  toShareView,
} from './rules.ts';

type Caller = Pick<Principal, 'accountId' | 'account'> & { requestId?: string };
type ServiceDeps = Pick<Deps, 'database' | 'config' | 'now'>;

export const SHARE_EXPIRE_JOB = 'share.expire';
const HOUR = 3_600_000;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export const expiryKey = (projectId: number, accountId: number): string =>
  `share.expire:${projectId}:${accountId}`;

function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const failure = failureFromZod(result.error);
  throw new AppError(failure.code, failure.message, failure.fields);
}

const actorOf = (caller: Caller): Actor => ({
  accountId: caller.accountId,
  account: caller.account,
  requestId: caller.requestId,
});

export function shareLimits(deps: Pick<Deps, 'config'>): ShareLimits {
  return { maxRead: deps.config.shareMaxRead, maxReadWrite: deps.config.shareMaxReadWrite };
}

/** Runs `work` in one transaction and tells this process's listeners of revocations after the commit. */
async function write<T>(
  deps: ServiceDeps,
  work: (tx: Tx, revoked: MembershipRevoked[]) => Promise<T>,
): Promise<T> {
  const revoked: MembershipRevoked[] = [];
  const result = await deps.database.db.transaction((tx) => work(tx, revoked));
  emitRevoked(revoked);
  return result;
}

async function revoke(tx: DbOrTx, revoked: MembershipRevoked[], event: MembershipRevoked): Promise<void> {
  await notifyRevoked(tx, event);
  revoked.push(event);
}

/** Keeps the expiry job in step with the row: due at expiresAt, or gone when there is none. */
async function syncExpiryJob(tx: DbOrTx, member: repo.MemberRow): Promise<void> {
  const key = expiryKey(member.projectId, member.accountId);
  if (member.expiresAt === null) await cancelJob(tx, key);
  else
    await scheduleJob(tx, {
      kind: SHARE_EXPIRE_JOB,
      key,
      payload: { projectId: member.projectId, accountId: member.accountId },
      runAt: member.expiresAt,
    });
}

/** 21 when the existing unexpired share says the same, 63 when the new one would overwrite it. */
function refuseExisting(existing: repo.MemberRow, permission: SharePermission, hours: number | null): never {
  const same =
    existing.permission === permission &&
    (hours === null ? isPermanent(existing) : existing.validHours === hours);
  if (same) throw new AppError(Codes.ALREADY_SHARED);
  throw new AppError(
    Codes.SHARE_OVERWRITE,
    'The account already has a share of this project with another permission or validity; change that share instead',
  );
}

/**
 * The account that is to receive a share of `projectId`: it exists (22), is not the caller or the
 * owner (28), has no live share of it (21/63; an expired leftover is removed), and stays within the
 * limits (61/62). Locks the account row so concurrent shares to it are counted one at a time.
 */
async function admitReceiver(
  deps: ServiceDeps,
  tx: Tx,
  input: {
    projectId: number;
    ownerId: number;
    callerId: number;
    permission: SharePermission;
    hours: number | null;
  },
  target: repo.AccountRow | undefined,
  now: Date,
): Promise<repo.AccountRow> {
  if (!target) throw new AppError(Codes.SHARE_ACCOUNT_MISSING);
  if (target.id === input.callerId || target.id === input.ownerId) throw new AppError(Codes.SHARE_TO_SELF);
  await repo.lockAccount(tx, target.id);
  const existing = await repo.findMember(tx, input.projectId, target.id, true);
  if (existing) {
    if (existing.expiresAt === null || existing.expiresAt.getTime() > now.getTime()) {
      refuseExisting(existing, input.permission, input.hours);
    }
    await repo.deleteMember(tx, input.projectId, target.id);
  }
  const managers = await repo.countManagers(tx, input.projectId, now);
  checkLimits(shareLimits(deps), input.permission, input.hours === null, {
    held: await repo.countHeldShares(tx, target.id, input.permission, now),
    manageable: managers.manageable,
    permanentManagers: managers.permanent,
  });
  return target;
}

export async function listShares(deps: ServiceDeps, caller: Caller, projectId: number): Promise<ShareList> {
  const { db } = deps.database;
  const now = deps.now();
  await loadProjectAccess(db, caller, projectId, { now });
  const rows = await repo.listShares(db, projectId, now);
  return {
    items: rows.map(toShareView),
    limits: {
      permanentManagers: LIMITS.PERMANENT_READ_WRITE_MANAGERS,
      manageable: LIMITS.MANAGEABLE_PER_PROJECT,
    },
  };
}

export async function createShare(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  input: CreateShareBody,
): Promise<ShareView> {
  const body = validate(CreateShareBody, input);
  const now = deps.now();
  const hours = body.validity === ShareValidity.TIMED ? (body.hours ?? null) : null;
  return write(deps, async (tx) => {
    const access = requireShareManager(
      await loadProjectAccess(tx, caller, projectId, { now, lock: 'update' }),
    );
    const target = await admitReceiver(
      deps,
      tx,
      {
        projectId,
        ownerId: access.project.ownerId,
        callerId: caller.accountId,
        permission: body.permission,
        hours,
      },
      await repo.findAccount(tx, body),
      now,
    );
    const member = await repo.insertMember(tx, {
      projectId,
      accountId: target.id,
      permission: body.permission,
      validHours: hours,
      expiresAt: hours === null ? null : new Date(now.getTime() + hours * HOUR),
      acceptedAt: now,
      sharedBy: caller.accountId,
      createdAt: now,
    });
    await repo.clearDeparture(tx, projectId, target.id);
    await syncExpiryJob(tx, member);
    await recordAudit(tx, actorOf(caller), {
      at: now,
      projectId,
      action: 'create',
      entity: 'share',
      entityId: target.id,
      after: auditFields(member, target.account),
    });
    return toShareView(await repo.shareOf(tx, projectId, target.id));
  });
}

/** The live share of `accountId` in the project, locked; 73 when the account has none. */
async function liveShare(tx: Tx, projectId: number, accountId: number, now: Date): Promise<repo.MemberRow> {
  const member = await repo.findMember(tx, projectId, accountId, true);
  if (!member || (member.expiresAt !== null && member.expiresAt.getTime() <= now.getTime())) {
    throw new AppError(Codes.PROJECT_INVALID, 'This account has no share of the project');
  }
  return member;
}

export async function updateShare(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  accountId: number,
  input: UpdateShareBody,
): Promise<ShareView> {
  const body = validate(UpdateShareBody, input);
  const now = deps.now();
  return write(deps, async (tx) => {
    requireShareManager(await loadProjectAccess(tx, caller, projectId, { now, lock: 'update' }));
    const before = await liveShare(tx, projectId, accountId, now);
    const listed = await repo.shareOf(tx, projectId, accountId);
    const permission = (body.permission ?? before.permission) as SharePermission;
    const hours =
      body.validity === undefined
        ? before.validHours
        : body.validity === ShareValidity.TIMED
          ? (body.hours ?? null)
          : null;
    const accepted = before.acceptedAt !== null;
    const changes: Partial<repo.MemberRow> = {};
    if (permission !== before.permission) changes.permission = permission;
    if (body.validity !== undefined) {
      // A timed share runs again from now; an invitation not yet accepted keeps its invite's end.
      const changed = accepted ? hours !== null || !isPermanent(before) : hours !== before.validHours;
      if (changed) {
        changes.validHours = hours;
        if (accepted) changes.expiresAt = hours === null ? null : new Date(now.getTime() + hours * HOUR);
      }
    }
    if (Object.keys(changes).length === 0) return toShareView(listed);
    if (changes.permission !== undefined || permission === SharePermission.READ_WRITE) {
      await repo.lockAccount(tx, accountId);
      const managers = await repo.countManagers(tx, projectId, now);
      const wasManager = before.permission === SharePermission.READ_WRITE;
      checkLimits(shareLimits(deps), permission, hours === null, {
        held:
          (await repo.countHeldShares(tx, accountId, permission, now)) -
          (before.permission === permission ? 1 : 0),
        manageable: managers.manageable - (wasManager ? 1 : 0),
        permanentManagers: managers.permanent - (wasManager && isPermanent(before) ? 1 : 0),
      });
    }
    const after = await repo.updateMember(tx, projectId, accountId, changes);
    // An invitation not yet accepted grants what its row says now: its code previews and accepts that.
    if (!accepted) await repo.updateOpenInvitesFor(tx, projectId, accountId, after);
    await syncExpiryJob(tx, after);
    await recordAudit(tx, actorOf(caller), {
      at: now,
      projectId,
      action: 'update',
      entity: 'share',
      entityId: accountId,
      before: auditFields(before, listed.account.account),
      after: auditFields(after, listed.account.account),
    });
    return toShareView({ ...listed, member: after });
  });
}

export async function deleteShare(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  accountId: number,
): Promise<{ accountId: number }> {
  const now = deps.now();
  return write(deps, async (tx, revoked) => {
    requireShareManager(await loadProjectAccess(tx, caller, projectId, { now, lock: 'update' }));
    const member = await repo.findMember(tx, projectId, accountId, true);
    if (!member) throw new AppError(Codes.PROJECT_INVALID, 'This account has no share of the project');
    const listed = await repo.shareOf(tx, projectId, accountId);
    await repo.deleteMember(tx, projectId, accountId);
    await repo.deleteOpenInvitesFor(tx, projectId, accountId);
    await cancelJob(tx, expiryKey(projectId, accountId));
    // A row that had already run out (the job not yet past it) was lost by expiry, not by the delete.
    const ranOut = member.expiresAt !== null && member.expiresAt.getTime() <= now.getTime();
    await repo.recordDeparture(tx, projectId, accountId, ranOut ? 'expired' : 'removed', now);
    await recordAudit(tx, actorOf(caller), {
      at: now,
      projectId,
      action: 'delete',
      entity: 'share',
      entityId: accountId,
      before: auditFields(member, listed.account.account),
    });
    await revoke(tx, revoked, { projectId, accountId, reason: 'delete' });
    return { accountId };
  });
}

/** A member leaves (SPEC.md §4 unbind); an invitee declines. The owner cannot: 5030. */
export async function unbind(deps: ServiceDeps, caller: Caller, projectId: number): Promise<ProjectIdView> {
  const now = deps.now();
  return write(deps, async (tx, revoked) => {
    const access = await loadProjectAccess(tx, caller, projectId, { now, lock: 'update' });
    if (access.isDemo) throw new AppError(Codes.DEMO_PROJECT);
    if (access.isOwner) {
      throw new AppError(Codes.FORBIDDEN, 'The owner cannot unbind a project; transfer or delete it instead');
    }
    const member = await repo.findMember(tx, projectId, caller.accountId, true);
    if (!member) throw new AppError(Codes.PROJECT_ID);
    await repo.deleteMember(tx, projectId, caller.accountId);
    await repo.deleteOpenInvitesFor(tx, projectId, caller.accountId);
    await cancelJob(tx, expiryKey(projectId, caller.accountId));
    await repo.recordDeparture(tx, projectId, caller.accountId, 'removed', now);
    await recordAudit(tx, actorOf(caller), {
      at: now,
      projectId,
      action: 'unbind',
      entity: 'share',
      entityId: caller.accountId,
      before: auditFields(member, caller.account),
    });
    await revoke(tx, revoked, { projectId, accountId: caller.accountId, reason: 'unbind' });
    return { projectId };
  });
}

function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < 12; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

export async function createInvite(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  input: CreateInviteBody,
): Promise<InviteView> {
  const body = validate(CreateInviteBody, input);
  const now = deps.now();
  const hours = body.validity === ShareValidity.TIMED ? (body.hours ?? null) : null;
  const expiresAt = new Date(now.getTime() + body.expiresInHours * HOUR);
  const code = newInviteCode();
  return write(deps, async (tx) => {
    const access = requireShareManager(
      await loadProjectAccess(tx, caller, projectId, { now, lock: 'update' }),
    );
    let target: repo.AccountRow | undefined;
    if (body.account !== undefined || body.cloudId !== undefined) {
      target = await admitReceiver(
        deps,
        tx,
        {
          projectId,
          ownerId: access.project.ownerId,
          callerId: caller.accountId,
          permission: body.permission,
          hours,
        },
        await repo.findAccount(tx, body),
        now,
      );
      // The invitee sees the project read-only until it accepts, and no longer than the code lives.
      const member = await repo.insertMember(tx, {
        projectId,
        accountId: target.id,
        permission: body.permission,
        validHours: hours,
        expiresAt,
        acceptedAt: null,
        sharedBy: caller.accountId,
        createdAt: now,
      });
      await repo.clearDeparture(tx, projectId, target.id);
      await syncExpiryJob(tx, member);
    }
    const invite = await repo.insertInvite(tx, {
      projectId,
      codeHash: hashSecret(code),
      accountId: target?.id ?? null,
      permission: body.permission,
      validHours: hours,
      expiresAt,
      createdBy: caller.accountId,
      createdAt: now,
    });
    const view: InviteView = {
      id: invite.id,
      projectId,
      code,
      link: `/invite/${code}`,
      account: target?.account ?? null,
      permission: body.permission,
      validity: hours === null ? ShareValidity.PERMANENT : ShareValidity.TIMED,
      hours,
      expiresAt: expiresAt.toISOString(),
      createdAt: now.toISOString(),
    };
    const { code: _secret, link: _link, ...recorded } = view;
    await recordAudit(tx, actorOf(caller), {
      at: now,
      projectId,
      action: 'create',
      entity: 'invite',
      entityId: invite.id,
      after: recorded,
    });
    return view;
  });
}

/** The invitation behind a code: unknown 5033, used or expired 64, addressed to someone else 5030. */
async function usableInvite(
  db: DbOrTx,
  caller: Caller,
  code: string,
  now: Date,
  lock: boolean,
): Promise<repo.InviteRow> {
  const invite = await repo.findInviteByHash(db, hashSecret(code), lock);
  if (!invite) throw new AppError(Codes.NOT_FOUND, 'Unknown invite code');
  if (invite.usedAt !== null)
    throw new AppError(Codes.INVITE_EXPIRED, 'The invite code has already been used');
  if (invite.expiresAt.getTime() <= now.getTime()) throw new AppError(Codes.INVITE_EXPIRED);
  if (invite.accountId !== null && invite.accountId !== caller.accountId) {
    throw new AppError(Codes.FORBIDDEN, 'This invitation is for another account');
  }
  return invite;
}

export async function previewInvite(deps: ServiceDeps, caller: Caller, code: string): Promise<InvitePreview> {
  const { db } = deps.database;
  const invite = await usableInvite(db, caller, code, deps.now(), false);
  const row = await repo.projectSummary(db, invite.projectId);
  if (!row) throw new AppError(Codes.PROJECT_INVALID);
  return {
    projectId: invite.projectId,
    projectName: row.name,
    ownerAccount: row.ownerAccount,
    permission: invite.permission as SharePermission,
    validity: invite.validHours === null ? ShareValidity.PERMANENT : ShareValidity.TIMED,
    hours: invite.validHours,
    expiresAt: invite.expiresAt.toISOString(),
  };
}

export async function acceptInvite(deps: ServiceDeps, caller: Caller, code: string): Promise<ProjectIdView> {
  const now = deps.now();
  return write(deps, async (tx) => {
    // Locks in the order every other share write takes them — project, account, member, invite — so
    // an owner editing or deleting this pending share at the same moment waits instead of deadlocking.
    const seen = await usableInvite(tx, caller, code, now, false);
    const project = await repo.lockProject(tx, seen.projectId);
    const invite = await usableInvite(tx, caller, code, now, true);
    if (!project || project.project.isDemo) throw new AppError(Codes.PROJECT_INVALID);
    if (project.project.ownerId === caller.accountId) throw new AppError(Codes.SHARE_TO_SELF);
    await repo.lockAccount(tx, caller.accountId);
    const existing = await repo.findMember(tx, invite.projectId, caller.accountId, true);
    const pending =
      invite.accountId !== null &&
      existing?.acceptedAt === null &&
      existing.expiresAt !== null &&
      existing.expiresAt.getTime() > now.getTime();
    let member: repo.MemberRow;
    if (pending) {
      // The pending row is the share as it stands now: the owner may have changed its permission or
      // validity since the code was made (updateShare), and acceptance grants that, not the code's
      // original terms. Its slot is held, so the limits are counted with the row itself left out.
      const permission = existing.permission as SharePermission;
      const hours = existing.validHours;
      const managers = await repo.countManagers(tx, invite.projectId, now);
      const manager = permission === SharePermission.READ_WRITE;
      checkLimits(shareLimits(deps), permission, hours === null, {
        held: (await repo.countHeldShares(tx, caller.accountId, permission, now)) - 1,
        manageable: managers.manageable - (manager ? 1 : 0),
        permanentManagers: managers.permanent - (manager && isPermanent(existing) ? 1 : 0),
      });
      member = await repo.updateMember(tx, invite.projectId, caller.accountId, {
        permission,
        validHours: hours,
        expiresAt: hours === null ? null : new Date(now.getTime() + hours * HOUR),
        acceptedAt: now,
      });
    } else {
      const permission = invite.permission as SharePermission;
      const hours = invite.validHours;
      const target = await repo.findAccount(tx, { account: caller.account });
      // callerId -1: the accepting account is the receiver here, not someone sharing to itself.
      await admitReceiver(
        deps,
        tx,
        { projectId: invite.projectId, ownerId: project.project.ownerId, callerId: -1, permission, hours },
        target,
        now,
      );
      member = await repo.insertMember(tx, {
        projectId: invite.projectId,
        accountId: caller.accountId,
        permission,
        validHours: hours,
        expiresAt: hours === null ? null : new Date(now.getTime() + hours * HOUR),
        acceptedAt: now,
        sharedBy: invite.createdBy,
        createdAt: now,
      });
    }
    await repo.markInviteUsed(tx, invite.id, caller.accountId, now);
    await repo.clearDeparture(tx, invite.projectId, caller.accountId);
    await syncExpiryJob(tx, member);
    await recordAudit(tx, actorOf(caller), {
      at: now,
      projectId: invite.projectId,
      action: 'accept',
      entity: 'invite',
      entityId: invite.id,
      before: existing ? auditFields(existing, caller.account) : null,
      after: auditFields(member, caller.account),
    });
    return { projectId: invite.projectId };
  });
}

/**
 * Transfer of permission (SPEC.md §4): the project gets a new owner and leaves the previous
 * owner's list (the previous owner keeps no share). 2103 caller is not the owner, 2101 target
 * missing, 2102 target is the owner already; the target's own share of the project ends.
 */
export async function transfer(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  input: TransferBody,
): Promise<TransferView> {
  const body = validate(TransferBody, input);
  const now = deps.now();
  return write(deps, async (tx, revoked) => {
    const access = await loadProjectAccess(tx, caller, projectId, { now, lock: 'update' });
    if (access.isDemo) throw new AppError(Codes.DEMO_PROJECT);
    if (!access.isOwner) throw new AppError(Codes.TRANSFER_NOT_MANAGER);
    const target = await repo.findAccount(tx, body);
    if (!target) throw new AppError(Codes.TRANSFER_NO_ACCOUNT);
    if (target.id === access.project.ownerId) throw new AppError(Codes.TRANSFER_SAME_MANAGER);
    await repo.lockAccount(tx, target.id);
    if ((await projectRepo.countOwnedProjects(tx, target.id)) >= deps.config.maxProjectsPerAccount) {
      throw new AppError(Codes.PROJECT_LIMIT, 'The account has reached its project count limit');
    }
    if (await projectRepo.nameTaken(tx, target.id, access.project.name)) {
      const message = `The account already has a project named "${access.project.name}"`;
      throw new AppError(Codes.NAME_TAKEN, message, { account: message });
    }
    const share = await repo.findMember(tx, projectId, target.id, true);
    if (share) {
      await repo.deleteMember(tx, projectId, target.id);
      await cancelJob(tx, expiryKey(projectId, target.id));
    }
    await repo.deleteOpenInvitesFor(tx, projectId, target.id);
    await repo.clearDeparture(tx, projectId, target.id);
    await repo.setOwner(tx, projectId, target.id, now);
    await repo.recordDeparture(tx, projectId, access.project.ownerId, 'removed', now);
    await recordAudit(tx, actorOf(caller), {
      at: now,
      projectId,
      action: 'transfer',
      entity: 'project',
      entityId: projectId,
      before: { owner: access.ownerAccount },
      after: { owner: target.account },
    });
    await revoke(tx, revoked, { projectId, accountId: caller.accountId, reason: 'transfer' });
    return { projectId, ownerAccount: target.account };
  });
}
