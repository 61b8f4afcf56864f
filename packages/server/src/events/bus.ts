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

/**
 * Sessions and API keys that ended (logout, password change, key deleted): `NOTIFY beacon_signout
 * '{"accountId":N}'` inside the write's transaction, heard by every instance, which then re-checks
 * the open sockets of that account (events/routes.ts).
 */
export const SIGNOUT_CHANNEL = 'beacon_signout';

/** Queues the sign-out notice of one account (delivered at commit when `db` is a transaction). */
export async function publishSignOut(db: DbOrTx, accountId: number): Promise<void> {
  await db.execute(sql`select pg_notify(${SIGNOUT_CHANNEL}, ${JSON.stringify({ accountId })})`);
}

type SignalListener = (payload: string) => void;
type StateListener = (listening: boolean) => void;

// Reconnects start fast (a restart of PostgreSQL takes seconds) and settle at one try every 5 s.
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5_000;

/**
 * One pooled connection that LISTENs on the event and sign-out channels. When it is lost (a
 * PostgreSQL restart or outage) it is re-established for as long as the server runs, with a
 * growing delay; `onState` tells the WebSocket route, which closes its sockets on a loss (the
 * browsers reconnect and refetch what they missed) and refuses new ones until LISTEN is back.
 */
export class EventBus {
  private client: pg.PoolClient | null = null;
  private readonly listeners = new Set<BusListener>();
  private readonly signals = new Map<string, Set<SignalListener>>();
  private readonly stateListeners = new Set<StateListener>();
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  private delay = FIRST_RETRY_MS;
  private failing = false;

  constructor(
    private readonly database: Database,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
  ) {}

  /** Whether notifications arrive now (false during a database outage, until LISTEN is back). */
  get listening(): boolean {
    return this.client !== null;
  }

  /** Starts listening; a failure here fails the server's start (no database at all). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = await this.database.pool.connect();
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      this.lost(client, err);
    };
    client.on('notification', (msg) => this.dispatch(msg.channel, msg.payload));
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.query(`listen ${EVENT_CHANNEL}; listen ${SIGNOUT_CHANNEL}`);
    } catch (err) {
      lost = true;
      client.release(true);
      throw err;
    }
    if (this.stopped) {
      lost = true;
      client.release(true);
      return;
    }
    this.client = client;
    this.delay = FIRST_RETRY_MS;
    if (this.failing) this.log.info('event bus listening again');
    this.failing = false;
    this.setState(true);
  }

  private lost(client: pg.PoolClient, err?: Error): void {
    // After close() the server is stopping and PostgreSQL ends its connections: nothing is lost.
    if (this.stopped) return;
    if (this.client === client) {
      this.client = null;
      client.release(true);
      this.log.warn({ err }, 'event bus connection lost; reconnecting');
      this.setState(false);
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retry) return;
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, MAX_RETRY_MS);
    this.retry = setTimeout(() => {
      this.retry = null;
      if (this.stopped) return;
      this.connect().catch((err) => {
        // One warning per outage, not one every few seconds.
        if (!this.failing) this.log.warn({ err }, 'event bus reconnect failed; retrying until it is back');
        this.failing = true;
        this.scheduleReconnect();
      });
    }, wait);
    this.retry.unref();
  }

  private dispatch(channel: string, payload: string | undefined): void {
    if (!payload) return;
    if (channel !== EVENT_CHANNEL) {
      for (const listener of this.signals.get(channel) ?? []) this.call(() => listener(payload));
      return;
    }
    let event: BusEvent;
    try {
      event = JSON.parse(payload) as BusEvent;
    } catch {
      return;
    }
    for (const listener of this.listeners) this.call(() => listener(event));
  }

  private call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.log.error({ err }, 'event listener failed');
    }
  }

  private setState(listening: boolean): void {
    for (const listener of this.stateListeners) this.call(() => listener(listening));
  }

  /** Publishes through PostgreSQL (see publishEvent); every instance, this one included, receives it. */
  publish(db: DbOrTx, event: BusEvent): Promise<void> {
    return publishEvent(db, event);
  }

  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The raw payloads of another channel this bus LISTENs on (SIGNOUT_CHANNEL). */
  onSignal(channel: typeof SIGNOUT_CHANNEL, listener: SignalListener): () => void {
    const set = this.signals.get(channel) ?? new Set<SignalListener>();
    this.signals.set(channel, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Called with false when the LISTEN connection is lost and with true when it is back. */
  onState(listener: StateListener): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    if (client) {
      await client.query(`unlisten *`).catch(() => {});
      // Destroyed, not returned to the pool: it still carries this bus's listeners.
      client.release(true);
    }
  }
}
