import { CLIENT_ROUTES, ok as envelope } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './service.ts';

const tags = ['clients'];
const R = CLIENT_ROUTES;

/** /api/v1/projects/{id}/clients: online clients (SPEC.md §3 Online client, /manage/onlinelist, /manage/onlinestat). */
export async function clientRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    R.list.path,
    {
      schema: {
        tags,
        summary: 'Online clients: search (q, ip, mac, name, model, vlan), filters, sort, pages',
        params: R.list.params,
        querystring: R.list.query,
        response: { 200: envelope(R.list.response) },
      },
    },
    async (request) =>
      ok(await service.listClients(deps, callerOf(request), request.params.id, request.query)),
  );

  app.get(
    R.stats.path,
    {
      schema: {
        tags,
        summary: 'Clients over time by band and SSID (12h, 24h, 72h, 7d, 30d) and pies of the latest N days',
        params: R.stats.params,
        querystring: R.stats.query,
        response: { 200: envelope(R.stats.response) },
      },
    },
    async (request) =>
      ok(await service.clientStats(deps, callerOf(request), request.params.id, request.query)),
  );

  app.post(
    R.forceOffline.path,
    {
      schema: {
        tags,
        summary: 'Force clients offline (a kick-client command to each device); at most 100 at once',
        params: R.forceOffline.params,
        body: R.forceOffline.body,
        response: { 200: envelope(R.forceOffline.response) },
      },
    },
    async (request) =>
      ok(await service.forceOffline(deps, callerOf(request), request.params.id, request.body)),
  );

  app.get(
    R.blacklist.path,
    {
      schema: {
        tags,
        summary: "The project's client blacklist (at most 100 MACs, enforced by its devices)",
        params: R.blacklist.params,
        response: { 200: envelope(R.blacklist.response) },
      },
    },
    async (request) => ok(await service.getBlacklist(deps, callerOf(request), request.params.id)),
  );

  app.post(
    R.addBlacklist.path,
    {
      schema: {
        tags,
        summary: 'Add MACs to the client blacklist (delivered to the devices as configuration)',
        params: R.addBlacklist.params,
        body: R.addBlacklist.body,
        response: { 200: envelope(R.addBlacklist.response) },
      },
    },
    async (request) =>
      ok(await service.addToBlacklist(deps, callerOf(request), request.params.id, request.body)),
  );

  app.delete(
    R.removeBlacklist.path,
    {
      schema: {
        tags,
        summary: 'Remove a MAC from the client blacklist',
        params: R.removeBlacklist.params,
        response: { 200: envelope(R.removeBlacklist.response) },
      },
    },
    async (request) =>
      ok(await service.removeFromBlacklist(deps, callerOf(request), request.params.id, request.params.mac)),
  );
}
