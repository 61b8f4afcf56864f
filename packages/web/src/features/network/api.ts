import { NETWORK_ROUTES, type NetworkDocumentInput } from '@beacon/protocol';
import { callRoute } from '../../api/route.ts';

const R = NETWORK_ROUTES;

/** /api/v1/projects/{id}/network (NETWORK_ROUTES): the project's network configuration. */
export const networkApi = {
  get: (projectId: number) => callRoute(R.get, { id: projectId }),
  save: (projectId: number, expectedRevision: number, document: NetworkDocumentInput, reason = '') =>
    callRoute(R.save, { id: projectId }, { body: { expectedRevision, document, reason } }),
  preview: (projectId: number, document: NetworkDocumentInput) =>
    callRoute(R.preview, { id: projectId }, { body: { document } }),
  routeTable: (projectId: number) => callRoute(R.routeTable, { id: projectId }),
};

/**
 * Under the device queries' key: the live-events hook invalidates ['devices', projectId] on every
 * device event (config status included), which refetches this too.
 */
export const networkKey = (projectId: number | undefined) => ['devices', projectId, 'network'] as const;
export const routeTableKey = (projectId: number | undefined) =>
  ['devices', projectId, 'route-table'] as const;
