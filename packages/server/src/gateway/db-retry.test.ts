import { describe, expect, it } from 'vitest';
import { dbFailure, isTransientDbError } from './db-retry.ts';

/** A failure as Drizzle reports one: its statement and values in the message, the driver's error as cause. */
function drizzleFailure(cause: unknown): Error {
  return new Error(`Failed query: insert into online_clients …\nparams: ${'x'.repeat(100_000)}`, { cause });
}

describe('a database failure in the log', () => {
  it("names PostgreSQL's code and words, not the statement and its values", () => {
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    expect(dbFailure(drizzleFailure(deadlock))).toEqual({ code: '40P01', message: 'deadlock detected' });
    expect(isTransientDbError(drizzleFailure(deadlock))).toBe(true);
  });

  it('keeps the first line of anything else, and at most 300 characters of it', () => {
    expect(dbFailure(new Error('Connection terminated unexpectedly\nat …'))).toEqual({
      message: 'Connection terminated unexpectedly',
    });
    expect(dbFailure(drizzleFailure(new Error('socket hang up'))).message).toBe(
      'Failed query: insert into online_clients …',
    );
    expect(dbFailure(new Error('y'.repeat(5000))).message).toHaveLength(300);
    expect(dbFailure('a string')).toEqual({ message: 'a string' });
  });
});
