import { type LiveEvent, PLATFORM_ROUTES, routeUrl } from '@beacon/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

/**
 * Live updates (DESIGN.md): one WebSocket to /api/v1/events; on a status, inventory or command
 * event of the project the device queries are invalidated, so the screen updates without a
 * reload. Invalidations are batched (at most every 300 ms) so a fleet rebooting at once does not
 * refetch thousands of times. Reconnects with a growing delay.
 */
export function useLiveDeviceEvents(projectId: number | undefined): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    if (projectId === undefined) return;
    let socket: WebSocket | null = null;
    let stopped = false;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let flush: ReturnType<typeof setTimeout> | undefined;
    let delay = 500;
    const pending = new Set<string>();
    let logs = false;
    let clientsChanged = false;
    const schedule = () => {
      if (flush) return;
      flush = setTimeout(() => {
        flush = undefined;
        if (logs) queryClient.invalidateQueries({ queryKey: ['logs', projectId, 'device'] });
        logs = false;
        if (pending.size === 0) return;
        queryClient.invalidateQueries({ queryKey: ['devices', projectId] });
        if (clientsChanged) queryClient.invalidateQueries({ queryKey: ['clients', projectId] });
        clientsChanged = false;
        for (const sn of pending) {
          queryClient.invalidateQueries({ queryKey: ['device', projectId, sn] });
          queryClient.invalidateQueries({ queryKey: ['maintenance', projectId, sn] });
        }
        pending.clear();
      }, 300);
    };
    const open = () => {
      const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
      socket = new WebSocket(`${scheme}://${window.location.host}${routeUrl(PLATFORM_ROUTES.events)}`);
      socket.onopen = () => {
        delay = 500;
        setConnected(true);
        // Anything that happened while away: refetch once.
        queryClient.invalidateQueries({ queryKey: ['devices', projectId] });
      };
      socket.onmessage = (message) => {
        let event: LiveEvent;
        try {
          event = JSON.parse(String(message.data)) as LiveEvent;
        } catch {
          return;
        }
        if (event.type === 'hello' || event.projectId !== projectId) return;
        // Alarm events have their own subscribers (features/alarms).
        if (event.type === 'alarm' || event.type === 'alarm.read') return;
        if (event.type === 'device.event') {
          // A device reported an event: the Log screen's device log (features/logs) shows it.
          logs = true;
          schedule();
          return;
        }
        if (event.type === 'stats.updated') {
          // New statistics (throttled per project by the server): the stats screens refetch.
          queryClient.invalidateQueries({ queryKey: ['stats', projectId] });
          return;
        }
        if (event.type === 'clients.changed') {
          // Online clients joined, left or were forced off (features/clients).
          clientsChanged = true;
          schedule();
          return;
        }
        pending.add(event.sn);
        schedule();
      };
      socket.onclose = () => {
        setConnected(false);
        if (stopped) return;
        retry = setTimeout(open, delay);
        delay = Math.min(delay * 2, 15_000);
      };
    };
    open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      clearTimeout(flush);
      socket?.close();
    };
  }, [projectId, queryClient]);
  return connected;
}
