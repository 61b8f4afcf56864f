import {
  type AddDeviceBody,
  COMMAND_IDS_MAX,
  type CommandView,
  DEVICE_ROUTES,
  type DeviceView,
  type MaintenanceAction,
  type RouteQuery,
  routeUrl,
  type UpdateDeviceBody,
} from '@beacon/protocol';
import { callRoute, uploadToRoute } from '../../api/route.ts';

const R = DEVICE_ROUTES;

/** What the device list asks the server for: the query of the contract's list route (DeviceListQuery). */
export type DeviceListParams = RouteQuery<typeof DEVICE_ROUTES.list> & { page: number; pageSize: number };

/** /api/v1/projects/{id}/devices (inventory) and its maintenance actions, from DEVICE_ROUTES. */
export const devicesApi = {
  list: (projectId: number, params: DeviceListParams) =>
    callRoute(R.list, { id: projectId }, { query: { ...params } }),
  get: (projectId: number, sn: string) => callRoute(R.get, { id: projectId, sn }),
  add: (projectId: number, body: AddDeviceBody) => callRoute(R.add, { id: projectId }, { body }),
  update: (projectId: number, sn: string, body: UpdateDeviceBody) =>
    callRoute(R.update, { id: projectId, sn }, { body }),
  remove: (projectId: number, sn: string, mode: 'unbind' | 'delete') =>
    callRoute(R.remove, { id: projectId, sn }, { query: { mode } }),
  import: (projectId: number, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return uploadToRoute(R.import, { id: projectId }, form);
  },
  templateUrl: routeUrl(R.importTemplate),

  maintenance: (projectId: number, sn: string) => callRoute(R.maintenance, { id: projectId, sn }),
  action: (projectId: number, sn: string, action: MaintenanceAction, params: Record<string, unknown> = {}) =>
    callRoute(R.action, { id: projectId, sn, action }, { body: params }),
  bulk: (projectId: number, action: MaintenanceAction, sns: string[], params: Record<string, unknown> = {}) =>
    callRoute(R.bulk, { id: projectId, action }, { body: { sns, params } }),
  /** Commands by id (a bulk action's), COMMAND_IDS_MAX per request. */
  commands: async (projectId: number, ids: readonly string[]): Promise<CommandView[]> => {
    const chunks: string[][] = [];
    for (let i = 0; i < ids.length; i += COMMAND_IDS_MAX) chunks.push(ids.slice(i, i + COMMAND_IDS_MAX));
    const pages = await Promise.all(
      chunks.map((chunk) =>
        callRoute(R.projectCommands, { id: projectId }, { query: { ids: chunk.join(',') } }),
      ),
    );
    return pages.flat();
  },
  uploadFirmware: (projectId: number, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return uploadToRoute(R.uploadFirmware, { id: projectId }, form);
  },
};

/** Most devices one list page may hold (PageQuery). */
const MAX_PAGE = 200;

/** Every device of `model` in the project (pages of 200, at most 10 of them). */
export async function listByModel(projectId: number, model: string): Promise<DeviceView[]> {
  const out: DeviceView[] = [];
  for (let page = 1; page <= 10; page++) {
    const res = await devicesApi.list(projectId, {
      page,
      pageSize: MAX_PAGE,
      model,
      sort: 'name',
      order: 'asc',
    });
    out.push(...res.items);
    if (out.length >= res.total || res.items.length < MAX_PAGE) break;
  }
  return out.filter((d) => d.model === model);
}

export const devicesKey = (projectId: number | undefined) => ['devices', projectId] as const;
export const deviceKey = (projectId: number | undefined, sn: string | null) =>
  ['device', projectId, sn] as const;
export const maintenanceKey = (projectId: number | undefined, sn: string | null) =>
  ['maintenance', projectId, sn] as const;
