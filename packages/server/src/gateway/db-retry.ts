import { isDatabaseUnavailable } from '../db/unavailable.ts';

/**
 * Which database failures are the database's (down, restarting, refusing connections, overloaded,
 * a lock or a privilege an operator will give back) rather than the message's own. A device message
 * that failed for one of these is kept and written again later (ingest.ts); one that failed for
 * anything else (a value the column refuses, a bug) would fail again, so it is dropped.
 *
 * An unreachable database (db/unavailable.ts, the same test the API's 503 uses) is one; beyond it, a
 * device message also waits out SQLSTATE classes 40 (rollback), 53 (resources), 55 (lock not
 * available), 57 (operator intervention: statement timeout), 58 (system) and 42501 (a revoked
 * privilege), which an API request would rather report than wait for.
 */
const TRANSIENT_CLASSES = new Set(['40', '53', '55', '57', '58']);
const TRANSIENT_CODES = new Set(['42501']);

export function isTransientDbError(err: unknown): boolean {
  if (isDatabaseUnavailable(err)) return true;
  // Drizzle wraps the driver's error (cause); look through the chain.
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (/^[0-9A-Z]{5}$/.test(code) && (TRANSIENT_CODES.has(code) || TRANSIENT_CLASSES.has(code.slice(0, 2))))
      return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * What an operator needs of a database failure: its SQLSTATE and PostgreSQL's own words — not the
 * statement and its bound values, which Drizzle puts in its message (a telemetry batch's clients:
 * ~100 KB of names and addresses a line).
 */
export function dbFailure(err: unknown): { code?: string; message: string } {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    i++
  ) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code))
      return { code: e.code, message: String(e.message ?? '').slice(0, 300) };
    e = e.cause as typeof e;
  }
  const message = err instanceof Error ? err.message : String(err);
  return { message: message.split('\n')[0].slice(0, 300) };
}
