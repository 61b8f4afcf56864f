/**
 * Which database failures are the database's (down, restarting, refusing connections, overloaded,
 * a lock or a privilege an operator will give back) rather than the message's own. A device message
 * that failed for one of these is kept and written again later (ingest.ts); one that failed for
 * anything else (a value the column refuses, a bug) would fail again, so it is dropped.
 */

/** SQLSTATE classes: 08 connection, 40 rollback, 53 resources, 55 object state (lock not available), 57 operator intervention (shutdown, statement timeout), 58 system. */
const TRANSIENT_CLASSES = new Set(['08', '40', '53', '55', '57', '58']);
/** 42501: a privilege revoked from the server's role (an operator's change, given back later). */
const TRANSIENT_CODES = new Set(['42501']);
/** Errors of node-postgres and the network that carry no SQLSTATE. */
const TRANSIENT_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const TRANSIENT_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection error/i,
  /not queryable/i,
];

export function isTransientDbError(err: unknown): boolean {
  // Drizzle wraps the driver's error (cause); look through the chain.
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    i++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (/^[0-9A-Z]{5}$/.test(code)) {
      if (TRANSIENT_CODES.has(code) || TRANSIENT_CLASSES.has(code.slice(0, 2))) return true;
    } else if (TRANSIENT_NODE_CODES.has(code)) return true;
    if (typeof e.message === 'string' && TRANSIENT_MESSAGES.some((m) => m.test(e!.message as string)))
      return true;
    e = e.cause as typeof e;
  }
  return false;
}
