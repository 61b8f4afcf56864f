import type { RfRunList, RfView } from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useCurrentProject } from '../../session/currentProject.ts';
import { useLiveDeviceEvents } from '../devices/useLiveEvents.ts';
import { rfApi, rfKey, rfRunsKey } from './api.ts';

/** Polled every 1.5 s while a run goes, the radios re-adapt or a change is pending. */
const busy = (v: RfView | undefined) =>
  !!v && (v.running !== null || v.adaptation !== null || v.devices.some((d) => d.configStatus === 'pending'));

/** The project's RF view and its optimisation log, kept live. */
export function useRf() {
  const project = useCurrentProject();
  const projectId = project?.id;
  useLiveDeviceEvents(projectId);
  const view = useQuery({
    queryKey: rfKey(projectId),
    queryFn: () => rfApi.get(projectId!),
    enabled: projectId !== undefined,
    refetchInterval: (q) => (busy(q.state.data as RfView | undefined) ? 1500 : false),
  });
  const runs = useQuery({
    queryKey: rfRunsKey(projectId),
    queryFn: () => rfApi.runs(projectId!),
    enabled: projectId !== undefined,
    // Also while its own last answer shows a run going: the view's poll that sees the run end turns
    // its busy state off, and a log fetched just before would otherwise never show the result.
    refetchInterval: (q) =>
      busy(view.data) || (q.state.data as RfRunList | undefined)?.items.some((r) => r.state === 'running')
        ? 1500
        : false,
  });
  const queryClient = useQueryClient();
  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: rfKey(projectId) });
    void queryClient.invalidateQueries({ queryKey: rfRunsKey(projectId) });
  }, [queryClient, projectId]);
  const show = useCallback(
    (next: RfView) => queryClient.setQueryData(rfKey(projectId), next),
    [queryClient, projectId],
  );
  return {
    project,
    projectId,
    view: view.data,
    runs: runs.data?.items ?? [],
    loading: view.isLoading,
    refresh,
    show,
  };
}
