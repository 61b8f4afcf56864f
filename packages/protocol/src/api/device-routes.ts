import { z } from 'zod';
import {
  AddDeviceBody,
  CommandIdsQuery,
  CommandView,
  DeviceDetailView,
  DeviceListQuery,
  DeviceView,
  ImportResultView,
  RemoveDeviceQuery,
  RemovedDeviceView,
  UpdateDeviceBody,
} from './devices.ts';
import { Paged, PageQuery } from './envelope.ts';
import { ProjectParams } from './ids.ts';
import {
  ActionResultView,
  BulkActionBody,
  BulkActionView,
  FirmwareView,
  MAINTENANCE_ACTIONS,
  MaintenanceView,
} from './maintenance.ts';
import type { RouteContract } from './route-contract.ts';

/** A device of the project in the path: /projects/:id/devices/:sn. */
export const DeviceParams = ProjectParams.extend({ sn: z.string().min(1).max(64) });
const ActionSn = z.string().trim().min(1).max(32);
const Action = z.enum(MAINTENANCE_ACTIONS);

/** The device inventory and maintenance routes (server devices/ and maintenance/, web features/devices). */
export const DEVICE_ROUTES = {
  list: {
    method: 'GET',
    path: '/projects/:id/devices',
    params: ProjectParams,
    query: DeviceListQuery,
    response: Paged(DeviceView),
  },
  add: {
    method: 'POST',
    path: '/projects/:id/devices',
    params: ProjectParams,
    body: AddDeviceBody,
    response: DeviceView,
  },
  import: {
    method: 'POST',
    path: '/projects/:id/devices/import',
    params: ProjectParams,
    response: ImportResultView,
  },
  importTemplate: { method: 'GET', path: '/devices/import-template', raw: 'file' },
  get: { method: 'GET', path: '/projects/:id/devices/:sn', params: DeviceParams, response: DeviceDetailView },
  update: {
    method: 'PATCH',
    path: '/projects/:id/devices/:sn',
    params: DeviceParams,
    body: UpdateDeviceBody,
    response: DeviceView,
  },
  remove: {
    method: 'DELETE',
    path: '/projects/:id/devices/:sn',
    params: DeviceParams,
    query: RemoveDeviceQuery,
    response: RemovedDeviceView,
  },
  deviceCommands: {
    method: 'GET',
    path: '/projects/:id/devices/:sn/commands',
    params: DeviceParams,
    query: PageQuery,
    response: Paged(CommandView),
  },
  projectCommands: {
    method: 'GET',
    path: '/projects/:id/commands',
    params: ProjectParams,
    query: CommandIdsQuery,
    response: z.array(CommandView),
  },
  action: {
    method: 'POST',
    path: '/projects/:id/devices/:sn/actions/:action',
    params: ProjectParams.extend({ sn: ActionSn, action: Action }),
    body: z.record(z.string(), z.unknown()).optional(),
    response: ActionResultView,
  },
  bulk: {
    method: 'POST',
    path: '/projects/:id/devices/actions/:action',
    params: ProjectParams.extend({ action: Action }),
    body: BulkActionBody,
    response: BulkActionView,
  },
  maintenance: {
    method: 'GET',
    path: '/projects/:id/devices/:sn/maintenance',
    params: ProjectParams.extend({ sn: ActionSn }),
    response: MaintenanceView,
  },
  uploadFirmware: {
    method: 'POST',
    path: '/projects/:id/firmware',
    params: ProjectParams,
    response: FirmwareView,
  },
} as const satisfies Record<string, RouteContract>;
