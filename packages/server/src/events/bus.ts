import type { LiveEvent } from '@beacon/protocol';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import type { Database, DbOrTx } from '../db/client.ts';

/**
 * Live events across server instances (DESIGN.md invariant 7, "Growing past one machine"): every
 * event goes through PostgreSQL NOTIFY on one channel, and every instance LISTENs on it, so a
 * browser connected to instance A hears what instance B did. Published inside a transaction, an
 * event is delivered only when (and if) the transaction commits.
 */

export const EVENT_CHANNEL = 'beacon_events';

/** The events of LiveEvent that name a project (everything but the socket's own hello). */
export type BusEvent = Exclude<LiveEvent, { type: 'hello' }>;
export type BusListener = (event: BusEvent) => void;

/** Queues one event on the channel (delivered at commit when `db` is a transaction). */
export async function publishEvent(db: DbOrTx, event: BusEvent): Promise<void> {
  await db.execute(sql`select pg_notify(${EVENT_CHANNEL}, ${JSON.stringify(event)})`);
}

/**
 * Queues many events in one statement (one round trip instead of one per event). Each event is
 * still its own notification, so listeners and other instances see exactly what publishEvent
 * sends; chunks keep the parameter a reasonable size.
 */
export async function publishEvents(db: DbOrTx, events: readonly BusEvent[]): Promise<void> {
  for (let i = 0; i < events.length; i += 1000) {
    const payloads = events.slice(i, i + 1000).map((e) => JSON.stringify(e));
    if (payloads.length === 1) {
      await db.execute(sql`select pg_notify(${EVENT_CHANNEL}, ${payloads[0]})`);
    } else {
      await db.execute(
        sql`select pg_notify(${EVENT_CHANNEL}, t.p) from jsonb_array_elements_text(${JSON.stringify(payloads)}::jsonb) with ordinality as t(p, n) order by t.n`,
      );
    }
  }
}

export class EventBus {
  private client: pg.PoolClient | null = null;
  private readonly listeners = new Set<BusListener>();
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;

  constructor(
    private readonly database: Database,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
  ) {}

  /** Starts listening (one pooled connection held for the LISTEN). */
  async start(): Promise<void> {
    const client = await this.database.pool.connect();
    client.on('notification', (msg) => {
      if (msg.channel !== EVENT_CHANNEL || !msg.payload) return;
      let event: BusEvent;
      try {
        event = JSON.parse(msg.payload) as BusEvent;
      } catch {
        return;
      }
      for (const listener of this.listeners) {
        try {
          listener(event);
        } catch (err) {
          this.log.error({ err }, 'event listener failed');
        }
      }
    });
    client.on('error', (err) => {
      // After close() the server is stopping and PostgreSQL ends its connections: nothing is lost.
      if (this.stopped) return;
      this.log.warn({ err }, 'event bus connection lost; reconnecting');
      this.reconnect(client);
    });
    await client.query(`listen ${EVENT_CHANNEL}`);
    this.client = client;
  }

  private reconnect(broken: pg.PoolClient): void {
    if (this.client !== broken) return;
    this.client = null;
    broken.release(true);
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.stopped) return;
      this.start().catch((err) => {
        this.log.warn({ err }, 'event bus reconnect failed');
        this.retry = null;
        setTimeout(() => !this.stopped && this.start().catch(() => {}), 2000).unref();
      });
    }, 500);
    this.retry.unref();
  }

  /** Publishes through PostgreSQL (see publishEvent); every instance, this one included, receives it. */
  publish(db: DbOrTx, event: BusEvent): Promise<void> {
    return publishEvent(db, event);
  }

  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    if (client) {
      await client.query(`unlisten ${EVENT_CHANNEL}`).catch(() => {});
      // Destroyed, not returned to the pool: it still carries this bus's listeners.
      client.release(true);
    }
  }
}
