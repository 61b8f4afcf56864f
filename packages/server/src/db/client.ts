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
  close(): Promise<void>;
}

// bigint columns (counts, ids) come back as numbers; our ids stay far below 2^53.
pg.types.setTypeParser(20, (v) => Number(v));

export function connect(url: string, max = 20): Database {
  rememberDatabaseUrl(url);
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => {
    // An idle client lost its server (restart); the pool replaces it on next use.
  });
  const db = drizzle(pool, { schema });
  return { pool, db, close: () => pool.end() };
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
