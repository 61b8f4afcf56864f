import type { RfView } from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
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
    refetchInterval: busy(view.data) ? 1500 : false,
  });
  const queryClient = useQueryClient();
  // The log is polled only while the view is busy: when a run ends, the view's last poll (no run
  // going) turns the log's polling off, and the log's last answer may still show the run going —
  // its result would never appear. The log is fetched once more when the run going changes.
  const runningId = view.data?.running?.id ?? null;
  const wasRunning = useRef<number | null>(null);
  useEffect(() => {
    if (wasRunning.current !== null && wasRunning.current !== runningId) {
      void queryClient.invalidateQueries({ queryKey: rfRunsKey(projectId) });
    }
    wasRunning.current = runningId;
  }, [runningId, projectId, queryClient]);
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
