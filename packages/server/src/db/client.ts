import path from 'node:path';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema.ts';
import { rememberDatabaseUrl } from './unavailable.ts';

export type Db = NodePgDatabase<typeof schema>;
/** A transaction handle; repositories accept either so services can compose writes in one transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  pool: pg.Pool;
  db: Db;
  /** Ends the pool; bounded (endPool): a connection still checked out is closed after `waitMs`. */
  close(log?: { warn(obj: object, msg: string): void }, waitMs?: number): Promise<void>;
}

// bigint columns (counts, ids) come back as numbers; our ids stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export function connect(url: string, max = 20): Database {
  rememberDatabaseUrl(url);
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => {
    // An idle client lost its server (restart); the pool replaces it on next use.
  });
  // A client that loses its server while checked out (in a transaction when PostgreSQL restarts or
  // ends its connections) emits 'error' with no pool listener attached: unhandled, that stops the
  // process. Its query in flight fails with the same error, and the pool drops the broken client
  // when it is released, so nothing is left to do here.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = drizzle(releasingPool(pool), { schema });
  return { pool, db, close: (log, waitMs) => endPool(pool, log, waitMs) };
}

/**
 * The pool as Drizzle sees it. Drizzle's transaction() sends BEGIN before its try/finally, so a
 * BEGIN that fails (a pooled connection PostgreSQL had just ended: a restart, pg_terminate_backend,
 * an outage) never gives its connection back: the pool is one short for good and `pool.end()` waits
 * for it for ever (the NATS cluster test's shutdown hang). Here a checked-out connection whose first
 * statement fails goes back to the pool, destroyed; nothing else of Drizzle's reaches that point.
 */
function releasingPool(pool: pg.Pool): pg.Pool {
  const connect = (): Promise<pg.PoolClient> =>
    pool.connect().then((client) => {
      const query = client.query;
      // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded query signature
      client.query = function first(this: pg.PoolClient, ...args: any[]) {
        client.query = query;
        // biome-ignore lint/suspicious/noExplicitAny: as above
        const result = (query as any).apply(client, args);
        if (!(result instanceof Promise)) return result;
        return result.catch((err: unknown) => {
          client.release(err instanceof Error ? err : true);
          throw err;
        });
      } as typeof client.query;
      return client;
    });
  return new Proxy(pool, {
    get(target, key) {
      if (key === 'connect') return connect;
      const value = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** What pg keeps inside (read only to name what is stuck at shutdown). */
interface ClientInternals {
  _getActiveQuery?(): { text?: string } | null | undefined;
  _queryQueue?: unknown[];
  _sentQueryQueue?: unknown[];
  _queryable?: boolean;
  _ending?: boolean;
  connection: { stream: { destroy(): void; destroyed?: boolean } };
}

interface PoolInternals {
  _clients: ClientInternals[];
}

/**
 * `pool.end()` waits for every checked-out connection to come back, with no limit: one that never
 * does (a caller stuck on a promise that never settles, a query that never answers) would hang the
 * shutdown for ever. After `waitMs` the remaining connections are closed (their holders' queries
 * fail), named in the log, and close() returns.
 */
async function endPool(pool: pg.Pool, log: Parameters<Database['close']>[0], waitMs = 5000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const ended = pool.end().then(() => true);
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), waitMs);
  });
  const inTime = await Promise.race([ended, late]);
  clearTimeout(timer);
  if (inTime) return;
  const clients = [...(pool as unknown as PoolInternals)._clients];
  const busy = clients.map((c) => {
    const i = c as unknown as ClientInternals;
    return {
      query: i._getActiveQuery?.()?.text?.slice(0, 200) ?? null,
      queued: (i._queryQueue?.length ?? 0) + (i._sentQueryQueue?.length ?? 0),
      queryable: i._queryable,
      ending: i._ending,
      socketClosed: i.connection.stream.destroyed,
    };
  });
  log?.warn(
    { busy },
    `database: ${clients.length} connection(s) still in use ${waitMs} ms into shutdown; closed`,
  );
  for (const c of clients) c.connection.stream.destroy();
  // Their holders release them once their queries fail; the pool then ends (not waited for).
  ended.catch(() => undefined);
}

const MIGRATION_LOCK = 7_242_001;

/** Applies the committed SQL migrations; safe on every start and with several instances at once. */
export async function runMigrations(database: Database): Promise<void> {
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(drizzle(client, { schema }), {
      migrationsFolder: path.resolve(import.meta.dirname, '../../drizzle'),
    });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    client.release();
  }
}
