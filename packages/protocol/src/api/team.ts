import { z } from 'zod';
import { AccountRole } from '../enums/account.ts';
import { ProjectRight } from '../enums/project.ts';
import { validateEmail, validateNickname } from '../validators/account.ts';
import { checked } from '../validators/zod.ts';
import { Id } from './ids.ts';

/**
 * Subordinate accounts and roles (SPEC.md §6; docs/decisions/0059-subordinate-accounts-and-roles.md,
 * docs/roles.md). A main account creates subordinate accounts and gives them its own projects,
 * read-only or read-write. A subordinate is an administrator (admin 1: configures what it is given,
 * minus the operations the administrator role blocks) or a visitor (guest 0: changes nothing).
 */
export const SubordinateLevel = { GUEST: 0, ADMIN: 1 } as const;
export type SubordinateLevel = (typeof SubordinateLevel)[keyof typeof SubordinateLevel];

/** SPEC.md §6 display roles, in the order the texts name them. */
export const DISPLAY_ROLES = ['common', 'basic', 'silver', 'gold', 'manufacturer', 'visitor'] as const;
export type DisplayRole = (typeof DISPLAY_ROLES)[number];

/** How many subordinate accounts one main account may hold. */
export const MAX_SUBORDINATES = 50;

/**
 * The display role of an account: a visitor subordinate is 'visitor', a manufacturer (role code 2)
 * 'manufacturer', every other account 'common' (basic, silver and gold are membership tiers that a
 * points system would award; Beacon has none, so no account holds them yet).
 */
export function displayRoleOf(account: { role: number; level: number | null }): DisplayRole {
  if (account.level === SubordinateLevel.GUEST) return 'visitor';
  if (account.role === AccountRole.MANUFACTURER) return 'manufacturer';
  return 'common';
}

const RoleCode = z.union([
  z.literal(AccountRole.NORMAL),
  z.literal(AccountRole.ENGINEER),
  z.literal(AccountRole.MANUFACTURER),
  z.literal(AccountRole.OPERATOR),
]);
const Level = z.union([z.literal(SubordinateLevel.GUEST), z.literal(SubordinateLevel.ADMIN)]);
const Permission = z.enum([ProjectRight.READ, ProjectRight.READ_WRITE]);

/**
 * POST /account/subordinates — no password: the new account gets an invitation mail with a one-time
 * link to set its own (7 days), as Meraki does (docs/decisions/0068).
 */
export const CreateSubordinateBody = z
  .object({
    email: checked(z.string().trim().toLowerCase(), validateEmail),
    nick: checked(z.string().trim(), validateNickname),
    role: RoleCode.default(AccountRole.NORMAL),
    level: Level.default(SubordinateLevel.ADMIN),
  })
  .strict();
export type CreateSubordinateBody = z.input<typeof CreateSubordinateBody>;

/** PATCH /account/subordinates/:id — making an account a visitor turns its read-write projects read-only. */
export const UpdateSubordinateBody = z
  .object({
    nick: checked(z.string().trim(), validateNickname).optional(),
    role: RoleCode.optional(),
    level: Level.optional(),
  })
  .strict();
export type UpdateSubordinateBody = z.input<typeof UpdateSubordinateBody>;

/** POST /account/subordinates/:id/projects — gives (or changes) one project. */
export const GrantProjectBody = z.object({ projectId: Id, permission: Permission }).strict();
export type GrantProjectBody = z.input<typeof GrantProjectBody>;

export const SubordinateProjectView = z.object({
  projectId: z.number().int(),
  name: z.string(),
  permission: Permission,
});
export const SubordinateView = z.object({
  id: z.number().int(),
  account: z.string(),
  email: z.string(),
  nick: z.string(),
  role: RoleCode,
  level: Level,
  displayRole: z.enum(DISPLAY_ROLES),
  createdAt: z.string(),
  projects: z.array(SubordinateProjectView),
  /** False until the account has set its password through its invitation. */
  passwordSet: z.boolean(),
  /** When the latest invitation link stops working (null: none waiting, or the password is set). */
  invitationExpiresAt: z.string().nullable(),
});
export type SubordinateView = z.infer<typeof SubordinateView>;

/** A device of one of the account's projects that came online for the first time (the joining alert). */
export const JoinedDeviceView = z.object({
  sn: z.string(),
  name: z.string(),
  model: z.string(),
  projectId: z.number().int(),
  projectName: z.string(),
  firstSeenAt: z.string(),
});
export type JoinedDeviceView = z.infer<typeof JoinedDeviceView>;
export const JoinedDevicesView = z.object({ items: z.array(JoinedDeviceView) });
/** POST /account/joined-devices/seen: the alert was shown up to `through` (the newest firstSeenAt it listed). */
export const SeenJoinedDevicesBody = z.object({ through: z.iso.datetime() }).strict();
