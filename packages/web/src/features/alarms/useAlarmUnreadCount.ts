import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { subscribeProjectEvents } from '../../live/events.ts';
import { alarmsApi, alarmsKey } from './api.ts';

/** Refreshes the project's alarm queries on its `alarm` and `alarm.read` live events. */
export function useLiveAlarms(projectId: number | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (projectId === undefined) return;
    // The page's one events socket, shared with the devices' live events (live/events.ts).
    return subscribeProjectEvents(projectId, (event) => {
      if (event.type === 'hello' || event.type === 'alarm' || event.type === 'alarm.read') {
        void queryClient.invalidateQueries({ queryKey: alarmsKey(projectId) });
      }
    });
  }, [projectId, queryClient]);
}

/** The project's unread alarm count (SPEC.md §4 state 0), kept live; for the layout badge and other screens. */
export function useAlarmUnreadCount(projectId: number | undefined): number | undefined {
  useLiveAlarms(projectId);
  const query = useQuery({
    queryKey: [...alarmsKey(projectId), 'unread'],
    queryFn: () => alarmsApi.unread(projectId!),
    enabled: projectId !== undefined,
    staleTime: 30_000,
  });
  return query.data?.unread;
}
