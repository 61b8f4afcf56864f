import {
  type BackupSettings,
  CONFIG_ROUTES,
  type CreateBackupsBody,
  BACKUP_ROUTES as R,
  type RouteQuery,
  routeUrl,
} from '@beacon/protocol';
import { callRoute, uploadToRoute } from '../../api/route.ts';

/** /api/v1/projects/{id}/backups (BACKUP_ROUTES): configuration backup and restore. */
export const backupApi = {
  list: (projectId: number, query: RouteQuery<typeof R.list>) =>
    callRoute(R.list, { id: projectId }, { query }),
  create: (projectId: number, body: CreateBackupsBody) => callRoute(R.create, { id: projectId }, { body }),
  get: (projectId: number, backupId: number) => callRoute(R.get, { id: projectId, backupId }),
  setType: (
    projectId: number,
    backupId: number,
    type: 'general' | 'restore_point',
    confirmOverwrite = false,
  ) => callRoute(R.update, { id: projectId, backupId }, { body: { type, confirmOverwrite } }),
  remove: (projectId: number, backupId: number) => callRoute(R.remove, { id: projectId, backupId }),
  restore: (projectId: number, backupId: number, sn: string) =>
    callRoute(R.restore, { id: projectId, backupId }, { body: { sn } }),
  compare: (projectId: number, backupId: number, query: RouteQuery<typeof R.compare>) =>
    callRoute(R.compare, { id: projectId, backupId }, { query }),
  upload: (projectId: number, file: File, confirmOverwrite: boolean) => {
    const form = new FormData();
    form.append('file', file);
    return uploadToRoute(R.upload, { id: projectId }, form, {
      confirmOverwrite: confirmOverwrite ? 'true' : 'false',
    });
  },
  settings: (projectId: number) => callRoute(R.getSettings, { id: projectId }),
  saveSettings: (projectId: number, body: BackupSettings) =>
    callRoute(R.putSettings, { id: projectId }, { body }),
  /** The file's address: the server streams it and the browser saves it as it comes. */
  fileUrl: (projectId: number, backupId: number) => routeUrl(R.file, { id: projectId, backupId }),
  /** A device's configuration status (pending until it reports the restored revision applied). */
  deviceConfig: (projectId: number, sn: string) =>
    callRoute(CONFIG_ROUTES.deviceConfig, { id: projectId, sn }),
};

export const backupsKey = (projectId: number | undefined) => ['backups', projectId] as const;
