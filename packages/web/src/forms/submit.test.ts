import { describe, expect, it } from 'vitest';
import { submitting } from './submit.ts';

function recorder() {
  const events: string[] = [];
  return {
    events,
    hooks: {
      setBusy: (b: boolean) => events.push(`busy:${b}`),
      fail: (e: unknown) => events.push(`fail:${e instanceof Error ? e.message : String(e)}`),
    },
  };
}

describe('submitting', () => {
  it('marks busy around the work and answers its value', async () => {
    const { events, hooks } = recorder();
    const out = await submitting(async () => {
      events.push('work');
      return 42;
    }, hooks);
    expect(out).toEqual({ ok: true, value: 42 });
    expect(events).toEqual(['busy:true', 'work', 'busy:false']);
  });

  it('reports a failure once, clears busy after it and does not throw', async () => {
    const { events, hooks } = recorder();
    const boom = new Error('boom');
    const out = await submitting(async () => {
      throw boom;
    }, hooks);
    expect(out).toEqual({ ok: false, error: boom });
    expect(events).toEqual(['busy:true', 'fail:boom', 'busy:false']);
  });

  it('an early return (a form that did not validate) is a success with no value', async () => {
    const { events, hooks } = recorder();
    const out = await submitting(async () => undefined, hooks);
    expect(out).toEqual({ ok: true, value: undefined });
    expect(events).toEqual(['busy:true', 'busy:false']);
  });
});
