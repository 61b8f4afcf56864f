/** Idle-session detection (SPEC.md §4, §9): polled every 3 seconds, fires once after the idle time. */
export const IDLE_POLL_MS = 3000;

export interface Clock {
  now(): number;
}

export interface Scheduler {
  /** Calls `fn` every `ms` milliseconds; returns a cancel function. */
  every(fn: () => void, ms: number): () => void;
}

export interface IdleWatchOptions {
  clock: Clock;
  scheduler: Scheduler;
  /** 0 (or less) turns detection off. */
  timeoutSeconds: number;
  onIdle: () => void;
  pollMs?: number;
}

export interface IdleWatch {
  /** Mouse or key activity. */
  touch(): void;
  /** One poll; answers true when it fired. Exposed for tests. */
  check(): boolean;
  stop(): void;
  readonly fired: boolean;
}

export function isIdle(lastActivity: number, now: number, timeoutSeconds: number): boolean {
  return timeoutSeconds > 0 && now - lastActivity >= timeoutSeconds * 1000;
}

export function startIdleWatch(opts: IdleWatchOptions): IdleWatch {
  let last = opts.clock.now();
  let fired = false;
  let cancel: (() => void) | null = null;
  const watch: IdleWatch = {
    touch() {
      last = opts.clock.now();
    },
    check() {
      if (fired || opts.timeoutSeconds <= 0) return false;
      if (!isIdle(last, opts.clock.now(), opts.timeoutSeconds)) return false;
      fired = true;
      watch.stop();
      opts.onIdle();
      return true;
    },
    stop() {
      cancel?.();
      cancel = null;
    },
    get fired() {
      return fired;
    },
  };
  if (opts.timeoutSeconds > 0)
    cancel = opts.scheduler.every(() => watch.check(), opts.pollMs ?? IDLE_POLL_MS);
  return watch;
}

export const realClock: Clock = { now: () => Date.now() };
export const realScheduler: Scheduler = {
  every(fn, ms) {
    const id = setInterval(fn, ms);
    return () => clearInterval(id);
  },
};
