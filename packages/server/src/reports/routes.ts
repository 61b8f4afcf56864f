import { ok as envelope, REPORT_ROUTES as R } from '@beacon/protocol';
import { callerOf } from '../auth/principal.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';
import * as service from './service.ts';

const tags = ['reports'];
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The pivot report and the device information export (docs/decisions/0055). */
export async function reportRoutes(app: App, deps: Deps): Promise<void> {
  app.get(
    R.pivot.path,
    {
      schema: {
        tags,
        summary:
          'Activated devices of the projects the account sees, pivoted by brand, type, model or location',
        querystring: R.pivot.query,
        response: { 200: envelope(R.pivot.response) },
      },
    },
    async (request) => ok(await service.pivot(deps, callerOf(request), request.query)),
  );
  app.get(
    R.pivotExport.path,
    {
      schema: {
        tags,
        summary: 'The pivot as an xlsx file',
        querystring: R.pivotExport.query,
        produces: [XLSX_TYPE],
      },
    },
    async (request, reply) => {
      const file = await service.pivotWorkbook(deps, callerOf(request), request.query);
      const stamp = deps.now().toISOString().slice(0, 10);
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', `attachment; filename="activated-devices-${stamp}.xlsx"`)
        .header('cache-control', 'no-store')
        .send(file);
    },
  );
  app.get(
    R.deviceExport.path,
    {
      schema: {
        tags,
        summary: "The project's devices' base information as xlsx or CSV",
        params: R.deviceExport.params,
        querystring: R.deviceExport.query,
        produces: [XLSX_TYPE, 'text/csv'],
      },
    },
    async (request, reply) => {
      const file = await service.deviceExport(
        deps,
        callerOf(request),
        request.params.id,
        request.query.format,
      );
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .send(file.body);
    },
  );
}
