import { ok as envelope, SWITCH_ROUTES } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './switch.ts';

const tags = ['configuration'];

/** Switch ports of a switch and the project's PoE budgets (docs/decisions/0039), signed in. */
export async function switchRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    SWITCH_ROUTES.get.path,
    {
      schema: {
        tags,
        summary:
          "A switch's ports, QVLAN, management VLAN and IP as saved (every port), the configuration status, and its reported ports and PoE budget",
        params: SWITCH_ROUTES.get.params,
        response: { 200: envelope(SWITCH_ROUTES.get.response) },
      },
    },
    async (request) =>
      ok(await service.getSwitch(deps, callerOf(request), request.params.id, request.params.sn)),
  );

  app.put(
    SWITCH_ROUTES.save.path,
    {
      schema: {
        tags,
        summary:
          'Save the switch section as a new configuration revision based on expectedRevision (5120 when another was saved since); refused for offline (36), local-management (76) and upgrading (71) switches, and with the code of each broken rule (16, 112, 2, 5013, 5015, 107, 110, 5260)',
        params: SWITCH_ROUTES.save.params,
        body: SWITCH_ROUTES.save.body,
        response: { 200: envelope(SWITCH_ROUTES.save.response) },
      },
    },
    async (request) =>
      ok(
        await service.saveSwitch(deps, callerOf(request), request.params.id, request.params.sn, request.body),
      ),
  );

  app.get(
    SWITCH_ROUTES.poe.path,
    {
      schema: {
        tags,
        summary: 'PoE budget, used and remaining of every switch of the project, as the switches report them',
        params: SWITCH_ROUTES.poe.params,
        response: { 200: envelope(SWITCH_ROUTES.poe.response) },
      },
    },
    async (request) => ok(await service.listSwitchPoe(deps, callerOf(request), request.params.id)),
  );
}
