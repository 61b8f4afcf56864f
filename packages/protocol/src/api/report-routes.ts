import { z } from 'zod';
import { ProjectParams } from './ids.ts';
import {
  DeviceExportQuery,
  ModelListQuery,
  ModelParams,
  ModelUploadBody,
  ModelView,
  PivotQuery,
  PivotView,
} from './reports.ts';
import type { RouteContract } from './route-contract.ts';

/** The pivot report and the device information export (server reports/, web features/reports; decision 0055). */
export const REPORT_ROUTES = {
  pivot: {
    method: 'GET',
    path: '/reports/activated-devices',
    query: PivotQuery,
    response: PivotView,
  },
  pivotExport: {
    method: 'GET',
    path: '/reports/activated-devices/export',
    query: PivotQuery,
    raw: 'file',
  },
  deviceExport: {
    method: 'GET',
    path: '/projects/:id/devices/export',
    params: ProjectParams,
    query: DeviceExportQuery,
    raw: 'file',
  },
} as const satisfies Record<string, RouteContract>;

/** The cloud-managed model list (server models/, web features/reports). */
export const MODEL_ROUTES = {
  list: { method: 'GET', path: '/models', query: ModelListQuery, response: z.array(ModelView) },
  upload: { method: 'POST', path: '/models', body: ModelUploadBody, response: ModelView },
  image: { method: 'GET', path: '/models/:model/image', params: ModelParams, raw: 'file' },
} as const satisfies Record<string, RouteContract>;
