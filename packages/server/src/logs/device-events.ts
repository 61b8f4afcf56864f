import type { DeviceEvent } from '@beacon/protocol';
import { and, gte, lte } from 'drizzle-orm';
import type { Database, Tx } from '../db/client.ts';
import { clampToWindow, daySuffix, ensureDailyPartitions } from '../db/partitions.ts';
import { deviceEvents, devices } from '../db/schema.ts';
import { inTexts } from '../db/text-array.ts';
import { type BusEvent, publishEvents } from '../events/bus.ts';

/**
 * Device events into `device_events` (a table partitioned by UTC day, docs/decisions/0036): the
 * ingest hands over a batch (one event per device at most, in the device's order), this writes them
 * in one transaction, skips repeats, and then calls every listener with the rows it really stored,
 * inside the same transaction (the live `device.event` here; alarms plug in beside it).
 */

/** An event as stored. */
export interface StoredDeviceEvent {
  id: number;
  sn: string;
  projectId: number | null;
  eventId: string;
  at: Date;
  event: string;
  level: string;
  message: string;
  data: Record<string, unknown> | null;
}

/**
 * Called with each batch of newly stored events (repeats left out), inside the transaction that
 * stored them: what a listener writes commits with them. Keep it to a few statements per batch.
 */
export type DeviceEventListener = (tx: Tx, events: readonly StoredDeviceEvent[]) => Promise<void>;

export interface DeviceEventItem {
  sn: string;
  event: DeviceEvent;
  /** Server time the message was received (deps.now()). */
  now: Date;
}

export const DEVICE_EVENTS_TABLE = 'device_events';
/**
 * A device's own time is kept when it is within this window of the server's (a device that was
 * offline reports what happened meanwhile); outside it (a clock years off, a hostile ts) the
 * receive time is used, so a device cannot create or fill partitions far away.
 */
export const EVENT_BACK_MS = 2 * 86_400_000;
export const EVENT_AHEAD_MS = 3_600_000;
/** Partitions made ahead of time by the retention job (and at start). */
export const PARTITIONS_AHEAD_DAYS = 2;

/** The live event of each stored row of a project (unclaimed devices have no screen). */
export const publishDeviceEventsLive: DeviceEventListener = async (tx, events) => {
  const live: BusEvent[] = [];
  for (const e of events) {
    if (e.projectId === null) continue;
    live.push({
      type: 'device.event',
      projectId: e.projectId,
      sn: e.sn,
      id: e.id,
      event: e.event,
      level: e.level,
      message: e.message,
      at: e.at.toISOString(),
    });
  }
  await publishEvents(tx, live);
};

/** Days this process knows have a partition (saves a catalogue look-up per batch). */
const knownDays = new Set<string>();

async function ensureDays(database: Database, days: Date[]): Promise<void> {
  for (const day of days) {
    const key = daySuffix(day);
    if (knownDays.has(key)) continue;
    await ensureDailyPartitions(database.pool, DEVICE_EVENTS_TABLE, day, day);
    knownDays.add(key);
  }
}

/** Makes sure the day of `at` has its partition (for a server-side event written outside a batch). */
export function ensureEventDay(database: Database, at: Date): Promise<void> {
  return ensureDays(database, [at]);
}

/** Forget what partitions exist (after retention dropped some, or a failed insert). */
export function forgetKnownPartitions(): void {
  knownDays.clear();
}

function isNoPartition(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (e.code === '23514') return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** Writes a batch of events; answers one result per item (nothing: the ingest only waits). */
export async function writeDeviceEvents(
  database: Database,
  items: readonly DeviceEventItem[],
  listeners: readonly DeviceEventListener[],
): Promise<null[]> {
  const rows = items.map(({ sn, event: e, now }) => ({
    sn,
    eventId: e.id,
    at: clampToWindow(new Date(e.ts), now, EVENT_BACK_MS, EVENT_AHEAD_MS),
    event: e.event,
    level: e.level,
    message: e.message,
    data: (e.data ?? null) as Record<string, unknown> | null,
    receivedAt: now,
  }));
  const run = async () => {
    await ensureDays(
      database,
      rows.map((r) => r.at),
    );
    await database.db.transaction(async (tx) => {
      const stored = await insertEvents(tx, rows);
      if (stored.length) for (const listener of listeners) await listener(tx, stored);
    });
  };
  try {
    await run();
  } catch (err) {
    // A partition this process thought it had was dropped meanwhile (retention in another
    // instance, a clock moved in tests): make it again once.
    if (!isNoPartition(err)) throw err;
    forgetKnownPartitions();
    await run();
  }
  return items.map(() => null);
}

type NewRow = {
  sn: string;
  eventId: string;
  at: Date;
  event: string;
  level: string;
  message: string;
  data: Record<string, unknown> | null;
  receivedAt: Date;
};

/**
 * Inserts the rows that are new: an event id the device already used within the kept window is
 * a repeat (a QoS 1 redelivery, a device re-sending after a reconnect) even if its time differs;
 * the unique index (sn, event_id, at) settles a race between two instances.
 */
async function insertEvents(tx: Tx, rows: NewRow[]): Promise<StoredDeviceEvent[]> {
  if (rows.length === 0) return [];
  const times = rows.map((r) => r.at.getTime());
  const sns = [...new Set(rows.map((r) => r.sn))];
  const seen = await tx
    .select({ sn: deviceEvents.sn, eventId: deviceEvents.eventId })
    .from(deviceEvents)
    .where(
      and(
        inTexts(deviceEvents.sn, sns),
        inTexts(
          deviceEvents.eventId,
          rows.map((r) => r.eventId),
        ),
        gte(deviceEvents.at, new Date(Math.min(...times) - EVENT_BACK_MS - EVENT_AHEAD_MS)),
        lte(deviceEvents.at, new Date(Math.max(...times) + EVENT_BACK_MS + EVENT_AHEAD_MS)),
      ),
    );
  const taken = new Set(seen.map((s) => `${s.sn}\n${s.eventId}`));
  const fresh: NewRow[] = [];
  for (const row of rows) {
    const key = `${row.sn}\n${row.eventId}`;
    if (taken.has(key)) continue;
    taken.add(key);
    fresh.push(row);
  }
  if (fresh.length === 0) return [];
  const owners = await tx
    .select({ sn: devices.sn, projectId: devices.projectId })
    .from(devices)
    .where(inTexts(devices.sn, [...new Set(fresh.map((r) => r.sn))]));
  const projectOf = new Map(owners.map((o) => [o.sn, o.projectId]));
  const inserted = await tx
    .insert(deviceEvents)
    .values(fresh.map((r) => ({ ...r, projectId: projectOf.get(r.sn) ?? null })))
    .onConflictDoNothing()
    .returning();
  return inserted.map((r) => ({
    id: r.id,
    sn: r.sn,
    projectId: r.projectId,
    eventId: r.eventId,
    at: r.at,
    event: r.event,
    level: r.level,
    message: r.message,
    data: (r.data ?? null) as Record<string, unknown> | null,
  }));
}

/** Partitions from yesterday to PARTITIONS_AHEAD_DAYS ahead of `now` (start and the retention job). */
export async function ensureEventPartitions(database: Database, now: Date): Promise<string[]> {
  const created = await ensureDailyPartitions(
    database.pool,
    DEVICE_EVENTS_TABLE,
    new Date(now.getTime() - EVENT_BACK_MS),
    new Date(now.getTime() + PARTITIONS_AHEAD_DAYS * 86_400_000),
  );
  return created;
}
