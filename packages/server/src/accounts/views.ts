import {
  ACCOUNT_ROUTES,
  type AccessType,
  type AccountView,
  ALL_MENU_FLAGS,
  displayRoleOf,
  type MenuFlags,
  routeUrl,
  type SessionView,
} from '@beacon/protocol';
import type { accounts } from '../db/schema.ts';

type AccountRow = typeof accounts.$inferSelect;

/** SPEC.md §5: company name and location can be changed once per year. */
export function nextChangeAllowedAt(changedAt: Date | null): Date | null {
  if (!changedAt) return null;
  const next = new Date(changedAt.getTime());
  next.setUTCFullYear(next.getUTCFullYear() + 1);
  return next;
}

function lockedUntil(changedAt: Date | null, now: Date): string | null {
  const next = nextChangeAllowedAt(changedAt);
  return next && next.getTime() > now.getTime() ? next.toISOString() : null;
}

export function avatarUrl(row: Pick<AccountRow, 'id' | 'avatarMime' | 'avatarVersion'>): string | null {
  return row.avatarMime ? `${routeUrl(ACCOUNT_ROUTES.avatar, { id: row.id })}?v=${row.avatarVersion}` : null;
}

export function toAccountView(row: AccountRow, now: Date): AccountView {
  return {
    id: row.id,
    account: row.account,
    nick: row.nick,
    email: row.email,
    role: row.role as AccountView['role'],
    cloudId: row.cloudId,
    companyName: row.companyName,
    companyLocation: row.companyLocation,
    companyNameLockedUntil: lockedUntil(row.companyNameChangedAt, now),
    companyLocationLockedUntil: lockedUntil(row.companyLocationChangedAt, now),
    avatarUrl: avatarUrl(row),
    remindTags: row.remindTags,
    createdAt: row.createdAt.toISOString(),
    displayRole: displayRoleOf(row),
    parentId: row.parentId,
    level: row.level === 0 || row.level === 1 ? row.level : null,
  };
}

/** ALL_MENU_FLAGS minus the account's switched-off flags (SPEC.md §6). */
export function menuFlags(disabled: readonly string[]): MenuFlags {
  const flags = { ...ALL_MENU_FLAGS };
  for (const flag of disabled) if (flag in flags) flags[flag as keyof MenuFlags] = false;
  return flags;
}

export function toSessionView(
  row: AccountRow,
  accessType: AccessType,
  idleTimeoutSeconds: number,
  now: Date,
): SessionView {
  return {
    account: toAccountView(row, now),
    accessType,
    flags: menuFlags(row.disabledFlags),
    idleTimeoutSeconds,
  };
}
