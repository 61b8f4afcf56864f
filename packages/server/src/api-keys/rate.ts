import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

const MINUTE_MS = 60_000;

export interface RateCount {
  calls: number;
  /** When the current window ends. */
  resetAt: Date;
}

/**
 * Counts one call of an API key in the current minute, in PostgreSQL (one row per key and minute,
 * an atomic upsert), so every server instance counts against the same figure (DESIGN.md invariant 7).
 * The first call of a minute also drops the key's older rows.
 */
export async function countCall(db: Db, keyId: number, now: Date): Promise<RateCount> {
  const start = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
  const result = await db.execute<{ calls: number }>(sql`
    insert into api_key_usage (key_id, window_start, calls) values (${keyId}, ${start}, 1)
    on conflict (key_id, window_start) do update set calls = api_key_usage.calls + 1
    returning calls`);
  const calls = Number(result.rows[0].calls);
  if (calls === 1) {
    await db.execute(sql`delete from api_key_usage where key_id = ${keyId} and window_start < ${start}`);
  }
  return { calls, resetAt: new Date(start.getTime() + MINUTE_MS) };
}
