import {
  ALARM_ROUTES,
  type AlarmSettingsBody,
  type MaintenanceWindowBody,
  type RouteQuery,
} from '@beacon/protocol';
import { callRoute } from '../../api/route.ts';

const R = ALARM_ROUTES;

export type AlarmListParams = RouteQuery<typeof ALARM_ROUTES.list> & { page: number; pageSize: number };

/** Every alarm query of a project sits under this key (live events invalidate it). */
export const alarmsKey = (projectId: number | undefined) => ['alarms', projectId] as const;

/** /api/v1/projects/{id}/alarms… from ALARM_ROUTES. */
export const alarmsApi = {
  list: (projectId: number, params: AlarmListParams) =>
    callRoute(R.list, { id: projectId }, { query: { ...params } }),
  unread: (projectId: number) => callRoute(R.unread, { id: projectId }),
  markRead: (projectId: number, ids: number[]) => callRoute(R.markRead, { id: projectId }, { body: { ids } }),
  markAllRead: (projectId: number) => callRoute(R.markAllRead, { id: projectId }, { body: {} }),
  settings: (projectId: number) => callRoute(R.settings, { id: projectId }),
  saveSettings: (projectId: number, body: AlarmSettingsBody) =>
    callRoute(R.saveSettings, { id: projectId }, { body }),
  deliveries: (projectId: number, page: number, pageSize: number) =>
    callRoute(R.deliveries, { id: projectId }, { query: { page, pageSize } }),
  windows: (projectId: number) => callRoute(R.windows, { id: projectId }),
  addWindow: (projectId: number, body: MaintenanceWindowBody) =>
    callRoute(R.addWindow, { id: projectId }, { body }),
  removeWindow: (projectId: number, windowId: number) =>
    callRoute(R.removeWindow, { id: projectId, windowId }),
};
