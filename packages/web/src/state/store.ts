import type { LoadState } from '@beacon/protocol';
import { useSyncExternalStore } from 'react';

/** A tiny observable value for app-wide state shared outside React Query. */
export function createStore<T>(initial: T) {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next: T) {
      if (Object.is(next, value)) return;
      value = next;
      for (const l of listeners) l();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

export type Store<T> = ReturnType<typeof createStore<T>>;

export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/** Global load state (SPEC.md §2, §4): the fullscreen overlay shows while it is not 'end'. */
export const loadState = createStore<LoadState>('end');

/** Runs `work` with the overlay in `state`, back to 'end' afterwards. */
export async function withLoadState<T>(state: Exclude<LoadState, 'end'>, work: () => Promise<T>): Promise<T> {
  loadState.set(state);
  try {
    return await work();
  } finally {
    loadState.set('end');
  }
}

/** The last error text shown to the user (kept in a data-testid="last-error" element). */
export const lastError = createStore<string>('');
