import {
  AddDeviceBody,
  AppError,
  Codes,
  CommandIdsQuery,
  CommandView,
  DeviceDetailView,
  DeviceListQuery,
  DeviceView,
  ok as envelope,
  ImportResultView,
  LIMITS,
  Paged,
  PageQuery,
  ProjectParams,
  RemoveDeviceQuery,
  RemovedDeviceView,
  UpdateDeviceBody,
} from '@beacon/protocol';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import { readOneFile } from '../http/upload.ts';
import * as service from './service.ts';
import { importTemplate, parseImportFile } from './spreadsheet.ts';

const DeviceParams = ProjectParams.extend({ sn: z.string().min(1).max(64) });
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
    '/projects/:id/devices',
    {
      schema: {
        tags,
        summary: "The project's devices: search (q, ip, model, name, mac, port, vlan), filter, sort, pages",
        params: ProjectParams,
        querystring: DeviceListQuery,
        response: { 200: envelope(Paged(DeviceView)) },
      },
    },
    async (request) =>
      ok(await service.listDevices(deps, callerOf(request), request.params.id, request.query)),
  );

  app.post(
    '/projects/:id/devices',
    {
      schema: {
        tags,
        summary:
          'Add a device by serial number (a device that never connected needs its model: it is pre-provisioned)',
        params: ProjectParams,
        body: AddDeviceBody,
        response: { 200: envelope(DeviceView) },
      },
    },
    async (request) => ok(await service.addDevice(deps, callerOf(request), request.params.id, request.body)),
  );

  app.post(
    '/projects/:id/devices/import',
    {
      schema: {
        tags,
        summary:
          'Batch import from an xls or xlsx file (multipart field `file`, at most 500 rows); a result per row',
        consumes: ['multipart/form-data'],
        params: ProjectParams,
        response: { 200: envelope(ImportResultView) },
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
    '/projects/:id/devices/:sn',
    {
      schema: {
        tags,
        summary: 'One device with its latest telemetry snapshot',
        params: DeviceParams,
        response: { 200: envelope(DeviceDetailView) },
      },
    },
    async (request) =>
      ok(await service.getDevice(deps, callerOf(request), request.params.id, request.params.sn)),
  );

  app.patch(
    '/projects/:id/devices/:sn',
    {
      schema: {
        tags,
        summary: 'Rename a device or change its remark (neither may be empty)',
        params: DeviceParams,
        body: UpdateDeviceBody,
        response: { 200: envelope(DeviceView) },
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
    '/projects/:id/devices/:sn',
    {
      schema: {
        tags,
        summary:
          'Remove a device: mode=unbind (default, back to the unclaimed pool) or mode=delete (forget it)',
        params: DeviceParams,
        querystring: RemoveDeviceQuery,
        response: { 200: envelope(RemovedDeviceView) },
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
    '/projects/:id/devices/:sn/commands',
    {
      schema: {
        tags,
        summary: 'Commands sent to the device, newest first, each with its one outcome',
        params: DeviceParams,
        querystring: PageQuery,
        response: { 200: envelope(Paged(CommandView)) },
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
    '/projects/:id/commands',
    {
      schema: {
        tags,
        summary: 'Commands of the project by id, each with its outcome and, once known, its final outcome',
        params: ProjectParams,
        querystring: CommandIdsQuery,
        response: { 200: envelope(z.array(CommandView)) },
      },
    },
    async (request) =>
      ok(await service.listProjectCommands(deps, callerOf(request), request.params.id, request.query.ids)),
  );

  app.get(
    '/devices/import-template',
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
