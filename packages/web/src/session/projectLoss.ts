import { Codes } from '@beacon/protocol';

/**
 * A project the account could see can be lost while it works in it: a timed share expires (74), the
 * owner deletes the share, the member unbinds elsewhere or the project is transferred away (73), or
 * the project is deleted (30). Any call on the project then answers one of these codes; the console
 * drops it as the current project and goes to the project list (docs/decisions/0013).
 */
export const PROJECT_LOST_CODES: ReadonlySet<number> = new Set([
  Codes.PROJECT_ID,
  Codes.PROJECT_INVALID,
  Codes.PROJECT_EXPIRED,
]);

/** The project a call names (`/projects/{id}` and below, relative to /api/v1), or null. */
export function projectIdOf(path: string): number | null {
  const match = /^\/projects\/(\d+)(?:[/?#]|$)/.exec(path);
  return match ? Number(match[1]) : null;
}

/**
 * True when a failed call on `path` may mean the current project is lost: a lost-project code from
 * a call on that project. "May": 73 also answers a change of another account's share that is gone,
 * so the caller asks the project itself before dropping it.
 */
export function mayBeLost(code: number | null, path: string, currentId: number | null | undefined): boolean {
  if (code === null || !PROJECT_LOST_CODES.has(code) || currentId == null) return false;
  return projectIdOf(path) === currentId;
}
