import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { subscribeProjectEvents, watchConnection } from '../../live/events.ts';

/**
 * How often a view with devices pending a configuration is fetched again: every 2 s without live
 * updates; every 10 s with them, as a fallback only, since what ends a device's pending (its state,
 * a command's outcome) arrives as an event that refetches the view at once. Offline devices stay
 * pending until they are back: each open tab asked for the whole view every 2 s meanwhile, however
 * long that was. False (no polling) when nothing is pending.
 */
export function pendingPollMs(pending: number | undefined, live: boolean): number | false {
  if (!pending) return false;
  return live ? 10_000 : 2000;
}

/**
 * Live updates (DESIGN.md): the page's one WebSocket to /api/v1/events, shared with the alarm badge
 * and screen (live/events.ts, which reconnects with a growing delay); on a status, inventory or
 * command event of the project the device queries are invalidated, so the screen updates without a
 * reload. Invalidations are batched (at most every 300 ms) so a fleet rebooting at once does not
 * refetch thousands of times.
 */
export function useLiveDeviceEvents(projectId: number | undefined): boolean {
  const queryClient = useQueryClient();
  const [connected, setConnected] = useState(false);
  useEffect(() => {
    if (projectId === undefined) return;
    let flush: ReturnType<typeof setTimeout> | undefined;
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
    const unsubscribe = subscribeProjectEvents(projectId, (event) => {
      if (event.type === 'hello') {
        // (Re)connected: anything that happened while away, refetched once — the client list and
        // the device log too (clients that joined before the subscription was live send no other event).
        queryClient.invalidateQueries({ queryKey: ['devices', projectId] });
        queryClient.invalidateQueries({ queryKey: ['clients', projectId] });
        queryClient.invalidateQueries({ queryKey: ['logs', projectId, 'device'] });
        return;
      }
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
      if (event.type === 'topology.changed') {
        // Links changed (features/topology): the graph refetches.
        queryClient.invalidateQueries({ queryKey: ['devices', projectId, 'topology'] });
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
    });
    const unwatch = watchConnection(setConnected);
    return () => {
      clearTimeout(flush);
      unwatch();
      unsubscribe();
    };
  }, [projectId, queryClient]);
  return connected;
}
