import { type LiveEvent, PLATFORM_ROUTES, routeUrl } from '@beacon/protocol';

/**
 * The page's one WebSocket to the live events route (DESIGN.md "Live updates"), shared by every
 * subscriber: the devices' live events (features/devices/useLiveEvents.ts), the alarm badge and
 * the alarm screen (features/alarms). Opened with the first subscriber, closed with the last,
 * reconnecting with a growing delay (0.5 s … 15 s) while anyone listens. Each subscriber names
 * the project it follows and hears only that project's events, plus `hello` on every (re)connect
 * so it can refetch what it missed meanwhile. Subscribers of the same project share one entry.
 */

export type LiveListener = (event: LiveEvent) => void;
type ConnectionListener = (connected: boolean) => void;

const byProject = new Map<number, Set<LiveListener>>();
const connection = new Set<ConnectionListener>();
let socket: WebSocket | null = null;
let connected = false;
let retry: ReturnType<typeof setTimeout> | undefined;
let delay = 500;

const listenerCount = () => [...byProject.values()].reduce((n, s) => n + s.size, 0);

function setConnected(value: boolean): void {
  if (connected === value) return;
  connected = value;
  for (const l of connection) l(value);
}

function open(): void {
  retry = undefined;
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${window.location.host}${routeUrl(PLATFORM_ROUTES.events)}`);
  socket = ws;
  ws.onopen = () => {
    delay = 500;
    setConnected(true);
    // Anything missed while away: every subscriber refetches once.
    for (const listeners of byProject.values()) for (const l of listeners) l({ type: 'hello', accountId: 0 });
  };
  ws.onmessage = (message) => {
    let event: LiveEvent;
    try {
      event = JSON.parse(String(message.data)) as LiveEvent;
    } catch {
      return;
    }
    if (event.type === 'hello' || event.projectId === undefined) return;
    const listeners = byProject.get(event.projectId);
    if (listeners) for (const l of [...listeners]) l(event);
  };
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    setConnected(false);
    if (listenerCount() === 0) return;
    retry = setTimeout(open, delay);
    delay = Math.min(delay * 2, 15_000);
  };
}

function close(): void {
  clearTimeout(retry);
  retry = undefined;
  const ws = socket;
  socket = null;
  setConnected(false);
  ws?.close();
}

/** Follows one project's live events; answers the unsubscribe. */
export function subscribeProjectEvents(projectId: number, listener: LiveListener): () => void {
  let listeners = byProject.get(projectId);
  if (!listeners) {
    listeners = new Set();
    byProject.set(projectId, listeners);
  }
  listeners.add(listener);
  if (!socket && !retry) open();
  return () => {
    const set = byProject.get(projectId);
    set?.delete(listener);
    if (set?.size === 0) byProject.delete(projectId);
    if (listenerCount() === 0) close();
  };
}

/** Whether the shared socket is open now, and every change of it. */
export function watchConnection(listener: ConnectionListener): () => void {
  connection.add(listener);
  listener(connected);
  return () => {
    connection.delete(listener);
  };
}
