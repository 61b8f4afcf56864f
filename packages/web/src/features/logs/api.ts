import {
  type AuditLogQuery,
  type DeviceLogQuery,
  type EventLevel,
  type LogDownloadFormat,
  type LogSettingsBody,
  LOG_ROUTES as R,
  type RouteQuery,
  routeUrl,
} from '@beacon/protocol';
import { buildQuery } from '../../api/client.ts';
import { callRoute } from '../../api/route.ts';

export type LogKind = 'device' | 'audit';

/** Filters of both logs; `type` is an event name (device log) or an audit action. */
export interface LogFilter {
  from?: string;
  to?: string;
  sn?: string;
  type?: string;
  level?: EventLevel;
}

export const logsKey = (projectId: number | undefined, kind?: LogKind) =>
  kind ? ['logs', projectId, kind] : ['logs', projectId];

export const logsApi = {
  device: (projectId: number, query: Partial<DeviceLogQuery>) =>
    callRoute(R.deviceLogs, { id: projectId }, { query }),
  audit: (projectId: number, query: Partial<AuditLogQuery>) =>
    callRoute(R.auditLogs, { id: projectId }, { query }),
  settings: (projectId: number) => callRoute(R.getSettings, { id: projectId }),
  saveSettings: (projectId: number, body: LogSettingsBody) =>
    callRoute(R.putSettings, { id: projectId }, { body }),
  /** The file's URL (the server streams it; the browser saves it as it comes). */
  downloadUrl: (projectId: number, kind: LogKind, filter: LogFilter, format: LogDownloadFormat) => {
    const route = kind === 'device' ? R.deviceLogDownload : R.auditLogDownload;
    const query: RouteQuery<typeof route> = {
      ...filter,
      ...(kind === 'audit' ? { level: undefined } : {}),
      format,
    };
    return `${routeUrl(route, { id: projectId })}${buildQuery(query as Record<string, string>)}`;
  },
};
