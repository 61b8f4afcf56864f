import { randomInt } from 'node:crypto';
import {
  AppError,
  Codes,
  CreateInviteBody,
  CreateShareBody,
  type InvitePreview,
  type InviteView,
  LIMITS,
  type OfferList,
  type OfferView,
  type ProjectIdView,
  parseOrThrow,
  type ShareList,
  SharePermission,
  ShareValidity,
  type ShareView,
  TransferBody,
  type TransferView,
  UpdateShareBody,
} from '@beacon/protocol';
import type { z } from 'zod';
import { recordAudit } from '../audit/audit.ts';
import type { Caller } from '../auth/principal.ts';
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
  offerAuditFields,
  offerToShareView,
  requireShareManager,
  type ShareLimits,
  toShareView,
} from './rules.ts';

type ServiceDeps = Pick<Deps, 'database' | 'config' | 'now'>;

export const SHARE_EXPIRE_JOB = 'share.expire';
const HOUR = 3_600_000;
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export const expiryKey = (projectId: number, accountId: number): string =>
  `share.expire:${projectId}:${accountId}`;

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

/** 21 when the existing unexpired share (or pending offer) says the same, 63 when the new one would overwrite it. */
function refuseExisting(
  existing: { permission: string; validHours: number | null; permanent: boolean },
  permission: SharePermission,
  hours: number | null,
): never {
  const same =
    existing.permission === permission &&
    (hours === null ? existing.permanent : existing.validHours === hours);
  if (same) throw new AppError(Codes.ALREADY_SHARED);
  throw new AppError(
    Codes.SHARE_OVERWRITE,
    'The account already has a share of this project with another permission or validity; change that share instead',
  );
}

const memberTerms = (m: repo.MemberRow) => ({ ...m, permanent: isPermanent(m) });
const offerTerms = (o: repo.OfferRow) => ({ ...o, permanent: o.validHours === null });
const isLive = (m: repo.MemberRow, now: Date): boolean =>
  m.expiresAt === null || m.expiresAt.getTime() > now.getTime();

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
    if (isLive(existing, now)) refuseExisting(memberTerms(existing), input.permission, input.hours);
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
  const access = await loadProjectAccess(db, caller, projectId, { now });
  const rows = await repo.listShares(db, projectId, now);
  const offers = await repo.listOffers(db, projectId);
  const transfer = access.isOwner ? await repo.findTransfer(db, projectId) : undefined;
  return {
    items: [...rows.map(toShareView), ...offers.map(offerToShareView)],
    transfer: transfer ? { account: transfer.toAccount, offeredAt: transfer.createdAt.toISOString() } : null,
    limits: {
      permanentManagers: LIMITS.PERMANENT_READ_WRITE_MANAGERS,
      manageable: LIMITS.MANAGEABLE_PER_PROJECT,
    },
  };
}

/**
 * Offers a share to an account (docs/decisions/0022-consent-to-shares-and-transfers.md): nothing
 * is granted until the account accepts it (acceptShareOffer), where every limit is counted again.
 * 22 unknown account, 28 oneself or the owner, 21/63 a live share or an offer already there,
 * 61/62 when the account's accepted shares or the project's manager slots (offers included) are full.
 */
export async function createShare(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  input: CreateShareBody,
): Promise<ShareView> {
  const body = parseOrThrow(CreateShareBody, input);
  const now = deps.now();
  const hours = body.validity === ShareValidity.TIMED ? (body.hours ?? null) : null;
  return write(deps, async (tx) => {
    const access = requireShareManager(
      await loadProjectAccess(tx, caller, projectId, { now, lock: 'update' }),
    );
    const target = await repo.findAccount(tx, body);
    if (!target) throw new AppError(Codes.SHARE_ACCOUNT_MISSING);
    if (target.id === caller.accountId || target.id === access.project.ownerId) {
      throw new AppError(Codes.SHARE_TO_SELF);
    }
    await repo.lockAccount(tx, target.id);
    const existing = await repo.findMember(tx, projectId, target.id, true);
    if (existing && isLive(existing, now)) refuseExisting(memberTerms(existing), body.permission, hours);
    const offered = await repo.findOffer(tx, projectId, target.id, true);
    if (offered) refuseExisting(offerTerms(offered), body.permission, hours);
    const managers = await repo.countManagers(tx, projectId, now, true);
    checkLimits(shareLimits(deps), body.permission, hours === null, {
      held: await repo.countHeldShares(tx, target.id, body.permission, now),
      manageable: managers.manageable,
      permanentManagers: managers.permanent,
    });
    const offer = await repo.insertOffer(tx, {
      projectId,
      accountId: target.id,
      permission: body.permission,
      validHours: hours,
      offeredBy: caller.accountId,
      createdAt: now,
    });
    await recordAudit(tx, caller, {
      at: now,
      projectId,
      action: 'offer',
      entity: 'share',
      entityId: target.id,
      after: offerAuditFields(offer, target.account),
    });
    return offerToShareView(await repo.offerOf(tx, projectId, target.id));
  });
}

/**
 * The receiving account accepts a share offer: the limits (61/62, the project's 11 and 3) are
 * counted now, over accepted shares only, and the share's timed validity runs from now.
 */
export async function acceptShareOffer(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
): Promise<ProjectIdView> {
  const now = deps.now();
  return write(deps, async (tx) => {
    // Locks in the order every other share write takes them: project, account, member, offer.
    const project = await repo.lockProject(tx, projectId);
    if (!project) throw new AppError(Codes.NO_OFFER);
    await repo.lockAccount(tx, caller.accountId);
    const existing = await repo.findMember(tx, projectId, caller.accountId, true);
    const offer = await repo.findOffer(tx, projectId, caller.accountId, true);
    if (!offer) throw new AppError(Codes.NO_OFFER);
    if (project.project.ownerId === caller.accountId) throw new AppError(Codes.SHARE_TO_SELF);
    const permission = offer.permission as SharePermission;
    const hours = offer.validHours;
    if (existing) {
      if (isLive(existing, now)) refuseExisting(memberTerms(existing), permission, hours);
      await repo.deleteMember(tx, projectId, caller.accountId);
    }
    const managers = await repo.countManagers(tx, projectId, now);
    checkLimits(shareLimits(deps), permission, hours === null, {
      held: await repo.countHeldShares(tx, caller.accountId, permission, now),
      manageable: managers.manageable,
      permanentManagers: managers.permanent,
    });
    const member = await repo.insertMember(tx, {
      projectId,
      accountId: caller.accountId,
      permission,
      validHours: hours,
      expiresAt: hours === null ? null : new Date(now.getTime() + hours * HOUR),
      acceptedAt: now,
      sharedBy: offer.offeredBy,
      via: 'share',
      createdAt: now,
    });
    await repo.deleteOffer(tx, projectId, caller.accountId);
    await repo.clearDeparture(tx, projectId, caller.accountId);
    await syncExpiryJob(tx, member);
    await recordAudit(tx, caller, {
      at: now,
      projectId,
      action: 'accept',
      entity: 'share',
      entityId: caller.accountId,
      before: offerAuditFields(offer, caller.account),
      after: auditFields(member, caller.account),
    });
    return { projectId };
  });
}

/** The receiving account declines a share offer: the offer is gone, nothing else changes. */
export async function declineShareOffer(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
): Promise<ProjectIdView> {
  return write(deps, async (tx) => {
    const offer = await repo.findOffer(tx, projectId, caller.accountId, true);
    if (!offer) throw new AppError(Codes.NO_OFFER);
    await repo.deleteOffer(tx, projectId, caller.accountId);
    await recordAudit(tx, caller, {
      at: deps.now(),
      projectId,
      action: 'decline',
      entity: 'share',
      entityId: caller.accountId,
      before: offerAuditFields(offer, caller.account),
    });
    return { projectId };
  });
}

/** What waits for the caller's answer: share offers and transfers of permission. */
export async function listOffers(deps: ServiceDeps, caller: Caller): Promise<OfferList> {
  const rows = await repo.pendingOffersFor(deps.database.db, caller.accountId);
  return {
    items: rows.map(
      (row): OfferView => ({
        kind: row.kind,
        projectId: row.projectId,
        projectName: row.projectName,
        fromAccount: row.fromAccount,
        permission:
          row.permission === null
            ? null
            : row.permission === SharePermission.READ_WRITE
              ? SharePermission.READ_WRITE
              : SharePermission.READ_ONLY,
        validity:
          row.kind === 'transfer'
            ? null
            : row.validHours === null
              ? ShareValidity.PERMANENT
              : ShareValidity.TIMED,
        hours: row.validHours,
        offeredAt: row.createdAt.toISOString(),
      }),
    ),
  };
}

export async function updateShare(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  accountId: number,
  input: UpdateShareBody,
): Promise<ShareView> {
  const body = parseOrThrow(UpdateShareBody, input);
  const now = deps.now();
  return write(deps, async (tx) => {
    requireShareManager(await loadProjectAccess(tx, caller, projectId, { now, lock: 'update' }));
    const member = await repo.findMember(tx, projectId, accountId, true);
    if (member && isLive(member, now)) return updateMemberShare(deps, tx, caller, member, body, now);
    const offer = await repo.findOffer(tx, projectId, accountId, true);
    if (offer) return updateOfferTerms(deps, tx, caller, offer, body, now);
    throw new AppError(Codes.PROJECT_INVALID, 'This account has no share of the project');
  });
}

/** The permission and hours an update asks for, falling back on what the share has. */
function termsAfter(
  body: z.output<typeof UpdateShareBody>,
  before: { permission: string; validHours: number | null },
): { permission: SharePermission; hours: number | null } {
  const permission = (body.permission ?? before.permission) as SharePermission;
  const hours =
    body.validity === undefined
      ? before.validHours
      : body.validity === ShareValidity.TIMED
        ? (body.hours ?? null)
        : null;
  return { permission, hours };
}

async function updateMemberShare(
  deps: ServiceDeps,
  tx: Tx,
  caller: Caller,
  before: repo.MemberRow,
  body: z.output<typeof UpdateShareBody>,
  now: Date,
): Promise<ShareView> {
  const { projectId, accountId } = before;
  const listed = await repo.shareOf(tx, projectId, accountId);
  const { permission, hours } = termsAfter(body, before);
  if (before.via === 'invite' && permission === SharePermission.READ_WRITE) {
    // SPEC.md §6: invitation projects are read-only to invitees.
    const message =
      'An invitation gives read-only access; delete it and share the project with the account for read-write';
    throw new AppError(Codes.FORM_DATA, message, { permission: message });
  }
  const changes: Partial<repo.MemberRow> = {};
  if (permission !== before.permission) changes.permission = permission;
  // A timed share runs again from now.
  if (body.validity !== undefined && (hours !== null || !isPermanent(before))) {
    changes.validHours = hours;
    changes.expiresAt = hours === null ? null : new Date(now.getTime() + hours * HOUR);
  }
  if (Object.keys(changes).length === 0) return toShareView(listed);
  if (changes.permission !== undefined || permission === SharePermission.READ_WRITE) {
    await repo.lockAccount(tx, accountId);
    const managers = await repo.countManagers(tx, projectId, now, true);
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
  await syncExpiryJob(tx, after);
  await recordAudit(tx, caller, {
    at: now,
    projectId,
    action: 'update',
    entity: 'share',
    entityId: accountId,
    before: auditFields(before, listed.account.account),
    after: auditFields(after, listed.account.account),
  });
  return toShareView({ ...listed, member: after });
}

/** An offer not yet accepted takes new terms; the account accepts what the offer says then. */
async function updateOfferTerms(
  deps: ServiceDeps,
  tx: Tx,
  caller: Caller,
  before: repo.OfferRow,
  body: z.output<typeof UpdateShareBody>,
  now: Date,
): Promise<ShareView> {
  const { projectId, accountId } = before;
  const listed = await repo.offerOf(tx, projectId, accountId);
  const { permission, hours } = termsAfter(body, before);
  if (permission === before.permission && hours === before.validHours) return offerToShareView(listed);
  const managers = await repo.countManagers(tx, projectId, now, true);
  const wasManager = before.permission === SharePermission.READ_WRITE;
  checkLimits(shareLimits(deps), permission, hours === null, {
    held: await repo.countHeldShares(tx, accountId, permission, now),
    manageable: managers.manageable - (wasManager ? 1 : 0),
    permanentManagers: managers.permanent - (wasManager && before.validHours === null ? 1 : 0),
  });
  const after = await repo.updateOffer(tx, projectId, accountId, { permission, validHours: hours });
  await recordAudit(tx, caller, {
    at: now,
    projectId,
    action: 'update',
    entity: 'share',
    entityId: accountId,
    before: offerAuditFields(before, listed.account.account),
    after: offerAuditFields(after, listed.account.account),
  });
  return offerToShareView({ ...listed, offer: after });
}

/** Deletes a share, or withdraws an offer not yet accepted. */
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
    if (!member) {
      const offer = await repo.findOffer(tx, projectId, accountId, true);
      if (!offer) throw new AppError(Codes.PROJECT_INVALID, 'This account has no share of the project');
      const listed = await repo.offerOf(tx, projectId, accountId);
      await repo.deleteOffer(tx, projectId, accountId);
      await recordAudit(tx, caller, {
        at: now,
        projectId,
        action: 'delete',
        entity: 'share',
        entityId: accountId,
        before: offerAuditFields(offer, listed.account.account),
      });
      return { accountId };
    }
    const listed = await repo.shareOf(tx, projectId, accountId);
    await repo.deleteMember(tx, projectId, accountId);
    await repo.deleteOffer(tx, projectId, accountId);
    await repo.deleteOpenInvitesFor(tx, projectId, accountId);
    await cancelJob(tx, expiryKey(projectId, accountId));
    // A row that had already run out (the job not yet past it) was lost by expiry, not by the delete.
    const ranOut = member.expiresAt !== null && member.expiresAt.getTime() <= now.getTime();
    await repo.recordDeparture(tx, projectId, accountId, ranOut ? 'expired' : 'removed', now);
    await recordAudit(tx, caller, {
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

/** A member leaves (SPEC.md §4 unbind). The owner cannot: 5030. */
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
    await recordAudit(tx, caller, {
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
  const body = parseOrThrow(CreateInviteBody, input);
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
      // An addressed code grants nothing before it is accepted; the limits are counted then.
      target = await repo.findAccount(tx, body);
      if (!target) throw new AppError(Codes.SHARE_ACCOUNT_MISSING);
      if (target.id === caller.accountId || target.id === access.project.ownerId) {
        throw new AppError(Codes.SHARE_TO_SELF);
      }
      const existing = await repo.findMember(tx, projectId, target.id);
      if (existing && isLive(existing, now)) refuseExisting(memberTerms(existing), body.permission, hours);
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
    await recordAudit(tx, caller, {
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

/**
 * Accepting an invite code. SPEC.md §6: invitation projects are read-only to invitees, so the
 * membership is read-only and marked 'invite' (projects/access.ts keeps it read-only), whatever
 * permission an older code was made with. The limits (61) are counted now.
 */
export async function acceptInvite(deps: ServiceDeps, caller: Caller, code: string): Promise<ProjectIdView> {
  const now = deps.now();
  return write(deps, async (tx) => {
    // Locks in the order every other share write takes them: project, account, member, invite.
    const seen = await usableInvite(tx, caller, code, now, false);
    const project = await repo.lockProject(tx, seen.projectId);
    const invite = await usableInvite(tx, caller, code, now, true);
    if (!project || project.project.isDemo) throw new AppError(Codes.PROJECT_INVALID);
    if (project.project.ownerId === caller.accountId) throw new AppError(Codes.SHARE_TO_SELF);
    const permission = SharePermission.READ_ONLY;
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
    const member = await repo.insertMember(tx, {
      projectId: invite.projectId,
      accountId: caller.accountId,
      permission,
      validHours: hours,
      expiresAt: hours === null ? null : new Date(now.getTime() + hours * HOUR),
      acceptedAt: now,
      sharedBy: invite.createdBy,
      via: 'invite',
      createdAt: now,
    });
    await repo.markInviteUsed(tx, invite.id, caller.accountId, now);
    await repo.clearDeparture(tx, invite.projectId, caller.accountId);
    await syncExpiryJob(tx, member);
    await recordAudit(tx, caller, {
      at: now,
      projectId: invite.projectId,
      action: 'accept',
      entity: 'invite',
      entityId: invite.id,
      after: auditFields(member, caller.account),
    });
    return { projectId: invite.projectId };
  });
}

/**
 * Transfer of permission (SPEC.md §4), offered: the project stays the caller's until the target
 * accepts it (acceptTransfer). 2103 caller is not the owner, 2101 target missing, 2102 target is
 * the owner already. A new offer replaces the pending one.
 */
export async function transfer(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  input: TransferBody,
): Promise<TransferView> {
  const body = parseOrThrow(TransferBody, input);
  const now = deps.now();
  return write(deps, async (tx) => {
    const access = await loadProjectAccess(tx, caller, projectId, { now, lock: 'update' });
    if (access.isDemo) throw new AppError(Codes.DEMO_PROJECT);
    if (!access.isOwner) throw new AppError(Codes.TRANSFER_NOT_MANAGER);
    const target = await repo.findAccount(tx, body);
    if (!target) throw new AppError(Codes.TRANSFER_NO_ACCOUNT);
    if (target.id === access.project.ownerId) throw new AppError(Codes.TRANSFER_SAME_MANAGER);
    const before = await repo.findTransfer(tx, projectId, true);
    await repo.upsertTransfer(tx, {
      projectId,
      fromAccountId: caller.accountId,
      toAccountId: target.id,
      createdAt: now,
    });
    await recordAudit(tx, caller, {
      at: now,
      projectId,
      action: 'offer',
      entity: 'transfer',
      entityId: projectId,
      before: before ? { to: before.toAccount } : null,
      after: { owner: access.ownerAccount, to: target.account },
    });
    return { projectId, ownerAccount: access.ownerAccount, toAccount: target.account, pending: true };
  });
}

/** The owner withdraws a transfer not yet accepted: 2103 for anyone else, 5033 when there is none. */
export async function cancelTransfer(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
): Promise<ProjectIdView> {
  const now = deps.now();
  return write(deps, async (tx) => {
    const access = await loadProjectAccess(tx, caller, projectId, { now, lock: 'update' });
    if (access.isDemo) throw new AppError(Codes.DEMO_PROJECT);
    if (!access.isOwner) throw new AppError(Codes.TRANSFER_NOT_MANAGER);
    const pending = await repo.findTransfer(tx, projectId, true);
    if (!pending) throw new AppError(Codes.NOT_FOUND, 'The project has no pending transfer');
    await repo.deleteTransfer(tx, projectId);
    await recordAudit(tx, caller, {
      at: now,
      projectId,
      action: 'cancel',
      entity: 'transfer',
      entityId: projectId,
      before: { to: pending.toAccount },
    });
    return { projectId };
  });
}

/** The receiving account declines a transfer: the project stays where it is. */
export async function declineTransfer(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
): Promise<ProjectIdView> {
  return write(deps, async (tx) => {
    await repo.lockProject(tx, projectId);
    const pending = await repo.findTransfer(tx, projectId, true);
    if (!pending || pending.toAccountId !== caller.accountId) throw new AppError(Codes.NO_OFFER);
    await repo.deleteTransfer(tx, projectId);
    await recordAudit(tx, caller, {
      at: deps.now(),
      projectId,
      action: 'decline',
      entity: 'transfer',
      entityId: projectId,
      before: { to: caller.account },
    });
    return { projectId };
  });
}

/**
 * The receiving account accepts a transfer: the project gets a new owner and leaves the previous
 * owner's list (the previous owner keeps no share). Its own project count limit (5004) and names
 * (5038) are checked now; its own share or offer of the project ends.
 */
export async function acceptTransfer(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
): Promise<TransferView> {
  const now = deps.now();
  return write(deps, async (tx, revoked) => {
    const project = await repo.lockProject(tx, projectId);
    const pending = project ? await repo.findTransfer(tx, projectId, true) : undefined;
    if (!project || !pending || pending.toAccountId !== caller.accountId || project.project.isDemo) {
      throw new AppError(Codes.NO_OFFER);
    }
    const previousOwner = project.project.ownerId;
    await repo.lockAccount(tx, caller.accountId);
    if ((await projectRepo.countOwnedProjects(tx, caller.accountId)) >= deps.config.maxProjectsPerAccount) {
      throw new AppError(Codes.PROJECT_LIMIT, 'Your account has reached its project count limit');
    }
    if (await projectRepo.nameTaken(tx, caller.accountId, project.project.name)) {
      const message = `You already have a project named "${project.project.name}"`;
      throw new AppError(Codes.NAME_TAKEN, message, { name: message });
    }
    const share = await repo.findMember(tx, projectId, caller.accountId, true);
    if (share) {
      await repo.deleteMember(tx, projectId, caller.accountId);
      await cancelJob(tx, expiryKey(projectId, caller.accountId));
    }
    await repo.deleteOffer(tx, projectId, caller.accountId);
    await repo.deleteOpenInvitesFor(tx, projectId, caller.accountId);
    await repo.clearDeparture(tx, projectId, caller.accountId);
    await repo.deleteTransfer(tx, projectId);
    await repo.setOwner(tx, projectId, caller.accountId, now);
    await repo.recordDeparture(tx, projectId, previousOwner, 'removed', now);
    await recordAudit(tx, caller, {
      at: now,
      projectId,
      action: 'transfer',
      entity: 'project',
      entityId: projectId,
      before: { owner: project.ownerAccount },
      after: { owner: caller.account },
    });
    await revoke(tx, revoked, { projectId, accountId: previousOwner, reason: 'transfer' });
    return { projectId, ownerAccount: caller.account, toAccount: caller.account, pending: false };
  });
}
