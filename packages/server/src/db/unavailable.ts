/**
 * Whether an error means "PostgreSQL cannot be reached now" (down, restarting, refusing
 * connections) rather than a bug: the API then answers 503 with the database code 5 and the
 * next request tries again, since node-postgres replaces broken connections on its own.
 */

// Node's socket errors while connecting or talking to the server.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server going away or not letting us in: class 08 (connection exception),
 * 57P01–57P03 (shut down by an administrator, crash, cannot connect now), 53300 (too many
 * connections).
 */
function isUnavailableState(code: string): boolean {
  return (
    code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300'
  );
}

// node-postgres reports a lost or unreachable server with plain Errors carrying these messages.
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'is not currently accepting connections',
  'the database system is starting up',
  'the database system is shutting down',
];

/**
 * The ports of the databases this process connects to (db/client.ts registers them). A socket
 * error is the database's only if it names one of them or comes out of a database query: a
 * device or mail server that refuses a connection is not a database outage.
 */
const databasePorts = new Set<number>();

export function rememberDatabaseUrl(url: string): void {
  try {
    databasePorts.add(Number(new URL(url).port || 5432));
  } catch {
    // Not a URL (a socket path in the environment): only SQLSTATEs and driver messages count.
  }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  let fromQuery = false;
  // Drizzle wraps driver errors (DrizzleQueryError, with `query`) with the original as `cause`.
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e !== 'object') return false;
    const { code, message, port, query } = e as Record<string, unknown>;
    if (typeof query === 'string') fromQuery = true;
    if (typeof code === 'string' && isUnavailableState(code)) return true;
    if (
      typeof code === 'string' &&
      NETWORK_CODES.has(code) &&
      (fromQuery || (typeof port === 'number' && databasePorts.has(port)))
    ) {
      return true;
    }
    if (typeof message === 'string' && MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}
