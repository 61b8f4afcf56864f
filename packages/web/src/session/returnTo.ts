/**
 * Where to go after signing in: the in-app path a signed-out visitor opened (an invite link, a
 * bookmarked screen), carried in the login URL as `?next=`. Only a path of this app on this origin
 * is accepted — never another site (an open redirect), never a sign-in screen (a loop).
 */
export const NEXT_PARAM = 'next';

const SIGN_IN_PATHS = ['/login', '/signup', '/reset-password', '/static/lrf'];

export function safeNext(raw: string | null | undefined, origin: string): string | null {
  if (!raw || raw.length > 2048) return null;
  // A path, and not "//host" or "/\host" that a browser reads as another origin.
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  // Control characters and backslashes: the URL parser drops or turns them into slashes.
  for (const ch of raw) if (ch < ' ' || ch === '\\') return null;
  let url: URL;
  try {
    url = new URL(raw, origin);
  } catch {
    return null;
  }
  if (url.origin !== new URL(origin).origin) return null;
  if (url.pathname.startsWith('/api/')) return null;
  if (SIGN_IN_PATHS.some((p) => url.pathname === p || url.pathname.startsWith(`${p}/`))) return null;
  const path = `${url.pathname}${url.search}${url.hash}`;
  return path === '/' ? null : path;
}

/** `/login?next=…` for a visitor sent to sign in from `path` (its query kept). */
export function loginPathFor(path: string, origin: string): string {
  const next = safeNext(path, origin);
  return next ? `/login?${NEXT_PARAM}=${encodeURIComponent(next)}` : '/login';
}

/** The validated `next` of a sign-in screen's query string. */
export function nextFromSearch(search: string, origin: string): string | null {
  return safeNext(new URLSearchParams(search).get(NEXT_PARAM), origin);
}

/** The query to carry `next` from one sign-in screen to another (login → sign-up → login). */
export function carryNext(search: string, origin: string): string {
  const next = nextFromSearch(search, origin);
  return next ? `?${NEXT_PARAM}=${encodeURIComponent(next)}` : '';
}
