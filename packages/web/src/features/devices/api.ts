import {
  type ActionResultView,
  type AddDeviceBody,
  type BulkActionView,
  COMMAND_IDS_MAX,
  type CommandView,
  type DeviceDetailView,
  type DeviceView,
  type FirmwareView,
  type ImportResultView,
  type MaintenanceAction,
  type MaintenanceView,
  type UpdateDeviceBody,
} from '@beacon/protocol';
import { client, type Paged } from '../../api/index.ts';

/** What the device list asks the server for (DeviceListQuery of the protocol). */
export interface DeviceListParams {
  page: number;
  pageSize: number;
  q?: string;
  ip?: string;
  model?: string;
  name?: string;
  mac?: string;
  port?: number;
  vlan?: number;
  sort?: string;
  order?: 'asc' | 'desc';
}

/** /api/v1/projects/{id}/devices (inventory) and its maintenance actions. */
export const devicesApi = {
  list: (projectId: number, params: DeviceListParams) =>
    client.get<Paged<DeviceView>>(`/projects/${projectId}/devices`, { query: { ...params } }),
  get: (projectId: number, sn: string) =>
    client.get<DeviceDetailView>(`/projects/${projectId}/devices/${sn}`),
  add: (projectId: number, body: AddDeviceBody) =>
    client.post<DeviceView>(`/projects/${projectId}/devices`, body),
  update: (projectId: number, sn: string, body: UpdateDeviceBody) =>
    client.patch<DeviceView>(`/projects/${projectId}/devices/${sn}`, body),
  remove: (projectId: number, sn: string, mode: 'unbind' | 'delete') =>
    client.del<unknown>(`/projects/${projectId}/devices/${sn}`, { query: { mode } }),
  import: (projectId: number, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return client.upload<ImportResultView>(`/projects/${projectId}/devices/import`, form);
  },
  templateUrl: '/api/v1/devices/import-template',

  maintenance: (projectId: number, sn: string) =>
    client.get<MaintenanceView>(`/projects/${projectId}/devices/${sn}/maintenance`),
  action: (projectId: number, sn: string, action: MaintenanceAction, params: Record<string, unknown> = {}) =>
    client.post<ActionResultView>(`/projects/${projectId}/devices/${sn}/actions/${action}`, params),
  bulk: (projectId: number, action: MaintenanceAction, sns: string[], params: Record<string, unknown> = {}) =>
    client.post<BulkActionView>(`/projects/${projectId}/devices/actions/${action}`, { sns, params }),
  /** Commands by id (a bulk action's), COMMAND_IDS_MAX per request. */
  commands: async (projectId: number, ids: readonly string[]): Promise<CommandView[]> => {
    const chunks: string[][] = [];
    for (let i = 0; i < ids.length; i += COMMAND_IDS_MAX) chunks.push(ids.slice(i, i + COMMAND_IDS_MAX));
    const pages = await Promise.all(
      chunks.map((chunk) =>
        client.get<CommandView[]>(`/projects/${projectId}/commands`, { query: { ids: chunk.join(',') } }),
      ),
    );
    return pages.flat();
  },
  uploadFirmware: (projectId: number, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return client.upload<FirmwareView>(`/projects/${projectId}/firmware`, form);
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
