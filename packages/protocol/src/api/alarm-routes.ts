import { z } from 'zod';
import {
  AlarmDeliveryView,
  AlarmListQuery,
  AlarmReadView,
  AlarmSettingsBody,
  AlarmSettingsView,
  AlarmUnreadView,
  AlarmView,
  MaintenanceWindowBody,
  MaintenanceWindowView,
  MarkAlarmsReadBody,
  MarkAllReadBody,
} from './alarms.ts';
import { Paged, PageQuery } from './envelope.ts';
import { IdParam, ProjectParams } from './ids.ts';
import type { RouteContract } from './route-contract.ts';

export const AlarmWindowParams = ProjectParams.extend({ windowId: IdParam });

/** The alarm routes (server src/alarms/, web features/alarms): SPEC.md §2 /manage/alarminfo. */
export const ALARM_ROUTES = {
  list: {
    method: 'GET',
    path: '/projects/:id/alarms',
    params: ProjectParams,
    query: AlarmListQuery,
    response: Paged(AlarmView),
  },
  unread: {
    method: 'GET',
    path: '/projects/:id/alarms/unread',
    params: ProjectParams,
    response: AlarmUnreadView,
  },
  markRead: {
    method: 'POST',
    path: '/projects/:id/alarms/read',
    params: ProjectParams,
    body: MarkAlarmsReadBody,
    response: AlarmReadView,
  },
  markAllRead: {
    method: 'POST',
    path: '/projects/:id/alarms/read-all',
    params: ProjectParams,
    body: MarkAllReadBody,
    response: AlarmReadView,
  },
  settings: {
    method: 'GET',
    path: '/projects/:id/alarms/settings',
    params: ProjectParams,
    response: AlarmSettingsView,
  },
  saveSettings: {
    method: 'PUT',
    path: '/projects/:id/alarms/settings',
    params: ProjectParams,
    body: AlarmSettingsBody,
    response: AlarmSettingsView,
  },
  deliveries: {
    method: 'GET',
    path: '/projects/:id/alarms/deliveries',
    params: ProjectParams,
    query: PageQuery,
    response: Paged(AlarmDeliveryView),
  },
  windows: {
    method: 'GET',
    path: '/projects/:id/alarms/windows',
    params: ProjectParams,
    response: z.array(MaintenanceWindowView),
  },
  addWindow: {
    method: 'POST',
    path: '/projects/:id/alarms/windows',
    params: ProjectParams,
    body: MaintenanceWindowBody,
    response: MaintenanceWindowView,
  },
  removeWindow: {
    method: 'DELETE',
    path: '/projects/:id/alarms/windows/:windowId',
    params: AlarmWindowParams,
    response: z.object({ id: z.number().int() }),
  },
} as const satisfies Record<string, RouteContract>;
