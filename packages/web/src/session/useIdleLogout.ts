import { useEffect } from 'react';
import { realClock, realScheduler, startIdleWatch } from './idle.ts';

const ACTIVITY_EVENTS = ['mousemove', 'mousedown', 'keydown', 'wheel', 'touchstart'] as const;

/** Wires the pure idle watch to the window's mouse and key events. */
export function useIdleLogout(timeoutSeconds: number, onIdle: () => void): void {
  useEffect(() => {
    if (!(timeoutSeconds > 0)) return;
    const watch = startIdleWatch({ clock: realClock, scheduler: realScheduler, timeoutSeconds, onIdle });
    const touch = () => watch.touch();
    for (const ev of ACTIVITY_EVENTS) window.addEventListener(ev, touch, { passive: true });
    return () => {
      watch.stop();
      for (const ev of ACTIVITY_EVENTS) window.removeEventListener(ev, touch);
    };
  }, [timeoutSeconds, onIdle]);
}
