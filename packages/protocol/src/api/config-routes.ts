import {
  ConfigDeviceParams,
  ConfigDeviceRevisionParams,
  ConfigDiffQuery,
  ConfigDiffView,
  ConfigRevisionDetail,
  ConfigRevisionList,
  ConfigRevisionParams,
  ConfigRevisionQuery,
  DeviceConfigView,
  ProjectConfigView,
  RollbackConfigBody,
  SaveDeviceConfigBody,
} from './config.ts';
import { ProjectParams } from './ids.ts';
import type { RouteContract } from './route-contract.ts';

/**
 * Desired configuration as revisions, per device and for the project itself: read, save (based on
 * an expected revision), list, compare, roll back (server config/). Copying a configuration, the
 * device password, PoE and LED are maintenance actions (DEVICE_ROUTES.action).
 */
export const CONFIG_ROUTES = {
  deviceConfig: {
    method: 'GET',
    path: '/projects/:id/devices/:sn/config',
    params: ConfigDeviceParams,
    response: DeviceConfigView,
  },
  saveDeviceConfig: {
    method: 'PUT',
    path: '/projects/:id/devices/:sn/config',
    params: ConfigDeviceParams,
    body: SaveDeviceConfigBody,
    response: DeviceConfigView,
  },
  deviceRevisions: {
    method: 'GET',
    path: '/projects/:id/devices/:sn/config/revisions',
    params: ConfigDeviceParams,
    query: ConfigRevisionQuery,
    response: ConfigRevisionList,
  },
  deviceRevision: {
    method: 'GET',
    path: '/projects/:id/devices/:sn/config/revisions/:revision',
    params: ConfigDeviceRevisionParams,
    response: ConfigRevisionDetail,
  },
  deviceDiff: {
    method: 'GET',
    path: '/projects/:id/devices/:sn/config/diff',
    params: ConfigDeviceParams,
    query: ConfigDiffQuery,
    response: ConfigDiffView,
  },
  deviceRollback: {
    method: 'POST',
    path: '/projects/:id/devices/:sn/config/rollback',
    params: ConfigDeviceParams,
    body: RollbackConfigBody,
    response: DeviceConfigView,
  },
  projectConfig: {
    method: 'GET',
    path: '/projects/:id/config',
    params: ProjectParams,
    response: ProjectConfigView,
  },
  saveProjectConfig: {
    method: 'PUT',
    path: '/projects/:id/config',
    params: ProjectParams,
    body: SaveDeviceConfigBody,
    response: ProjectConfigView,
  },
  projectRevisions: {
    method: 'GET',
    path: '/projects/:id/config/revisions',
    params: ProjectParams,
    query: ConfigRevisionQuery,
    response: ConfigRevisionList,
  },
  projectRevision: {
    method: 'GET',
    path: '/projects/:id/config/revisions/:revision',
    params: ConfigRevisionParams,
    response: ConfigRevisionDetail,
  },
  projectDiff: {
    method: 'GET',
    path: '/projects/:id/config/diff',
    params: ProjectParams,
    query: ConfigDiffQuery,
    response: ConfigDiffView,
  },
  projectRollback: {
    method: 'POST',
    path: '/projects/:id/config/rollback',
    params: ProjectParams,
    body: RollbackConfigBody,
    response: ProjectConfigView,
  },
} as const satisfies Record<string, RouteContract>;
