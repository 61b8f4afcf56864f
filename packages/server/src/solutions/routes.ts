import { BUILTIN_SCENARIOS, ok as envelope, SOLUTION_ROUTES as R } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import { solutionPdf } from './pdf.ts';
import * as service from './service.ts';

const tags = ['solutions'];

const SCENARIO_NAMES: Record<string, string> = {
  hotel: 'Hotel',
  supermarket_mall: 'Supermarket or mall',
  hospital: 'Hospital',
  campus: 'Campus',
  factory: 'Factory',
  entertainment: 'Entertainment',
  restaurant: 'Restaurant',
  enterprise: 'Enterprise',
  smart_home: 'Smart home',
  other: 'Other',
};
const scenarioName = (s: string) =>
  (BUILTIN_SCENARIOS as readonly string[]).includes(s) ? SCENARIO_NAMES[s] : s;

/** A file name of the solution's name (ASCII letters, digits, - and _). */
const fileName = (name: string) =>
  `${name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-|-$/g, '') || 'solution'}.pdf`;

/** /api/v1/solutions…: the solution generator (SPEC.md §1; docs/decisions/0054). */
export async function solutionRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    R.list.path,
    {
      schema: {
        tags,
        summary: 'Own solutions and those shared with the account, newest first',
        response: { 200: envelope(R.list.response) },
      },
    },
    async (request) => ok(await service.list(deps, callerOf(request))),
  );
  app.post(
    R.generate.path,
    {
      schema: {
        tags,
        summary: 'Compute a recommendation (not saved): device list, how it was computed, advice',
        body: R.generate.body,
        response: { 200: envelope(R.generate.response) },
      },
    },
    async (request) => ok(await service.generate(deps, callerOf(request), request.body.input)),
  );
  app.post(
    R.create.path,
    {
      schema: {
        tags,
        summary: 'Generate and save a solution',
        body: R.create.body,
        response: { 200: envelope(R.create.response) },
      },
    },
    async (request) => ok(await service.create(deps, callerOf(request), request.body)),
  );
  app.get(
    R.get.path,
    {
      schema: {
        tags,
        summary: 'One solution with its recommendation',
        params: R.get.params,
        response: { 200: envelope(R.get.response) },
      },
    },
    async (request) => ok(await service.get(deps, callerOf(request), request.params.solutionId)),
  );
  app.put(
    R.update.path,
    {
      schema: {
        tags,
        summary: 'Edit a solution (owner only) and compute it again',
        params: R.update.params,
        body: R.update.body,
        response: { 200: envelope(R.update.response) },
      },
    },
    async (request) =>
      ok(await service.update(deps, callerOf(request), request.params.solutionId, request.body)),
  );
  app.delete(
    R.remove.path,
    {
      schema: {
        tags,
        summary: 'Delete a solution (owner only)',
        params: R.remove.params,
        response: { 200: envelope(R.remove.response) },
      },
    },
    async (request) => {
      await service.remove(deps, callerOf(request), request.params.solutionId);
      return ok(null);
    },
  );
  app.get(
    R.pdf.path,
    {
      schema: { tags, summary: 'The solution as a PDF', params: R.pdf.params, produces: ['application/pdf'] },
    },
    async (request, reply) => {
      const solution = await service.get(deps, callerOf(request), request.params.solutionId);
      const pdf = await solutionPdf(solution, scenarioName(solution.scenario), deps.now());
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${fileName(solution.name)}"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );
  app.get(
    R.shares.path,
    {
      schema: {
        tags,
        summary: 'Accounts the solution is shared with (owner only)',
        params: R.shares.params,
        response: { 200: envelope(R.shares.response) },
      },
    },
    async (request) => ok(await service.listShares(deps, callerOf(request), request.params.solutionId)),
  );
  app.post(
    R.share.path,
    {
      schema: {
        tags,
        summary: 'Share the solution read-only with another account',
        params: R.share.params,
        body: R.share.body,
        response: { 200: envelope(R.share.response) },
      },
    },
    async (request) =>
      ok(await service.share(deps, callerOf(request), request.params.solutionId, request.body.account)),
  );
  app.delete(
    R.unshare.path,
    {
      schema: {
        tags,
        summary: 'Stop sharing the solution with an account',
        params: R.unshare.params,
        response: { 200: envelope(R.unshare.response) },
      },
    },
    async (request) => {
      await service.unshare(deps, callerOf(request), request.params.solutionId, request.params.accountId);
      return ok(null);
    },
  );
}
