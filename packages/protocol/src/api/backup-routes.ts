import {
  BackupCompareQuery,
  BackupCompareView,
  BackupDetail,
  BackupList,
  BackupListQuery,
  BackupParams,
  BackupSettings,
  BackupView,
  CreateBackupsBody,
  CreateBackupsResult,
  RestoreBackupBody,
  RestoreView,
  UpdateBackupBody,
  UploadBackupQuery,
} from './backups.ts';
import { ProjectParams } from './ids.ts';
import type { RouteContract } from './route-contract.ts';

/**
 * Configuration backup and restore (server backups/, web features/backup; decision 0049). The file
 * download answers the file itself (streamed), not the envelope; the upload is multipart (`file`).
 */
export const BACKUP_ROUTES = {
  list: {
    method: 'GET',
    path: '/projects/:id/backups',
    params: ProjectParams,
    query: BackupListQuery,
    response: BackupList,
  },
  create: {
    method: 'POST',
    path: '/projects/:id/backups',
    params: ProjectParams,
    body: CreateBackupsBody,
    response: CreateBackupsResult,
  },
  upload: {
    method: 'POST',
    path: '/projects/:id/backups/upload',
    params: ProjectParams,
    query: UploadBackupQuery,
    response: BackupView,
  },
  getSettings: {
    method: 'GET',
    path: '/projects/:id/backups/settings',
    params: ProjectParams,
    response: BackupSettings,
  },
  putSettings: {
    method: 'PUT',
    path: '/projects/:id/backups/settings',
    params: ProjectParams,
    body: BackupSettings,
    response: BackupSettings,
  },
  get: {
    method: 'GET',
    path: '/projects/:id/backups/:backupId',
    params: BackupParams,
    response: BackupDetail,
  },
  update: {
    method: 'PATCH',
    path: '/projects/:id/backups/:backupId',
    params: BackupParams,
    body: UpdateBackupBody,
    response: BackupView,
  },
  remove: {
    method: 'DELETE',
    path: '/projects/:id/backups/:backupId',
    params: BackupParams,
    response: BackupView,
  },
  file: {
    method: 'GET',
    path: '/projects/:id/backups/:backupId/file',
    params: BackupParams,
    raw: 'file',
  },
  compare: {
    method: 'GET',
    path: '/projects/:id/backups/:backupId/compare',
    params: BackupParams,
    query: BackupCompareQuery,
    response: BackupCompareView,
  },
  restore: {
    method: 'POST',
    path: '/projects/:id/backups/:backupId/restore',
    params: BackupParams,
    body: RestoreBackupBody,
    response: RestoreView,
  },
} as const satisfies Record<string, RouteContract>;
