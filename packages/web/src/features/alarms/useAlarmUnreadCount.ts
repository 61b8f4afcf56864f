import { type LiveEvent, PLATFORM_ROUTES, routeUrl } from '@beacon/protocol';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { alarmsApi, alarmsKey } from './api.ts';

type Listener = (event: LiveEvent) => void;

/**
 * One WebSocket to the events route shared by every alarm view of the page (the badge, the alarm
 * screen): opened with the first listener, closed with the last, reconnecting with a growing delay.
 */
const listeners = new Set<Listener>();
let socket: WebSocket | null = null;
let retry: ReturnType<typeof setTimeout> | undefined;
let delay = 500;

function open(): void {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${window.location.host}${routeUrl(PLATFORM_ROUTES.events)}`);
  socket = ws;
  ws.onopen = () => {
    delay = 500;
    // Anything missed while away: the listeners refetch.
    for (const l of listeners) l({ type: 'hello', accountId: 0 });
  };
  ws.onmessage = (message) => {
    let event: LiveEvent;
    try {
      event = JSON.parse(String(message.data)) as LiveEvent;
    } catch {
      return;
    }
    for (const l of listeners) l(event);
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    if (listeners.size === 0) return;
    retry = setTimeout(open, delay);
    delay = Math.min(delay * 2, 15_000);
  };
}

export function subscribeAlarmEvents(listener: Listener): () => void {
  listeners.add(listener);
  if (!socket && !retry) open();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearTimeout(retry);
      retry = undefined;
      const ws = socket;
      socket = null;
      ws?.close();
    }
  };
}

/** Refreshes the project's alarm queries on its `alarm` and `alarm.read` live events. */
export function useLiveAlarms(projectId: number | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (projectId === undefined) return;
    return subscribeAlarmEvents((event) => {
      if (
        event.type === 'hello' ||
        ((event.type === 'alarm' || event.type === 'alarm.read') && event.projectId === projectId)
      ) {
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
