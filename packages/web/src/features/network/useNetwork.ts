import {
  type NetworkCheck,
  NetworkDocument,
  type NetworkDocumentInput,
  type NetworkView,
  validateNetworkDocument,
} from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useCurrentProject } from '../../session/currentProject.ts';
import { pendingPollMs, useLiveDeviceEvents } from '../devices/useLiveEvents.ts';
import { networkApi, networkKey } from './api.ts';

/** The project's network view, kept live (device events) and polled while devices are pending. */
export function useNetwork() {
  const project = useCurrentProject();
  const projectId = project?.id;
  const live = useLiveDeviceEvents(projectId);
  const query = useQuery({
    queryKey: networkKey(projectId),
    queryFn: () => networkApi.get(projectId!),
    enabled: projectId !== undefined,
    refetchInterval: (q) => pendingPollMs((q.state.data as NetworkView | undefined)?.progress.pending, live),
  });
  const queryClient = useQueryClient();
  const refresh = useCallback(
    () => queryClient.invalidateQueries({ queryKey: networkKey(projectId) }),
    [queryClient, projectId],
  );
  /** The answer of a save: shown at once (the devices still pending), then refetched live. */
  const show = useCallback(
    (next: NetworkView) => queryClient.setQueryData(networkKey(projectId), next),
    [queryClient, projectId],
  );
  return { project, projectId, view: query.data, loading: query.isLoading, refresh, show };
}

/**
 * The same check the server applies (protocol validateNetworkDocument with the project's VLAN
 * range, gateway ports and stored revision), run on the document a form would save.
 */
export function checkDocument(view: NetworkView, doc: NetworkDocumentInput): NetworkCheck {
  const parsed = NetworkDocument.safeParse(doc);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      code: 16,
      message: issue?.message ?? 'Invalid',
      path: issue?.path.join('.') ?? '',
    } as NetworkCheck;
  }
  // The stored revision's networks are the configured ones: a clash is shown at the changed network.
  return validateNetworkDocument(parsed.data, {
    vlanRange: view.vlanRange,
    gatewayPorts: view.gatewayPorts,
    previous: view.document,
  });
}
