import { WIFI_ROUTES, type WifiPolicyInput } from '@beacon/protocol';
import { callRoute } from '../../api/route.ts';

const R = WIFI_ROUTES;

/** /api/v1/projects/{id}/wifi (WIFI_ROUTES): the project's Wi-Fi policies. */
export const wifiApi = {
  get: (projectId: number) => callRoute(R.get, { id: projectId }),
  create: (projectId: number, expectedRevision: number, policy: WifiPolicyInput) =>
    callRoute(R.createPolicy, { id: projectId }, { body: { expectedRevision, policy } }),
  update: (projectId: number, policyId: number, expectedRevision: number, policy: WifiPolicyInput) =>
    callRoute(R.updatePolicy, { id: projectId, policyId }, { body: { expectedRevision, policy } }),
  remove: (projectId: number, policyId: number, expectedRevision: number) =>
    callRoute(
      R.deletePolicy,
      { id: projectId, policyId },
      { query: { expectedRevision: String(expectedRevision) } },
    ),
};

/**
 * Under the device queries' key: the live-events hook invalidates ['devices', projectId] on every
 * device event (config status included), which refetches this too.
 */
export const wifiKey = (projectId: number | undefined) => ['devices', projectId, 'wifi'] as const;
