import { ConfigDeviceParams } from './config.ts';
import { ProjectParams } from './ids.ts';
import type { RouteContract } from './route-contract.ts';
import { SaveSwitchBody, SwitchPoeList, SwitchView } from './switch.ts';

/** Switch ports (server config/switch*.ts, web features/devices/ports): docs/decisions/0039. */
export const SWITCH_ROUTES = {
  get: {
    method: 'GET',
    path: '/projects/:id/devices/:sn/switch',
    params: ConfigDeviceParams,
    response: SwitchView,
  },
  save: {
    method: 'PUT',
    path: '/projects/:id/devices/:sn/switch',
    params: ConfigDeviceParams,
    body: SaveSwitchBody,
    response: SwitchView,
  },
  poe: {
    method: 'GET',
    path: '/projects/:id/switch-poe',
    params: ProjectParams,
    response: SwitchPoeList,
  },
} as const satisfies Record<string, RouteContract>;
