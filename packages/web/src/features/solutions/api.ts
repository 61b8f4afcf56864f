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
import { storage } from '../../storage/storage.ts';

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

/**
 * Saves a file the server answers. Web access: a plain link (the cookie goes with it). OpenAPI
 * access signs with a header a link cannot carry: fetch, then save the blob.
 */
export async function saveFile(url: string, fileName: string): Promise<boolean> {
  const a = document.createElement('a');
  a.download = '';
  const token = storage.getAccessType() === 'openapi' ? storage.getToken() : null;
  let blobUrl: string | null = null;
  if (token) {
    try {
      const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
      if (!res.ok) return false;
      blobUrl = URL.createObjectURL(await res.blob());
      a.download = fileName;
    } catch {
      return false;
    }
  }
  a.href = blobUrl ?? url;
  document.body.append(a);
  a.click();
  a.remove();
  if (blobUrl) setTimeout(() => URL.revokeObjectURL(blobUrl), 10_000);
  return true;
}
