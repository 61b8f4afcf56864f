import {
  AppError,
  Codes,
  LIMITS,
  ProjectRight,
  SharePermission,
  ShareValidity,
  type ShareView,
} from '@beacon/protocol';
import type { ProjectAccess } from '../projects/access.ts';
import type { ListedOffer, ListedShare, MemberRow, OfferRow } from './repository.ts';

/**
 * The sharing rules that need no database (docs/decisions/0005-share-limits.md):
 * who may manage shares, what the limits are, and how a membership row reads as a share record.
 */

/**
 * Sharing is the owner's: demo projects refuse it (5031), read-only members and invitees get
 * 5032, read-write members (managers) 5030 — a manager configures devices but does not hand the
 * project on.
 */
export function requireShareManager(access: ProjectAccess): ProjectAccess {
  if (access.isDemo) throw new AppError(Codes.DEMO_PROJECT);
  if (access.right !== ProjectRight.READ_WRITE) throw new AppError(Codes.READ_ONLY);
  if (!access.isOwner)
    throw new AppError(Codes.FORBIDDEN, 'Only the owner can manage the sharing of a project');
  return access;
}

export interface ShareLimits {
  /** Unexpired read-only shares one account may hold (61). */
  maxRead: number;
  /** Unexpired read-write shares one account may hold (62). */
  maxReadWrite: number;
}

export interface LimitCounts {
  /** Shares the receiving account holds now with the new permission (this share left out). */
  held: number;
  /** The project's unexpired read-write shares and the permanent ones (this share left out). */
  manageable: number;
  permanentManagers: number;
}

/** Throws 61 or 62 when giving `permission` (permanent or not) would pass a limit of SPEC.md §6. */
export function checkLimits(
  limits: ShareLimits,
  permission: SharePermission,
  permanent: boolean,
  counts: LimitCounts,
): void {
  if (permission === SharePermission.READ_ONLY) {
    if (counts.held >= limits.maxRead) {
      throw new AppError(
        Codes.READ_SHARE_MAX,
        `The account already holds the maximum of ${limits.maxRead} read-only shares`,
      );
    }
    return;
  }
  if (counts.held >= limits.maxReadWrite) {
    throw new AppError(
      Codes.READ_WRITE_SHARE_MAX,
      `The account already holds the maximum of ${limits.maxReadWrite} read-write shares`,
    );
  }
  if (counts.manageable >= LIMITS.MANAGEABLE_PER_PROJECT) {
    throw new AppError(
      Codes.READ_WRITE_SHARE_MAX,
      `A project can have at most ${LIMITS.MANAGEABLE_PER_PROJECT} read-write shares`,
    );
  }
  if (permanent && counts.permanentManagers >= LIMITS.PERMANENT_READ_WRITE_MANAGERS) {
    throw new AppError(
      Codes.READ_WRITE_SHARE_MAX,
      `A project can have at most ${LIMITS.PERMANENT_READ_WRITE_MANAGERS} permanent read-write managers`,
    );
  }
}

/** Permanent unless the row grants hours, or (rows made elsewhere) is accepted and carries an end. */
export function isPermanent(member: Pick<MemberRow, 'validHours' | 'expiresAt' | 'acceptedAt'>): boolean {
  return member.validHours === null && (member.expiresAt === null || member.acceptedAt === null);
}

export function hoursOf(
  member: Pick<MemberRow, 'validHours' | 'expiresAt' | 'acceptedAt' | 'createdAt'>,
): number | null {
  if (isPermanent(member)) return null;
  if (member.validHours !== null) return member.validHours;
  const ms = (member.expiresAt?.getTime() ?? 0) - (member.acceptedAt ?? member.createdAt).getTime();
  return Math.max(1, Math.round(ms / 3_600_000));
}

export function toShareView({ member, account, sharedBy }: ListedShare): ShareView {
  const permanent = isPermanent(member);
  return {
    accountId: account.id,
    account: account.account,
    nick: account.nick,
    cloudId: account.cloudId,
    role: account.role,
    permission:
      member.permission === SharePermission.READ_WRITE
        ? SharePermission.READ_WRITE
        : SharePermission.READ_ONLY,
    validity: permanent ? ShareValidity.PERMANENT : ShareValidity.TIMED,
    hours: hoursOf(member),
    expiresAt: member.expiresAt?.toISOString() ?? null,
    accepted: member.acceptedAt !== null,
    via: member.via,
    sharedBy,
    sharedAt: member.createdAt.toISOString(),
  };
}

/** A share offered and not yet accepted, as the owner's list shows it (accepted false, no end yet). */
export function offerToShareView({ offer, account, offeredBy }: ListedOffer): ShareView {
  return {
    accountId: account.id,
    account: account.account,
    nick: account.nick,
    cloudId: account.cloudId,
    role: account.role,
    permission:
      offer.permission === SharePermission.READ_WRITE
        ? SharePermission.READ_WRITE
        : SharePermission.READ_ONLY,
    validity: offer.validHours === null ? ShareValidity.PERMANENT : ShareValidity.TIMED,
    hours: offer.validHours,
    expiresAt: null,
    accepted: false,
    via: 'share',
    sharedBy: offeredBy,
    sharedAt: offer.createdAt.toISOString(),
  };
}

/** What a share offer stores in the audit trail. */
export function offerAuditFields(offer: OfferRow, account: string): Record<string, unknown> {
  return {
    account,
    permission: offer.permission,
    validity: offer.validHours === null ? ShareValidity.PERMANENT : ShareValidity.TIMED,
    hours: offer.validHours,
    accepted: false,
  };
}

/** What a share record stores in the audit trail. */
export function auditFields(member: MemberRow, account: string): Record<string, unknown> {
  return {
    account,
    permission: member.permission,
    validity: isPermanent(member) ? ShareValidity.PERMANENT : ShareValidity.TIMED,
    hours: member.validHours,
    expiresAt: member.expiresAt?.toISOString() ?? null,
    accepted: member.acceptedAt !== null,
    via: member.via,
  };
}

/** Who holds a remote-management session (SPEC.md §4/§6), as the devices domain will record it. */
export interface RemoteSessionHolder {
  accountId: number;
  /** The holder's property on the project: 'own' for the owner, 'shared_manage' for a service person. */
  isOwner: boolean;
}

/**
 * SPEC.md §6 "Remote management by a service person can be displaced when the owner visits":
 * true when `visitor` opening remote management must close `holder`'s session. Only the owner
 * displaces, and only someone else's session (a read-write member = service person); members do
 * not displace one another or the owner — they get "remote management busy" instead.
 * Called by maintenance/service.ts when remote management is opened.
 */
export function shouldDisplaceRemoteSession(
  holder: RemoteSessionHolder | null,
  visitor: RemoteSessionHolder,
): boolean {
  if (!holder) return false;
  if (holder.accountId === visitor.accountId) return false;
  return visitor.isOwner && !holder.isOwner;
}
