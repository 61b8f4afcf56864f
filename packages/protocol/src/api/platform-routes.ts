import { z } from 'zod';
import { IdParam } from './ids.ts';
import type { RouteContract } from './route-contract.ts';

const State = z.enum(['up', 'down']);
/** GET /health when every dependency is up (otherwise 503 with the same states in `fields`). */
export const HealthView = z.object({
  status: z.literal('ok'),
  database: State,
  broker: State,
  events: State,
});

/** A device's signed, short-lived firmware download address. */
export const FirmwareDownloadParams = z.object({ fid: IdParam });
export const FirmwareDownloadQuery = z.object({
  sn: z.string().trim().min(1).max(32),
  exp: z.coerce.number().int(),
  sig: z.string().max(128),
});

/** The development mail outbox (loopback only): the mails sent to one address. */
export const OutboxQuery = z.object({ email: z.string().trim().toLowerCase() });
export const OutboxMailView = z.object({
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  createdAt: z.string(),
});

/** The remote-management proxy: a device's own page, through the server, for the session's account. */
export const RemoteProxyParams = z.object({ token: z.string().min(16).max(64), '*': z.string().optional() });

/**
 * What is not one domain's: health, the OpenAPI description, live events (WebSocket), the devices'
 * firmware downloads, the remote-management proxy and the loopback-only development outbox.
 */
export const PLATFORM_ROUTES = {
  health: { method: 'GET', path: '/health', response: HealthView },
  openapi: { method: 'GET', path: '/openapi.json', raw: 'document' },
  events: { method: 'GET', path: '/events', raw: 'websocket' },
  firmwareDownload: {
    method: 'GET',
    path: '/firmware/:fid/download',
    params: FirmwareDownloadParams,
    query: FirmwareDownloadQuery,
    raw: 'file',
  },
  remoteProxy: { method: 'GET', path: '/remote/:token/*', params: RemoteProxyParams, raw: 'proxy' },
  devOutbox: { method: 'GET', path: '/dev/outbox', query: OutboxQuery, response: z.array(OutboxMailView) },
} as const satisfies Record<string, RouteContract>;
