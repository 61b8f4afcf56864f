import { AppError, BACKUP_ROUTES, Codes, ok as envelope, LIMITS } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import { readOneFile } from '../http/upload.ts';
import { loadProjectAccess, requireWritable } from '../projects/access.ts';
import { backupFileStream } from './download.ts';
import { isWlan } from './repository.ts';
import * as service from './service.ts';

const tags = ['backup'];
const R = BACKUP_ROUTES;

/** /api/v1/projects/{id}/backups…: configuration backup and restore (SPEC.md §2 /manage/backup, decision 0049). */
export async function backupRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    R.list.path,
    {
      schema: {
        tags,
        summary:
          'The backups of the project, newest first (filter by device and type), and its general backup count',
        params: R.list.params,
        querystring: R.list.query,
        response: { 200: envelope(R.list.response) },
      },
    },
    async (request) =>
      ok(await service.listBackups(deps, callerOf(request), request.params.id, request.query)),
  );

  app.post(
    R.create.path,
    {
      schema: {
        tags,
        summary:
          'Back up devices (general or restore point): each answers 0 with its backup id (taken from the device; an offline device’s waits), 5361 within 3 minutes of its last backup, or 5033. 5362/5363 unless confirmOverwrite when the oldest general backup or a restore point would go.',
        params: R.create.params,
        body: R.create.body,
        response: { 200: envelope(R.create.response) },
      },
    },
    async (request) =>
      ok(await service.requestBackups(deps, callerOf(request), request.params.id, request.body)),
  );

  app.post(
    R.upload.path,
    {
      schema: {
        tags,
        summary:
          'Upload a backup file (multipart field `file`: .json up to 512 KB, a backup of a known model, checked whole before anything is stored)',
        params: R.upload.params,
        querystring: R.upload.query,
        consumes: ['multipart/form-data'],
        response: { 200: envelope(R.upload.response) },
      },
    },
    async (request) => {
      const who = callerOf(request);
      const projectId = request.params.id;
      const access = requireWritable(
        await loadProjectAccess(deps.database.db, who, projectId, { now: deps.now() }),
      );
      if (!isWlan(access.project)) throw new AppError(Codes.BACKUP_WLAN_ONLY);
      const { filename, bytes } = await readOneFile(request, {
        maxBytes: LIMITS.BACKUP_FILE_MAX_BYTES,
        tooLarge: () => new AppError(Codes.FILE_TOO_LARGE, 'The backup file must be at most 512 KB'),
        choose: 'Choose a backup file',
      });
      return ok(
        await service.uploadBackup(deps, who, projectId, {
          fileName: filename,
          bytes,
          confirmOverwrite: request.query.confirmOverwrite,
        }),
      );
    },
  );

  app.get(
    R.getSettings.path,
    {
      schema: {
        tags,
        summary:
          'Automatic backups: after each applied change, and every N hours (at most one per device per 3 minutes)',
        params: R.getSettings.params,
        response: { 200: envelope(R.getSettings.response) },
      },
    },
    async (request) => ok(await service.getSettings(deps, callerOf(request), request.params.id)),
  );

  app.put(
    R.putSettings.path,
    {
      schema: {
        tags,
        summary: 'Change the automatic backups',
        params: R.putSettings.params,
        body: R.putSettings.body,
        response: { 200: envelope(R.putSettings.response) },
      },
    },
    async (request) =>
      ok(await service.putSettings(deps, callerOf(request), request.params.id, request.body)),
  );

  app.get(
    R.get.path,
    {
      schema: {
        tags,
        summary: 'One backup with its configuration document (secrets as ********)',
        params: R.get.params,
        response: { 200: envelope(R.get.response) },
      },
    },
    async (request) =>
      ok(await service.getBackup(deps, callerOf(request), request.params.id, request.params.backupId)),
  );

  app.patch(
    R.update.path,
    {
      schema: {
        tags,
        summary:
          "Make a backup the device's restore point (5363 unless confirmOverwrite when it has one) or general again",
        params: R.update.params,
        body: R.update.body,
        response: { 200: envelope(R.update.response) },
      },
    },
    async (request) =>
      ok(
        await service.updateBackup(
          deps,
          callerOf(request),
          request.params.id,
          request.params.backupId,
          request.body,
        ),
      ),
  );

  app.delete(
    R.remove.path,
    {
      schema: {
        tags,
        summary: 'Delete a backup',
        params: R.remove.params,
        response: { 200: envelope(R.remove.response) },
      },
    },
    async (request) =>
      ok(await service.deleteBackup(deps, callerOf(request), request.params.id, request.params.backupId)),
  );

  app.get(
    R.file.path,
    {
      schema: {
        tags,
        summary:
          'The backup file (JSON, secrets sealed), streamed; its SHA-256 in the x-checksum-sha256 header',
        params: R.file.params,
        produces: ['application/octet-stream'],
      },
    },
    async (request, reply) => {
      const backup = await service.backupForDownload(
        deps,
        callerOf(request),
        request.params.id,
        request.params.backupId,
      );
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-disposition', `attachment; filename="${backup.fileName}"`)
        .header('content-length', String(backup.size))
        .header('x-checksum-sha256', backup.checksum)
        .header('cache-control', 'no-store')
        .send(backupFileStream(deps.database, backup));
    },
  );

  app.get(
    R.compare.path,
    {
      schema: {
        tags,
        summary:
          'Compare a backup with another (other=) or with the configuration a device runs now (sn=, default its own device), leaf by leaf',
        params: R.compare.params,
        querystring: R.compare.query,
        response: { 200: envelope(R.compare.response) },
      },
    },
    async (request) =>
      ok(
        await service.compareBackup(
          deps,
          callerOf(request),
          request.params.id,
          request.params.backupId,
          request.query,
        ),
      ),
  );

  app.post(
    R.restore.path,
    {
      schema: {
        tags,
        summary:
          'Restore a backup to its device or another of the same model (5360 otherwise) as a new configuration revision; the device applies it now or when it is back online',
        params: R.restore.params,
        body: R.restore.body,
        response: { 200: envelope(R.restore.response) },
      },
    },
    async (request) =>
      ok(
        await service.restoreBackup(
          deps,
          callerOf(request),
          request.params.id,
          request.params.backupId,
          request.body,
        ),
      ),
  );
}
