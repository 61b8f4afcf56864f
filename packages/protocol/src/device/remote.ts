import { z } from 'zod';
import { DEVICE_LIMITS } from './limits.ts';

/**
 * Remote management through a tunnel the device opens (docs/decisions/0060): a device behind NAT
 * cannot be reached, so the server never connects to it (nor to any address a device or a user
 * names). The administrator's browser asks the server; the server carries each request to the device
 * over the device's own authenticated MQTT link (`dev/{sn}/down/http`) and the device answers on
 * `dev/{sn}/up/http`, in pieces of at most TUNNEL_CHUNK_BYTES.
 */

/** Most bytes of one answer piece (before base64): a piece fits well in one MQTT packet. */
export const TUNNEL_CHUNK_BYTES = 192 * 1024;
/** A device's local page is small: an answer larger than this is cut off (320). */
export const TUNNEL_PAGE_MAX_BYTES = 16 * 1024 * 1024;
/** Pieces of one answer at most (TUNNEL_PAGE_MAX_BYTES / TUNNEL_CHUNK_BYTES, rounded up). */
export const TUNNEL_MAX_CHUNKS = Math.ceil(TUNNEL_PAGE_MAX_BYTES / TUNNEL_CHUNK_BYTES);
/** How long the server waits for the device's whole answer before it answers 321. */
export const TUNNEL_TIMEOUT_SECONDS = 15;

/** A request path on the device's page: absolute, printable ASCII, no dot segments, no fragment. */
export const tunnelPathSchema = z
  .string()
  .max(DEVICE_LIMITS.URL_CHARS)
  .regex(/^\/[\x21-\x7e]*$/, 'An absolute path of printable ASCII')
  .refine(
    (p) =>
      !p.includes('#') &&
      !p
        .split('?')[0]
        .split('/')
        .some((s) => s === '.' || s === '..'),
    {
      message: 'No fragment and no dot segments',
    },
  );

/**
 * `dev/{sn}/down/http`: one request of the administrator's browser. `token` is the one the device
 * gave when the session opened: the device answers 401 to any other or after `expiresAt`.
 */
export const tunnelRequestSchema = z.object({
  rid: z
    .string()
    .min(1)
    .max(DEVICE_LIMITS.ID_CHARS)
    .describe('Request id: every piece of the answer repeats it'),
  token: z.string().regex(/^[\x21-\x7e]{1,512}$/),
  method: z.enum(['GET', 'HEAD']),
  /** Path and query under the device's page, e.g. `/status.json?tab=wifi`. */
  path: tunnelPathSchema,
  /** The browser's Accept and Accept-Language; nothing else of the browser's request is sent. */
  headers: z
    .object({ accept: z.string().max(256).optional(), acceptLanguage: z.string().max(256).optional() })
    .optional(),
  ts: z.int().min(0),
});
export type TunnelRequest = z.infer<typeof tunnelRequestSchema>;

/**
 * `dev/{sn}/up/http`: one piece of the answer. The first (`seq` 0) carries `status` and the headers;
 * `more: false` marks the last. `body` is base64 (at most TUNNEL_CHUNK_BYTES decoded).
 */
export const tunnelResponseSchema = z.object({
  rid: z.string().min(1).max(DEVICE_LIMITS.ID_CHARS),
  seq: z.int().min(0).max(TUNNEL_MAX_CHUNKS),
  status: z.int().min(100).max(599).optional(),
  contentType: z.string().max(DEVICE_LIMITS.TEXT_CHARS).optional(),
  /** A redirect's target: a path on the device's page (anything else is not passed on: 320). */
  location: z.string().max(DEVICE_LIMITS.URL_CHARS).optional(),
  body: z
    .string()
    .max(Math.ceil(TUNNEL_CHUNK_BYTES / 3) * 4)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/),
  more: z.boolean(),
});
export type TunnelResponse = z.infer<typeof tunnelResponseSchema>;

/** Splits an answer into the pieces a device publishes. */
export function tunnelPieces(
  rid: string,
  answer: { status: number; contentType?: string; location?: string; body: Uint8Array },
): TunnelResponse[] {
  const out: TunnelResponse[] = [];
  const { body } = answer;
  for (let seq = 0, at = 0; seq === 0 || at < body.length; seq++, at += TUNNEL_CHUNK_BYTES) {
    const part = body.subarray(at, at + TUNNEL_CHUNK_BYTES);
    out.push({
      rid,
      seq,
      ...(seq === 0
        ? {
            status: answer.status,
            ...(answer.contentType ? { contentType: answer.contentType } : {}),
            ...(answer.location ? { location: answer.location } : {}),
          }
        : {}),
      body: toBase64(part),
      more: at + TUNNEL_CHUNK_BYTES < body.length,
    });
  }
  return out;
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/**
 * The reply data of `remote-management-open`: the token the device wants with every tunnelled
 * request, when the session ends, and the path of its page (default `/`). A `url` from a device of
 * the earlier protocol is ignored: the server reaches no address a device names.
 */
export const remoteOpenReplySchema = z.object({
  token: z.string().regex(/^[\x21-\x7e]{1,512}$/),
  expiresAt: z.number().int().positive().optional(),
  path: z
    .string()
    .max(512)
    .regex(/^\/[\x21-\x7e]*$/)
    .refine((p) => !/[?#]/.test(p) && !p.split('/').some((s) => s === '.' || s === '..'))
    .default('/'),
});
export type RemoteOpenReply = z.infer<typeof remoteOpenReplySchema>;

/** The directory of the page (ends with "/"): every tunnelled path stays under it. */
export const remotePageDirectory = (pagePath: string): string => pagePath.replace(/[^/]*$/, '');
