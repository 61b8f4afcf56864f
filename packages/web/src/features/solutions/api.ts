import {
  MODEL_ROUTES,
  type ModelListQuery,
  type ModelUploadBody,
  type PivotQuery,
  SOLUTION_ROUTES as R,
  REPORT_ROUTES,
  routeUrl,
  type SolutionBody,
  type SolutionInputBody,
} from '@beacon/protocol';
import type { z } from 'zod';
import { buildQuery } from '../../api/client.ts';
import { callRoute } from '../../api/route.ts';

export { saveFile } from '../../api/save-file.ts';

export const SOLUTIONS_KEY = ['solutions'] as const;

export const solutionsApi = {
  list: () => callRoute(R.list, {}),
  get: (id: number) => callRoute(R.get, { solutionId: id }),
  generate: (input: SolutionInputBody) => callRoute(R.generate, {}, { body: { input } }),
  create: (body: SolutionBody) => callRoute(R.create, {}, { body }),
  update: (id: number, body: SolutionBody) => callRoute(R.update, { solutionId: id }, { body }),
  remove: (id: number) => callRoute(R.remove, { solutionId: id }),
  shares: (id: number) => callRoute(R.shares, { solutionId: id }),
  share: (id: number, account: string) => callRoute(R.share, { solutionId: id }, { body: { account } }),
  unshare: (id: number, accountId: number) => callRoute(R.unshare, { solutionId: id, accountId }),
  pdfUrl: (id: number) => routeUrl(R.pdf, { solutionId: id }),
  pivot: (query: Partial<z.input<typeof PivotQuery>>) => callRoute(REPORT_ROUTES.pivot, {}, { query }),
  pivotExportUrl: (query: Record<string, string>) =>
    `${routeUrl(REPORT_ROUTES.pivotExport, {})}${buildQuery(query)}`,
  deviceExportUrl: (projectId: number, format: 'xlsx' | 'csv') =>
    `${routeUrl(REPORT_ROUTES.deviceExport, { id: projectId })}${buildQuery({ format })}`,
  models: (query: Partial<z.input<typeof ModelListQuery>>) => callRoute(MODEL_ROUTES.list, {}, { query }),
  uploadModel: (body: ModelUploadBody) => callRoute(MODEL_ROUTES.upload, {}, { body }),
};
