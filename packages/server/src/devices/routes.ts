import { AppError, Codes, DEVICE_ROUTES, ok as envelope, LIMITS } from '@beacon/protocol';
import type { FastifyRequest } from 'fastify';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import { readOneFile } from '../http/upload.ts';
import * as service from './service.ts';
import { importTemplate, parseImportFile } from './spreadsheet.ts';

const tags = ['devices'];
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function readImportFile(request: FastifyRequest): Promise<{ name: string; bytes: Buffer }> {
  const file = await readOneFile(request, {
    maxBytes: LIMITS.IMPORT_MAX_BYTES,
    tooLarge: () => new AppError(Codes.FILE_TOO_LARGE),
    choose: 'Choose an xls or xlsx file',
  });
  return { name: file.filename, bytes: file.bytes };
}

/** /api/v1/projects/{id}/devices: the device inventory (SPEC.md §3 Device, /manage/devconf). */
export async function deviceRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    DEVICE_ROUTES.list.path,
    {
      schema: {
        tags,
        summary: "The project's devices: search (q, ip, model, name, mac, port, vlan), filter, sort, pages",
        params: DEVICE_ROUTES.list.params,
        querystring: DEVICE_ROUTES.list.query,
        response: { 200: envelope(DEVICE_ROUTES.list.response) },
      },
    },
    async (request) =>
      ok(await service.listDevices(deps, callerOf(request), request.params.id, request.query)),
  );

  app.post(
    DEVICE_ROUTES.add.path,
    {
      schema: {
        tags,
        summary:
          'Add a device by serial number (a device that never connected needs its model: it is pre-provisioned)',
        params: DEVICE_ROUTES.add.params,
        body: DEVICE_ROUTES.add.body,
        response: { 200: envelope(DEVICE_ROUTES.add.response) },
      },
    },
    async (request) => ok(await service.addDevice(deps, callerOf(request), request.params.id, request.body)),
  );

  app.post(
    DEVICE_ROUTES.import.path,
    {
      schema: {
        tags,
        summary:
          'Batch import from an xls or xlsx file (multipart field `file`, at most 500 rows); a result per row',
        consumes: ['multipart/form-data'],
        params: DEVICE_ROUTES.import.params,
        response: { 200: envelope(DEVICE_ROUTES.import.response) },
      },
    },
    async (request) => {
      const who = callerOf(request);
      // The permission gate answers before the file is read (a stranger learns nothing from 5018).
      await service.checkImportAllowed(deps, who, request.params.id);
      const file = await readImportFile(request);
      const rows = await parseImportFile(file.name, file.bytes);
      return ok(await service.importDevices(deps, who, request.params.id, rows));
    },
  );

  app.get(
    DEVICE_ROUTES.get.path,
    {
      schema: {
        tags,
        summary: 'One device with its latest telemetry snapshot',
        params: DEVICE_ROUTES.get.params,
        response: { 200: envelope(DEVICE_ROUTES.get.response) },
      },
    },
    async (request) =>
      ok(await service.getDevice(deps, callerOf(request), request.params.id, request.params.sn)),
  );

  app.patch(
    DEVICE_ROUTES.update.path,
    {
      schema: {
        tags,
        summary: 'Rename a device or change its remark (neither may be empty)',
        params: DEVICE_ROUTES.update.params,
        body: DEVICE_ROUTES.update.body,
        response: { 200: envelope(DEVICE_ROUTES.update.response) },
      },
    },
    async (request) =>
      ok(
        await service.updateDevice(
          deps,
          callerOf(request),
          request.params.id,
          request.params.sn,
          request.body,
        ),
      ),
  );

  app.delete(
    DEVICE_ROUTES.remove.path,
    {
      schema: {
        tags,
        summary:
          'Remove a device: mode=unbind (default, back to the unclaimed pool) or mode=delete (forget it)',
        params: DEVICE_ROUTES.remove.params,
        querystring: DEVICE_ROUTES.remove.query,
        response: { 200: envelope(DEVICE_ROUTES.remove.response) },
      },
    },
    async (request) =>
      ok(
        await service.removeDevice(
          deps,
          callerOf(request),
          request.params.id,
          request.params.sn,
          request.query,
        ),
      ),
  );

  app.get(
    DEVICE_ROUTES.deviceCommands.path,
    {
      schema: {
        tags,
        summary: 'Commands sent to the device, newest first, each with its one outcome',
        params: DEVICE_ROUTES.deviceCommands.params,
        querystring: DEVICE_ROUTES.deviceCommands.query,
        response: { 200: envelope(DEVICE_ROUTES.deviceCommands.response) },
      },
    },
    async (request) =>
      ok(
        await service.listDeviceCommands(
          deps,
          callerOf(request),
          request.params.id,
          request.params.sn,
          request.query,
        ),
      ),
  );

  app.get(
    DEVICE_ROUTES.projectCommands.path,
    {
      schema: {
        tags,
        summary: 'Commands of the project by id, each with its outcome and, once known, its final outcome',
        params: DEVICE_ROUTES.projectCommands.params,
        querystring: DEVICE_ROUTES.projectCommands.query,
        response: { 200: envelope(DEVICE_ROUTES.projectCommands.response) },
      },
    },
    async (request) =>
      ok(await service.listProjectCommands(deps, callerOf(request), request.params.id, request.query.ids)),
  );

  app.get(
    DEVICE_ROUTES.importTemplate.path,
    {
      schema: {
        tags,
        summary: 'The batch-import template (xlsx): Serial number, Model, Name, Remark',
        produces: [XLSX_MIME],
      },
    },
    async (_request, reply) =>
      reply
        .type(XLSX_MIME)
        .header('content-disposition', 'attachment; filename="beacon-device-import.xlsx"')
        .header('cache-control', 'private, max-age=3600')
        .send(importTemplate()),
  );
}
