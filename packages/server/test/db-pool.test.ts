import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { connect } from '../src/db/client.ts';

/**
 * The database pool at shutdown (src/db/client.ts). Drizzle sends a transaction's BEGIN outside its
 * try/finally: when BEGIN failed (a pooled connection PostgreSQL had just ended, as in the NATS
 * cluster test's outage) the connection was never given back, and close() — pool.end() — waited
 * for it for ever.
 */
describe('database pool', () => {
  it('gives back the connection of a transaction whose BEGIN fails, and close() ends', async () => {
    const database = connect(inject('adminDatabaseUrl'), 2);
    try {
      let cut = true;
      // The connection dies between its checkout and BEGIN.
      database.pool.on('acquire', (client) => {
        if (!cut) return;
        cut = false;
        (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      });
      await expect(database.db.transaction(async (tx) => tx.execute(sql`select 1`))).rejects.toThrow();
      expect(database.pool.totalCount - database.pool.idleCount).toBe(0);
      // The pool goes on with a new connection.
      const { rows } = await database.db.execute<{ one: number }>(sql`select 1 as one`);
      expect(rows[0].one).toBe(1);
    } finally {
      let warned = '';
      await database.close({ warn: (_o, msg) => (warned = msg) }, 5000);
      expect(warned).toBe('');
    }
  });
});
