import { ConfigDeviceParams } from './config.ts';
import { DhcpServerView, SaveDhcpServerBody } from './dhcp-server.ts';
import type { RouteContract } from './route-contract.ts';

/** The DHCP server of a switch or an AP (server config/dhcp-server*.ts): docs/decisions/0043. */
export const DHCP_SERVER_ROUTES = {
  get: {
    method: 'GET',
    path: '/projects/:id/devices/:sn/dhcp-server',
    params: ConfigDeviceParams,
    response: DhcpServerView,
  },
  save: {
    method: 'PUT',
    path: '/projects/:id/devices/:sn/dhcp-server',
    params: ConfigDeviceParams,
    body: SaveDhcpServerBody,
    response: DhcpServerView,
  },
} as const satisfies Record<string, RouteContract>;
