import { createHash } from 'node:crypto';
import { AppError, Codes, DEVICE_ROUTES, ok as envelope, LIMITS, PLATFORM_ROUTES } from '@beacon/protocol';
import type { FastifyRequest } from 'fastify';
import { callerOf, requireAccount } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import type { TunnelAnswer } from '../gateway/tunnel.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import { readOneFile } from '../http/upload.ts';
import { loadProjectAccess, requireWritable } from '../projects/access.ts';
import { checkFirmware, firmwareView, verifyDownload } from './firmware.ts';
import { firmwareFile, storeFirmware } from './firmware-store.ts';
import { closeRemoteSession, findOpenRemoteSession, remoteSessionLapse } from './remote.ts';
import { remotePath } from './remote-holder.ts';
import {
  outsideDevicePage,
  proxiedLocation,
  REMOTE_PAGE_CSP,
  rawRemainder,
  tunnelTarget,
} from './remote-proxy.ts';
import { runAction } from './service.ts';
import { maintenanceView } from './view.ts';

const tags = ['maintenance'];

/** Where devices reach this server: the address the caller used (a reverse proxy sets Host). */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** Device maintenance (signed in): actions on one device or many, firmware, remote management. */
export async function maintenanceRoutes(app: App, deps: Deps): Promise<void> {
  app.post(
    DEVICE_ROUTES.action.path,
    {
      schema: {
        tags,
        summary:
          "A maintenance action on one device: reboot, reset, upgrade, password, reboot-schedule, locate, copy-config, rate-limit, led, poe-reboot, local-management, remote-management, cpe-mode. The body is the action's parameters; a device the action cannot reach answers its code (36, 37, 38, 71, 76, 5046, …).",
        params: DEVICE_ROUTES.action.params,
        body: DEVICE_ROUTES.action.body,
        response: { 200: envelope(DEVICE_ROUTES.action.response) },
      },
    },
    async (request) => {
      const { id, sn, action } = request.params;
      const body = (request.body ?? {}) as Record<string, unknown>;
      const targets = action === 'copy-config' ? ((body.targets as string[] | undefined) ?? []) : [sn];
      if (action === 'copy-config' && (!Array.isArray(targets) || targets.length === 0)) {
        // Validate the access first, then the body (the permission code wins over the form's).
        requireWritable(
          await loadProjectAccess(deps.database.db, callerOf(request), id, { now: deps.now() }),
        );
        throw new AppError(Codes.FORM_DATA, 'Select a device', { targets: 'Select a device' });
      }
      const results = await runAction(deps, callerOf(request), id, action, targets, body, {
        origin: originOf(request),
        pathSn: sn.toUpperCase(),
      });
      if (action === 'copy-config') {
        const failed = results.find((r) => r.code !== 0);
        if (failed && results.length === 1)
          throw new AppError(failed.code as never, failed.message ?? undefined);
        return ok({ sn: sn.toUpperCase(), code: 0, message: null, commandId: null, data: { results } });
      }
      const [result] = results;
      if (result.code !== 0) throw new AppError(result.code as never, result.message ?? undefined);
      return ok(result);
    },
  );

  app.post(
    DEVICE_ROUTES.bulk.path,
    {
      schema: {
        tags,
        summary:
          "The same maintenance action on many devices: one result per device (code 0 or the device's code)",
        params: DEVICE_ROUTES.bulk.params,
        body: DEVICE_ROUTES.bulk.body,
        response: { 200: envelope(DEVICE_ROUTES.bulk.response) },
      },
    },
    async (request) => {
      const { id, action } = request.params;
      const results = await runAction(
        deps,
        callerOf(request),
        id,
        action,
        request.body.sns,
        request.body.params,
        {
          origin: originOf(request),
        },
      );
      const succeeded = results.filter((r) => r.code === 0).length;
      return ok({ results, succeeded, failed: results.length - succeeded });
    },
  );

  app.get(
    DEVICE_ROUTES.maintenance.path,
    {
      schema: {
        tags,
        summary: "A device's reboot schedule, firmware versions, remote management and latest commands",
        params: DEVICE_ROUTES.maintenance.params,
        response: { 200: envelope(DEVICE_ROUTES.maintenance.response) },
      },
    },
    async (request) =>
      ok(await maintenanceView(deps, callerOf(request), request.params.id, request.params.sn)),
  );

  app.post(
    DEVICE_ROUTES.uploadFirmware.path,
    {
      schema: {
        tags,
        summary:
          'Upload a firmware image (multipart field `file`: .bin up to 40 MB, checked by its content); upgrade devices with its id',
        params: DEVICE_ROUTES.uploadFirmware.params,
        consumes: ['multipart/form-data'],
        response: { 200: envelope(DEVICE_ROUTES.uploadFirmware.response) },
      },
    },
    async (request) => {
      const who = callerOf(request);
      const projectId = request.params.id;
      requireWritable(await loadProjectAccess(deps.database.db, who, projectId, { now: deps.now() }));
      const { filename, bytes } = await readOneFile(request, {
        maxBytes: LIMITS.FIRMWARE_MAX_BYTES,
        tooLarge: () => new AppError(Codes.FILE_TOO_LARGE, 'The firmware must be at most 40 MB'),
        choose: 'Choose a firmware file',
      });
      const checked = checkFirmware(filename, bytes);
      const row = await storeFirmware(
        deps.database,
        who,
        projectId,
        { fileName: filename, bytes, checked },
        deps.now(),
      );
      return ok(firmwareView(row));
    },
  );

  // Remote management: the device's local page through the server, for the account that opened it.
  const proxy = async (
    request: FastifyRequest<{ Params: { token: string; '*'?: string } }>,
    reply: import('fastify').FastifyReply,
  ) => {
    const principal = requireAccount(request);
    const now = deps.now();
    const session = await findOpenRemoteSession(
      deps.database.db,
      request.params.token,
      principal.accountId,
      now,
    );
    if (!session) throw new AppError(Codes.NOT_FOUND, 'The remote management address has expired');
    // Every request needs the rights that opened the session: the caller may still write the
    // project (a share may have ended or become read-only since) and the device is still in it.
    // Otherwise the session ends here, with the refusal's code.
    const lapse = await remoteSessionLapse(deps.database.db, session, now);
    if (lapse) {
      await closeRemoteSession(deps.database.db, session.token, now);
      throw lapse;
    }
    const raw = rawRemainder(request.url, session.token);
    const target = raw && tunnelTarget(session.pagePath, raw.rest, raw.query);
    if (!target) throw outsideDevicePage();
    let res: TunnelAnswer;
    try {
      // Over the device's own MQTT link (docs/decisions/0060): the server opens no connection. Only
      // the device's own token goes along, never the console's cookies or the caller's headers.
      const accept = request.headers.accept;
      const language = request.headers['accept-language'];
      res = await deps.gateway.tunnel.request(session.sn, {
        token: session.deviceToken,
        method: request.method === 'HEAD' ? 'HEAD' : 'GET',
        path: target,
        headers: {
          ...(accept ? { accept: accept.slice(0, 256) } : {}),
          ...(language ? { acceptLanguage: language.slice(0, 256) } : {}),
        },
      });
    } catch {
      throw new AppError(Codes.REMOTE_LOGIN_TIMEOUT);
    }
    if (res.status === 401) throw new AppError(Codes.REMOTE_LOGIN_TIMEOUT);
    reply
      .header('content-security-policy', REMOTE_PAGE_CSP)
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex');
    if (res.status >= 300 && res.status < 400) {
      const to =
        res.location && proxiedLocation(session.pagePath, res.location, target, remotePath(session.token));
      if (!to) throw new AppError(Codes.REMOTE_FAILED, 'The device redirected outside its page');
      return reply.status(res.status).header('location', to).send();
    }
    if (!res.body) throw new AppError(Codes.REMOTE_FAILED, 'The device page is too large');
    return reply
      .status(res.status)
      .type(res.contentType ?? 'application/octet-stream')
      .send(res.body);
  };
  const proxySchema = { schema: { hide: true, params: PLATFORM_ROUTES.remoteProxy.params } };
  app.get(PLATFORM_ROUTES.remoteProxy.path, proxySchema, proxy as never);
}

/**
 * Devices fetch their image here: no session, a signed short-lived URL (firmware.ts). Registered
 * outside the signed-in routes (app.ts).
 */
export async function firmwareDownloadRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    PLATFORM_ROUTES.firmwareDownload.path,
    {
      schema: {
        hide: true,
        params: PLATFORM_ROUTES.firmwareDownload.params,
        querystring: PLATFORM_ROUTES.firmwareDownload.query,
      },
    },
    async (request, reply) => {
      const { fid } = request.params;
      const { sn, exp, sig } = request.query;
      if (!verifyDownload(deps.config.factoryKey, fid, sn, exp, sig, deps.now())) {
        throw new AppError(Codes.FORBIDDEN, 'The download address is not valid or has expired');
      }
      const row = await firmwareFile(deps.database, fid);
      if (!row) throw new AppError(Codes.NOT_FOUND);
      return reply
        .type('application/octet-stream')
        .header('content-disposition', `attachment; filename="${row.fileName.replace(/[^\w.-]/g, '_')}"`)
        .header('cache-control', 'no-store')
        .send(row.data);
    },
  );
}

/** The SHA-256 of a buffer (tests). */
export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
