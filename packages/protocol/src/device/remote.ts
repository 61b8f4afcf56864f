import { z } from 'zod';
import { Codes } from '../errors.ts';
import { type Check, invalid } from '../validators/result.ts';

/**
 * The reply data of `remote-management-open`: where the device's page is and the bearer token it
 * expects. The server proxies exactly that origin and path, so the URL is checked before a session
 * is opened: a device must not be able to point the server at something else.
 */

const refused = (why: string) => invalid(Codes.REMOTE_URL_FAILED, `The device's page address ${why}`);

/** 0.0.0.0/8, link-local (cloud metadata at 169.254.169.254), multicast, reserved and broadcast. */
function unroutableV4(host: string): boolean {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a === 0 || (a === 169 && b === 254) || a >= 224;
}

/** ::, link-local, multicast, and IPv4-mapped forms of the IPv4 ranges above. */
function unroutableV6(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === '::') return true;
  if (/^fe[89ab]/.test(h) || h.startsWith('ff')) return true;
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (mapped) {
    const hi = Number.parseInt(mapped[1], 16);
    const lo = Number.parseInt(mapped[2], 16);
    return unroutableV4(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`);
  }
  return false;
}

/**
 * An address the proxy never connects to, whatever name led to it (0.0.0.0/8, link-local with the
 * cloud metadata service, multicast, broadcast, ::, IPv6 link-local and multicast).
 */
export function isUnroutableAddress(address: string): boolean {
  return address.includes(':') ? unroutableV6(address) : unroutableV4(address);
}

/**
 * A device's remote page address: http or https, no credentials, no query or fragment, a host
 * that names a machine (loopback stays allowed: simulated devices serve their page there), at most
 * 2048 characters. Code 5023 otherwise.
 */
export function validateRemoteDeviceUrl(value: string): Check {
  if (value.length > 2048) return refused('is too long');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refused('is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refused('must be http or https');
  if (url.username || url.password) return refused('must not carry credentials');
  if (url.search || url.hash || value.includes('#')) return refused('must not carry a query or fragment');
  const host = url.hostname;
  if (!host || unroutableV4(host) || (host.startsWith('[') && unroutableV6(host))) {
    return refused('names no reachable host');
  }
  return null;
}

/** The base every proxied path is resolved against: the page's directory (ends with "/"). */
export function remotePageBase(value: string): URL {
  const url = new URL(value);
  url.pathname = url.pathname.replace(/[^/]*$/, '');
  return url;
}

export const remoteOpenReplySchema = z.object({
  url: z.string().refine((v) => validateRemoteDeviceUrl(v) === null),
  // Sent as a request header to the device: printable ASCII only.
  token: z.string().regex(/^[\x21-\x7e]{1,512}$/),
  expiresAt: z.number().int().positive().optional(),
});
export type RemoteOpenReply = z.infer<typeof remoteOpenReplySchema>;
