import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import {
  AppError,
  Codes,
  isUnroutableAddress,
  remotePageBase,
  validateRemoteDeviceUrl,
} from '@beacon/protocol';

/**
 * What the remote-management proxy may reach: only paths under the page the device named when the
 * session opened (same origin, same directory). docs/decisions/0014-remote-proxy-bound-to-device-page.md
 */

/**
 * Raw request-path pieces that a browser following the page's own links never sends, but that a
 * client or the device could decode into a different path or host: backslashes (WHATWG parsers read
 * them as "/"), percent-encoded "/", "\" and ".", percent-encoded NUL and control characters (raw
 * ones never get past the HTTP parser).
 */
const AMBIGUOUS = /\\|%2f|%5c|%2e|%[01][0-9a-f]|%7f/i;

/** A first segment that parses as a scheme ("http:host/…" is relative only for the same scheme). */
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Refused before any connection is made. */
export const outsideDevicePage = () =>
  new AppError(Codes.FORBIDDEN, "The address is outside the device's remote management page");

/**
 * The device URL to fetch for the raw path after `/remote/{token}/` and the raw query (with its
 * "?"), or null when it would leave the device's page.
 */
export function proxyTarget(deviceUrl: string, rawRest: string, rawQuery: string): URL | null {
  // Sessions opened before the device URL was checked are checked here too.
  if (validateRemoteDeviceUrl(deviceUrl)) return null;
  const base = remotePageBase(deviceUrl);
  if (rawRest.startsWith('/') || SCHEME.test(rawRest) || AMBIGUOUS.test(rawRest)) return null;
  if (rawRest.split('/').some((s) => s === '.' || s === '..')) return null;
  let target: URL;
  try {
    // The session's own address is the page the device named; anything else is under its directory.
    target = new URL(rawRest + rawQuery, rawRest === '' ? deviceUrl : base);
  } catch {
    return null;
  }
  target.hash = '';
  return isUnder(target, base) ? target : null;
}

const isUnder = (target: URL, base: URL) =>
  target.origin === base.origin &&
  !target.username &&
  !target.password &&
  target.pathname.startsWith(base.pathname);

/**
 * A redirect from the device, as the browser should follow it: a path under the session's own
 * address when it stays on the device's page, else null (the redirect is not passed on).
 */
export function proxiedLocation(deviceUrl: string, location: string, from: URL, sessionPath: string) {
  const base = remotePageBase(deviceUrl);
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    return null;
  }
  if (!isUnder(target, base)) return null;
  return sessionPath + target.pathname.slice(base.pathname.length) + target.search;
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

/** A device's local page is small; a device streaming more must not fill the server's memory. */
export const DEVICE_PAGE_MAX_BYTES = 16 * 1024 * 1024;
const DEVICE_TIMEOUT_MS = 15_000;

type Lookup = typeof dns.lookup;

/**
 * A DNS lookup that fails for names resolving to an unroutable address (isUnroutableAddress), so
 * a device naming a host rather than an address cannot lead the proxy to the metadata service.
 * Address literals are checked when the session opens (validateRemoteDeviceUrl).
 */
export function guardedLookup(resolve: Lookup = dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses: dns.LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      if (addresses.length === 0 || addresses.some((a) => isUnroutableAddress(a.address))) {
        const refused = Object.assign(
          new Error(`${hostname} resolves to an address the proxy does not reach`),
          {
            code: 'EUNROUTABLE',
          },
        );
        return callback(refused, '', 0);
      }
      if (options.all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

export interface DeviceAnswer {
  status: number;
  contentType: string | undefined;
  location: string | undefined;
  /** Null when the answer passed DEVICE_PAGE_MAX_BYTES (the rest is not read). */
  body: Buffer | null;
}

/** One GET to the device's page; rejects when it cannot be reached in time. No redirect is followed. */
export function requestDevicePage(target: URL, headers: Record<string, string>): Promise<DeviceAnswer> {
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      { method: 'GET', headers, lookup: guardedLookup(), timeout: DEVICE_TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const answer = (body: Buffer | null) =>
          resolve({
            status: res.statusCode ?? 502,
            contentType: res.headers['content-type'],
            location: res.headers.location,
            body,
          });
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > DEVICE_PAGE_MAX_BYTES) {
            req.destroy();
            answer(null);
          } else chunks.push(chunk);
        });
        res.on('end', () => answer(Buffer.concat(chunks)));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('the device did not answer in time')));
    req.on('error', reject);
    req.end();
  });
}

/**
 * The device's page runs in a sandbox with an opaque origin: its scripts cannot read or send the
 * console's cookies, call the API as the signed-in account, or frame the console.
 */
export const REMOTE_PAGE_CSP =
  "sandbox allow-scripts allow-forms allow-popups allow-downloads; frame-ancestors 'none'";
