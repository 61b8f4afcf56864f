import { AppError, Codes, remotePageDirectory } from '@beacon/protocol';

/**
 * What the remote-management proxy may ask the device for: only paths under the page the device
 * named when the session opened. The request travels over the device's own MQTT link (the server
 * connects to no address: docs/decisions/0060), and stays confined to the page's directory as
 * docs/decisions/0014 has it, so the device's other local routes stay out of reach too.
 */

/**
 * Raw request-path pieces that a browser following the page's own links never sends, but that a
 * client or the device could decode into a different path: backslashes (WHATWG parsers read them as
 * "/"), percent-encoded "/", "\" and ".", percent-encoded NUL and control characters (raw ones never
 * get past the HTTP parser).
 */
const AMBIGUOUS = /\\|%2f|%5c|%2e|%[01][0-9a-f]|%7f/i;

/** A first segment that parses as a scheme ("http:host/…" is relative only for the same scheme). */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Refused before anything is sent to the device. */
export const outsideDevicePage = () =>
  new AppError(Codes.FORBIDDEN, "The address is outside the device's remote management page");

/** A placeholder origin to resolve paths with: never contacted. */
const NOWHERE = 'http://device.invalid';

/**
 * The path (with its query) to ask the device for, for the raw path after `/remote/{token}/` and
 * the raw query (with its "?"), or null when it would leave the device's page.
 */
export function tunnelTarget(pagePath: string, rawRest: string, rawQuery: string): string | null {
  const dir = remotePageDirectory(pagePath);
  if (rawRest.startsWith('/') || SCHEME.test(rawRest) || AMBIGUOUS.test(rawRest)) return null;
  if (rawRest.split('/').some((s) => s === '.' || s === '..')) return null;
  let target: URL;
  try {
    // The session's own address is the page the device named; anything else is under its directory.
    target = new URL(rawRest + rawQuery, NOWHERE + (rawRest === '' ? pagePath : dir));
  } catch {
    return null;
  }
  if (target.origin !== NOWHERE || !target.pathname.startsWith(dir)) return null;
  return target.pathname + target.search;
}

/**
 * A redirect from the device, as the browser should follow it: a path under the session's own
 * address when it stays on the device's page, else null (the redirect is not passed on).
 */
export function proxiedLocation(pagePath: string, location: string, from: string, sessionPath: string) {
  const dir = remotePageDirectory(pagePath);
  let target: URL;
  try {
    target = new URL(location, NOWHERE + from);
  } catch {
    return null;
  }
  if (target.origin !== NOWHERE || target.username || !target.pathname.startsWith(dir)) return null;
  return sessionPath + target.pathname.slice(dir.length) + target.search;
}

/**
 * The raw path after `/remote/{token}/` and the raw query, taken from the request line as sent:
 * the router's decoded wildcard would turn `%2F%2Fhost` into `//host`.
 */
export function rawRemainder(url: string, token: string): { rest: string; query: string } | null {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const marker = `/remote/${token}/`;
  const at = path.indexOf(marker);
  if (at < 0) return null;
  return { rest: path.slice(at + marker.length), query: q < 0 ? '' : url.slice(q) };
}

/**
 * The device's page runs in a sandbox with an opaque origin: its scripts cannot read or send the
 * console's cookies, call the API as the signed-in account, or frame the console.
 */
export const REMOTE_PAGE_CSP =
  "sandbox allow-scripts allow-forms allow-popups allow-downloads; frame-ancestors 'none'";
