import { DHCP_SERVER_ROUTES, type SaveDhcpServerBody } from '@beacon/protocol';
import { callRoute } from '../../../api/route.ts';
import { deviceKey } from '../api.ts';

/** /api/v1/projects/{id}/devices/{sn}/dhcp-server, from DHCP_SERVER_ROUTES (decision 0043). */
export const dhcpServerApi = {
  get: (projectId: number, sn: string) => callRoute(DHCP_SERVER_ROUTES.get, { id: projectId, sn }),
  save: (projectId: number, sn: string, body: SaveDhcpServerBody) =>
    callRoute(DHCP_SERVER_ROUTES.save, { id: projectId, sn }, { body }),
};

/** Under the device's key: the device's live events refresh it too. */
export const dhcpServerKey = (projectId: number, sn: string) =>
  [...deviceKey(projectId, sn), 'dhcp-server'] as const;
