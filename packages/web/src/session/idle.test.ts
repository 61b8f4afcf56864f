import { describe, expect, it, vi } from 'vitest';
import { IDLE_POLL_MS, isIdle, type Scheduler, startIdleWatch } from './idle.ts';

function fakeTime() {
  let now = 1_000_000;
  const timers: { fn: () => void; ms: number; next: number; cancelled: boolean }[] = [];
  const clock = { now: () => now };
  const scheduler: Scheduler = {
    every(fn, ms) {
      const t = { fn, ms, next: now + ms, cancelled: false };
      timers.push(t);
      return () => {
        t.cancelled = true;
      };
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = timers.filter((t) => !t.cancelled && t.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      now = due.next;
      due.next += due.ms;
      due.fn();
    }
    now = end;
  };
  return { clock, scheduler, advance, timers };
}

describe('idle detection', () => {
  it('isIdle compares the elapsed time with the timeout; 0 is off', () => {
    expect(isIdle(0, 9_999, 10)).toBe(false);
    expect(isIdle(0, 10_000, 10)).toBe(true);
    expect(isIdle(0, 1e12, 0)).toBe(false);
  });

  it('polls every 3 seconds and fires once after the idle time', () => {
    const time = fakeTime();
    const onIdle = vi.fn();
    startIdleWatch({ clock: time.clock, scheduler: time.scheduler, timeoutSeconds: 10, onIdle });
    expect(time.timers[0]!.ms).toBe(IDLE_POLL_MS);
    time.advance(9_000);
    expect(onIdle).not.toHaveBeenCalled();
    time.advance(3_000); // poll at 12 s
    expect(onIdle).toHaveBeenCalledTimes(1);
    time.advance(60_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
    expect(time.timers[0]!.cancelled).toBe(true);
  });

  it('activity resets the idle time', () => {
    const time = fakeTime();
    const onIdle = vi.fn();
    const watch = startIdleWatch({
      clock: time.clock,
      scheduler: time.scheduler,
      timeoutSeconds: 10,
      onIdle,
    });
    for (let i = 0; i < 10; i++) {
      time.advance(6_000);
      watch.touch();
    }
    expect(onIdle).not.toHaveBeenCalled();
    time.advance(9_000);
    expect(onIdle).not.toHaveBeenCalled();
    time.advance(3_000);
    expect(onIdle).toHaveBeenCalledTimes(1);
    expect(watch.fired).toBe(true);
  });

  it('does nothing when the timeout is 0', () => {
    const time = fakeTime();
    const onIdle = vi.fn();
    const watch = startIdleWatch({ clock: time.clock, scheduler: time.scheduler, timeoutSeconds: 0, onIdle });
    expect(time.timers).toHaveLength(0);
    time.advance(1e9);
    expect(watch.check()).toBe(false);
    expect(onIdle).not.toHaveBeenCalled();
  });

  it('stop() cancels the polling', () => {
    const time = fakeTime();
    const onIdle = vi.fn();
    const watch = startIdleWatch({ clock: time.clock, scheduler: time.scheduler, timeoutSeconds: 5, onIdle });
    watch.stop();
    time.advance(60_000);
    expect(onIdle).not.toHaveBeenCalled();
  });
});
