import { Paged } from './envelope.ts';
import { ProjectParams } from './ids.ts';
import {
  AuditLogDownloadQuery,
  AuditLogQuery,
  DeviceLogDownloadQuery,
  DeviceLogQuery,
  DeviceLogView,
  LogSettingsBody,
  LogSettingsView,
} from './logs.ts';
import { AuditView } from './projects.ts';
import type { RouteContract } from './route-contract.ts';

/**
 * The Log screen's routes (server logs/, web features/logs). The two downloads answer a file (CSV
 * or xlsx, streamed), not the JSON envelope: their `response` is the file's text as the client sees it.
 * The older unfiltered audit list `GET /projects/:id/logs` stays in projects/routes.ts.
 */
export const LOG_ROUTES = {
  deviceLogs: {
    method: 'GET',
    path: '/projects/:id/logs/device',
    params: ProjectParams,
    query: DeviceLogQuery,
    response: Paged(DeviceLogView),
  },
  auditLogs: {
    method: 'GET',
    path: '/projects/:id/logs/audit',
    params: ProjectParams,
    query: AuditLogQuery,
    response: Paged(AuditView),
  },
  deviceLogDownload: {
    method: 'GET',
    path: '/projects/:id/logs/device/download',
    params: ProjectParams,
    query: DeviceLogDownloadQuery,
    raw: 'file',
  },
  auditLogDownload: {
    method: 'GET',
    path: '/projects/:id/logs/audit/download',
    params: ProjectParams,
    query: AuditLogDownloadQuery,
    raw: 'file',
  },
  getSettings: {
    method: 'GET',
    path: '/projects/:id/logs/settings',
    params: ProjectParams,
    response: LogSettingsView,
  },
  putSettings: {
    method: 'PUT',
    path: '/projects/:id/logs/settings',
    params: ProjectParams,
    body: LogSettingsBody,
    response: LogSettingsView,
  },
} as const satisfies Record<string, RouteContract>;
