import { DHCP_SERVER_ROUTES, ok as envelope } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './dhcp-server.ts';

const tags = ['configuration'];

/** The DHCP server of a switch or an AP (docs/decisions/0043), signed in. */
export async function dhcpServerRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    DHCP_SERVER_ROUTES.get.path,
    {
      schema: {
        tags,
        summary:
          "A switch's or an AP's DHCP server as saved (null: none), its configuration status, the project's VLANs with their DHCP mode, and the DHCP clients it reports",
        params: DHCP_SERVER_ROUTES.get.params,
        response: { 200: envelope(DHCP_SERVER_ROUTES.get.response) },
      },
    },
    async (request) =>
      ok(await service.getDhcpServer(deps, callerOf(request), request.params.id, request.params.sn)),
  );

  app.put(
    DHCP_SERVER_ROUTES.save.path,
    {
      schema: {
        tags,
        summary:
          'Save the DHCP server section as a new configuration revision based on expectedRevision (5120 when another was saved since); refused for a gateway (2), offline (36), local-management (76) and upgrading (71) devices, on a VLAN with DHCP relay, snooping or the gateway server (5011), and with the code of each pool rule (16, 107, 108, 109, 110, 105, 106, 5013)',
        params: DHCP_SERVER_ROUTES.save.params,
        body: DHCP_SERVER_ROUTES.save.body,
        response: { 200: envelope(DHCP_SERVER_ROUTES.save.response) },
      },
    },
    async (request) =>
      ok(
        await service.saveDhcpServer(
          deps,
          callerOf(request),
          request.params.id,
          request.params.sn,
          request.body,
        ),
      ),
  );
}
