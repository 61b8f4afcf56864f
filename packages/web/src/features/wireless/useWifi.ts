import {
  normaliseWifiPolicy,
  validateWifiDocument,
  type WifiCheck,
  WifiPolicy,
  type WifiPolicyInput,
  type WifiView,
  wifiRulesOf,
} from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useCurrentProject } from '../../session/currentProject.ts';
import { pendingPollMs, useLiveDeviceEvents } from '../devices/useLiveEvents.ts';
import { wifiApi, wifiKey } from './api.ts';

/** The project's Wi-Fi view, kept live (device events) and polled while devices are pending. */
export function useWifi() {
  const project = useCurrentProject();
  const projectId = project?.id;
  const live = useLiveDeviceEvents(projectId);
  const query = useQuery({
    queryKey: wifiKey(projectId),
    queryFn: () => wifiApi.get(projectId!),
    enabled: projectId !== undefined,
    // While devices are pending, and every 10 s for the SSIDs a timer shutdown takes off the air.
    refetchInterval: (q) =>
      pendingPollMs((q.state.data as WifiView | undefined)?.progress.pending, live) || 10_000,
  });
  const queryClient = useQueryClient();
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: wifiKey(projectId) }),
    [queryClient, projectId],
  );
  /** The answer of a save: shown at once (the devices still pending), then refetched live. */
  const show = useCallback(
    (next: WifiView) => queryClient.setQueryData(wifiKey(projectId), next),
    [queryClient, projectId],
  );
  return { project, projectId, view: query.data, loading: query.isLoading, refresh, show };
}

/**
 * The check the server applies (protocol validateWifiDocument with the project's devices), run on
 * the policies a form would save: `policy` at `index` (the end for a new one), checked first.
 */
export function checkPolicy(view: WifiView, policy: WifiPolicyInput, index: number | null): WifiCheck {
  const parsed = WifiPolicy.safeParse(policy);
  const at = index ?? view.document.policies.length;
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      code: 16,
      message: issue?.message ?? 'Invalid',
      path: `policies.${at}.${issue?.path.join('.') ?? ''}`,
    } as WifiCheck;
  }
  const policies = [...view.document.policies];
  const mine = normaliseWifiPolicy(parsed.data);
  if (index === null) policies.push(mine);
  else policies[index] = mine;
  // A stored secret comes back as ******** (8 printable characters: it passes as the kept value).
  return validateWifiDocument({ policies }, { ...wifiRulesOf(view), focus: at });
}
