import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { manageProcess } from './lifecycle.ts';

function fakeProcess() {
  const proc = Object.assign(new EventEmitter(), { exit: vi.fn() });
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn(), fatal: vi.fn() };
  return { proc, log };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('manageProcess', () => {
  it('logs an unhandled rejection and keeps running', async () => {
    const { proc, log } = fakeProcess();
    const close = vi.fn(async () => {});
    manageProcess({ start: async () => ({ close }), log, proc });
    const reason = new Error('late database error');
    proc.emit('unhandledRejection', reason, Promise.resolve());
    await tick();
    expect(log.error).toHaveBeenCalledWith({ err: reason }, 'unhandled promise rejection');
    expect(close).not.toHaveBeenCalled();
    expect(proc.exit).not.toHaveBeenCalled();
  });

  it('closes the server once on SIGTERM, then exits 0; a second signal is only logged', async () => {
    const { proc, log } = fakeProcess();
    let finish!: () => void;
    const close = vi.fn(() => new Promise<void>((r) => (finish = r)));
    const { started } = manageProcess({ start: async () => ({ close }), log, proc });
    await started;
    proc.emit('SIGTERM');
    await tick();
    proc.emit('SIGINT');
    await tick();
    expect(close).toHaveBeenCalledTimes(1);
    expect(log.warn).toHaveBeenCalledWith('SIGINT: already shutting down');
    expect(proc.exit).not.toHaveBeenCalled();
    finish();
    await tick();
    expect(proc.exit).toHaveBeenCalledWith(0);
  });

  it('a signal during start-up waits for the server, then closes it', async () => {
    const { proc, log } = fakeProcess();
    const close = vi.fn(async () => {});
    let ready!: () => void;
    manageProcess({ start: () => new Promise((r) => (ready = () => r({ close }))), log, proc });
    proc.emit('SIGINT');
    await tick();
    expect(close).not.toHaveBeenCalled();
    ready();
    await tick();
    expect(close).toHaveBeenCalledTimes(1);
    expect(proc.exit).toHaveBeenCalledWith(0);
  });

  it('an uncaught exception or a failed close ends with exit 1', async () => {
    const { proc, log } = fakeProcess();
    const close = vi.fn(async () => {
      throw new Error('pool already ended');
    });
    const { started } = manageProcess({ start: async () => ({ close }), log, proc });
    await started;
    proc.emit('uncaughtException', new Error('boom'));
    await tick();
    expect(log.fatal).toHaveBeenCalled();
    expect(log.error).toHaveBeenCalledWith(expect.anything(), 'shutdown failed');
    expect(proc.exit).toHaveBeenCalledWith(1);
  });

  it('a failed start is logged and exits 1', async () => {
    const { proc, log } = fakeProcess();
    manageProcess({ start: async () => Promise.reject(new Error('port in use')), log, proc });
    await tick();
    await tick();
    expect(log.fatal).toHaveBeenCalledWith(expect.anything(), 'the server did not start');
    expect(proc.exit).toHaveBeenCalledWith(1);
  });
});
