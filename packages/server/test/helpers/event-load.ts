import type { SimulatedDevice } from '@beacon/agent';
import { upTopic } from '@beacon/protocol';
import { inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../src/db/client.ts';
import { deviceEvents } from '../../src/db/schema.ts';

/** An event a device published with QoS 1 and the broker acknowledged (PUBACK), with its time. */
export interface AckedEvent {
  sn: string;
  id: string;
  at: number;
}

/**
 * The fault tests' load (server-killed, nats-cluster): each device publishes a QoS 1 event with a
 * unique id every 150 ms while `running()`; `acked` lists those whose PUBACK came back (an mqtt.js
 * device's publish resolves on it) — what the broker took responsibility for, so what must be stored.
 */
export function eventLoad(senders: SimulatedDevice[], running: () => boolean, prefix = 'load') {
  const acked: AckedEvent[] = [];
  let seq = 0;
  const loops = senders.map(async (d) => {
    while (running()) {
      const id = `${prefix}-${++seq}`;
      const payload = JSON.stringify({ id, ts: Date.now(), event: 'port-up', level: 'info', message: id });
      try {
        await d.publishRaw(upTopic(d.sn, 'event'), payload, 1);
        acked.push({ sn: d.sn, id, at: Date.now() });
      } catch {}
      await new Promise((r) => setTimeout(r, 150));
    }
  });
  return { acked, done: Promise.all(loops).then(() => undefined) };
}

/** The acknowledged events that are not in `device_events` (stored by the event's id). */
export async function unstoredEvents(db: DbOrTx, acked: AckedEvent[]): Promise<AckedEvent[]> {
  if (acked.length === 0) return [];
  const rows = await db
    .select({ sn: deviceEvents.sn, id: deviceEvents.eventId })
    .from(deviceEvents)
    .where(inArray(deviceEvents.sn, [...new Set(acked.map((a) => a.sn))]));
  const stored = new Set(rows.map((e) => `${e.sn}/${e.id}`));
  return acked.filter((a) => !stored.has(`${a.sn}/${a.id}`));
}
