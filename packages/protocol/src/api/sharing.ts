import { z } from 'zod';
import { SharePermission, ShareValidity } from '../enums/tools.ts';
import { IdParam } from './ids.ts';

/**
 * Sharing a project (SPEC.md §3 Share record, §4 sharing states, §6 sharing levels and limits):
 * /api/v1/projects/{id}/shares, /unbind, /invites, /transfer and /api/v1/invites/{code}.
 */

/** A timed share lasts 1 hour to 1 year. */
export const SHARE_HOURS_MIN = 1;
export const SHARE_HOURS_MAX = 8760;
/** An invite code is valid 1 hour to 30 days (default 3 days). */
export const INVITE_TTL_HOURS_MIN = 1;
export const INVITE_TTL_HOURS_MAX = 720;
export const INVITE_TTL_HOURS_DEFAULT = 72;
/** Invite codes: 12 characters of an unambiguous upper-case alphabet. */
export const INVITE_CODE_PATTERN = /^[A-HJ-NP-Z2-9]{12}$/;

const permission = z.enum([SharePermission.READ_ONLY, SharePermission.READ_WRITE], {
  error: 'Choose read-only or read-write',
});
const validity = z.enum([ShareValidity.PERMANENT, ShareValidity.TIMED], {
  error: 'Choose permanent or a number of hours',
});
const hours = z
  .number({ error: 'Enter a number of hours' })
  .int('Enter a whole number of hours')
  .min(SHARE_HOURS_MIN, `At least ${SHARE_HOURS_MIN} hour`)
  .max(SHARE_HOURS_MAX, `At most ${SHARE_HOURS_MAX} hours`);
const account = z.string().trim().toLowerCase().min(1, 'Enter an account').max(254);
const cloudId = z.string().trim().toUpperCase().min(1, 'Enter a cloud id').max(64);

/** Who: an account (its login email) or a cloud id — exactly one. */
const targetShape = { account: account.optional(), cloudId: cloudId.optional() };
type Target = { account?: string; cloudId?: string };
const oneTarget = (value: Target, ctx: z.RefinementCtx): void => {
  if ((value.account === undefined) === (value.cloudId === undefined)) {
    ctx.addIssue({ code: 'custom', message: 'Enter an account or a cloud id', path: ['account'] });
  }
};
type Validity = { validity?: ShareValidity; hours?: number | null };
const hoursWhenTimed = (value: Validity, ctx: z.RefinementCtx): void => {
  if (value.validity === ShareValidity.TIMED && (value.hours === undefined || value.hours === null)) {
    ctx.addIssue({ code: 'custom', message: 'Enter a number of hours', path: ['hours'] });
  }
  if (value.validity === ShareValidity.PERMANENT && value.hours !== undefined && value.hours !== null) {
    ctx.addIssue({ code: 'custom', message: 'A permanent share has no hours', path: ['hours'] });
  }
};

/** POST /api/v1/projects/{id}/shares */
export const CreateShareBody = z
  .object({
    ...targetShape,
    permission,
    validity: validity.default(ShareValidity.PERMANENT),
    hours: hours.nullable().optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    oneTarget(v, ctx);
    hoursWhenTimed(v, ctx);
  });
export type CreateShareBody = z.input<typeof CreateShareBody>;

/** PATCH /api/v1/projects/{id}/shares/{accountId}: change permission and/or validity (timed restarts now). */
export const UpdateShareBody = z
  .object({
    permission: permission.optional(),
    validity: validity.optional(),
    hours: hours.nullable().optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.permission === undefined && v.validity === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: 'Change the permission or the validity',
        path: ['permission'],
      });
    }
    if (v.validity === undefined && v.hours !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'Choose the validity with the hours', path: ['validity'] });
    }
    hoursWhenTimed(v, ctx);
  });
export type UpdateShareBody = z.input<typeof UpdateShareBody>;

/** One share record (SPEC.md §3): account, role, permission, validity, shared time. */
export const ShareView = z.object({
  accountId: z.number().int(),
  account: z.string(),
  nick: z.string(),
  cloudId: z.string(),
  /** The account's role code (SPEC.md §6: normal 0, engineer 1, manufacturer 2, operator 3). */
  role: z.number().int(),
  permission,
  validity,
  /** Hours granted for a timed share; null when permanent. */
  hours: z.number().int().nullable(),
  expiresAt: z.string().nullable(),
  /** False for an offer the account has not accepted yet: it grants nothing until then. */
  accepted: z.boolean(),
  /** 'share' (offered to the account) or 'invite' (came in with an invite code: read-only, SPEC.md §6). */
  via: z.enum(['share', 'invite', 'subordinate']),
  sharedBy: z.string().nullable(),
  sharedAt: z.string(),
});
export type ShareView = z.infer<typeof ShareView>;

/** A transfer of permission waiting for the receiving account to accept it. */
export const PendingTransferView = z.object({
  account: z.string(),
  offeredAt: z.string(),
});
export type PendingTransferView = z.infer<typeof PendingTransferView>;

export const ShareList = z.object({
  items: z.array(ShareView),
  /** The transfer of permission offered and not yet accepted, if any. */
  transfer: PendingTransferView.nullable(),
  /** Limits that apply to this project (SPEC.md §6). */
  limits: z.object({ permanentManagers: z.number().int(), manageable: z.number().int() }),
});
export type ShareList = z.infer<typeof ShareList>;

/**
 * POST /api/v1/projects/{id}/invites: an expiring, single-use code, optionally for one account.
 * SPEC.md §6: invitation projects are read-only to invitees, so an invitation gives 'r' only.
 */
export const CreateInviteBody = z
  .object({
    ...targetShape,
    permission: z
      .literal(SharePermission.READ_ONLY, {
        error: 'An invitation gives read-only access; share the project with the account for read-write',
      })
      .default(SharePermission.READ_ONLY),
    validity: validity.default(ShareValidity.PERMANENT),
    hours: hours.nullable().optional(),
    expiresInHours: z
      .number()
      .int()
      .min(INVITE_TTL_HOURS_MIN)
      .max(INVITE_TTL_HOURS_MAX)
      .default(INVITE_TTL_HOURS_DEFAULT),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.account !== undefined && v.cloudId !== undefined) oneTarget(v, ctx);
    hoursWhenTimed(v, ctx);
  });
export type CreateInviteBody = z.input<typeof CreateInviteBody>;

export const InviteView = z.object({
  id: z.number().int(),
  projectId: z.number().int(),
  /** The code, only in the answer that created it (it is stored hashed). */
  code: z.string().nullable(),
  /** The path of the accept page, e.g. /invite/ABCD…, only with the code. */
  link: z.string().nullable(),
  /** The invited account, or null for an open invitation (anyone with the code). */
  account: z.string().nullable(),
  permission,
  validity,
  hours: z.number().int().nullable(),
  expiresAt: z.string(),
  createdAt: z.string(),
});
export type InviteView = z.infer<typeof InviteView>;

export const InviteCodeParams = z.object({
  code: z.string().trim().toUpperCase().regex(INVITE_CODE_PATTERN, 'Invalid invite code'),
});

/** GET /api/v1/invites/{code}: what the invitee is about to accept. */
export const InvitePreview = z.object({
  projectId: z.number().int(),
  projectName: z.string(),
  ownerAccount: z.string(),
  permission,
  validity,
  hours: z.number().int().nullable(),
  expiresAt: z.string(),
});
export type InvitePreview = z.infer<typeof InvitePreview>;

/** POST /api/v1/projects/{id}/transfer: hand the project to another account (2101–2103). */
export const TransferBody = z
  .object(targetShape)
  .strict()
  .superRefine((v, ctx) => oneTarget(v, ctx));
export type TransferBody = z.input<typeof TransferBody>;

/**
 * The answer of a transfer offer: the project stays the owner's (ownerAccount) until `toAccount`
 * accepts it; the answer of an acceptance names the new owner and pending false.
 */
export const TransferView = z.object({
  projectId: z.number().int(),
  ownerAccount: z.string(),
  toAccount: z.string(),
  pending: z.boolean(),
});
export type TransferView = z.infer<typeof TransferView>;

export const ProjectIdView = z.object({ projectId: z.number().int() });
export type ProjectIdView = z.infer<typeof ProjectIdView>;

/**
 * Offers waiting for the calling account (docs/decisions/0022-consent-to-shares-and-transfers.md):
 * GET /api/v1/offers; POST /api/v1/offers/{kind}/{projectId}/accept and …/decline.
 */
export const OfferKind = z.enum(['share', 'transfer']);
export type OfferKind = z.infer<typeof OfferKind>;

export const OfferView = z.object({
  kind: OfferKind,
  projectId: z.number().int(),
  projectName: z.string(),
  /** The account that made the offer (the project's owner). */
  fromAccount: z.string(),
  /** Share offers only: the permission and validity the share will have. */
  permission: permission.nullable(),
  validity: validity.nullable(),
  hours: z.number().int().nullable(),
  offeredAt: z.string(),
});
export type OfferView = z.infer<typeof OfferView>;

export const OfferList = z.object({ items: z.array(OfferView) });
export type OfferList = z.infer<typeof OfferList>;

export const OfferParams = z.object({
  kind: OfferKind,
  projectId: IdParam,
});
