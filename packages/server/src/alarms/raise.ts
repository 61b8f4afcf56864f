import { AlarmKind, type DeviceEvent, DeviceEventName, DeviceOperation } from '@beacon/protocol';
import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { alarmDeliveries, alarmSettings, devices, projects } from '../db/schema.ts';
import { type BusEvent, publishEvents } from '../events/bus.ts';
import { addJobs } from '../jobs/runner.ts';
import type { DeviceEventListener } from '../logs/device-events.ts';

/**
 * Raising an alarm (docs/decisions/0037). An alarm is an incident: at most one open row per device
 * and kind (unique partial index), so a repeat of the same trouble while it is open counts up on that
 * row and raises nothing new. A new incident publishes the `alarm` live event and queues one
 * delivery per email recipient and webhook of its project (jobs `alarm-deliver`). Devices inside a
 * maintenance window of their project raise nothing.
 */

export const ALARM_DELIVER_JOB = 'alarm-deliver';

export interface Incident {
  sn: string;
  kind: AlarmKind;
  level: 'warning' | 'critical';
  message: string;
  at: Date;
  eventId?: string;
}

/** Commanded restarts: their `booted` event is expected, not an alarm. */
const COMMANDED_BOOTS: readonly string[] = [
  DeviceOperation.REBOOT,
  DeviceOperation.RESET,
  DeviceOperation.UPGRADE,
  DeviceOperation.MODE_SWITCH,
];

/** The incident a device event stands for, if any (docs/alarms.md lists the mapping). */
export function incidentOf(e: DeviceEvent): Omit<Incident, 'sn' | 'at'> | null {
  const base = { message: e.message.slice(0, 500), eventId: e.id };
  const incident = incidentKindOf(e);
  if (!incident) return null;
  // The device's own level when it says critical; else the kind's.
  return { ...base, ...incident, level: e.level === 'critical' ? 'critical' : incident.level };
}

function incidentKindOf(e: DeviceEvent): Pick<Incident, 'kind' | 'level'> | null {
  switch (e.event) {
    case DeviceEventName.POE_OVERLOAD:
      return { kind: AlarmKind.POE_OVER_BUDGET, level: 'critical' };
    case DeviceEventName.IP_CONFLICT:
      return { kind: AlarmKind.IP_CONFLICT, level: 'warning' };
    case DeviceEventName.UPGRADE_FAILED:
      return { kind: AlarmKind.UPGRADE_FAILED, level: 'warning' };
    case DeviceEventName.HIGH_CPU:
      return { kind: AlarmKind.CPU_HIGH, level: 'warning' };
    case DeviceEventName.HIGH_MEMORY:
      return { kind: AlarmKind.MEMORY_HIGH, level: 'warning' };
    case DeviceEventName.BOOTED: {
      const operation = e.data?.operation;
      if (typeof operation === 'string' && COMMANDED_BOOTS.includes(operation)) return null;
      return { kind: AlarmKind.REBOOT, level: 'warning' };
    }
    default:
      return null;
  }
}

/** Raises incidents (new ones only count once); answers the ids of the alarms that are new. */
export async function raiseAlarms(tx: DbOrTx, incidents: readonly Incident[], now: Date): Promise<number[]> {
  const created: number[] = [];
  const events: BusEvent[] = [];
  for (const incident of incidents) {
    const [device] = await tx
      .select({
        projectId: devices.projectId,
        mac: devices.mac,
        model: devices.model,
        name: devices.name,
      })
      .from(devices)
      .where(eq(devices.sn, incident.sn));
    if (!device?.projectId) continue; // unclaimed devices have no project to alarm
    const muted = await tx.execute(sql`
      select 1 from alarm_windows
      where project_id = ${device.projectId} and sns @> jsonb_build_array(${incident.sn}::text)
        and starts_at <= ${now.toISOString()}::timestamptz and ends_at > ${now.toISOString()}::timestamptz
      limit 1`);
    if (muted.rows.length) continue;
    // An incident still open from the device's previous project ends here (the sweep would end it
    // later): the device's trouble in this project is a new alarm of this project.
    await tx.execute(sql`
      update alarms set cleared_at = ${now.toISOString()}::timestamptz
      where sn = ${incident.sn} and kind = ${incident.kind} and cleared_at is null
        and project_id <> ${device.projectId}`);
    // One statement decides new or repeat: the open row is the conflict target.
    const result = await tx.execute(sql`
      insert into alarms (project_id, sn, kind, level, message, mac, model, name, raised_at, last_at, event_id)
      values (${device.projectId}, ${incident.sn}, ${incident.kind}, ${incident.level}, ${incident.message},
        ${device.mac}, ${device.model}, ${device.name}, ${incident.at.toISOString()}::timestamptz,
        ${incident.at.toISOString()}::timestamptz, ${incident.eventId ?? null})
      on conflict (sn, kind) where cleared_at is null
      do update set
        -- A device re-sending the same event (QoS 1 after a reconnect) is not a repeat.
        count = alarms.count + (case when excluded.event_id is not null and alarms.event_id = excluded.event_id then 0 else 1 end),
        last_at = greatest(alarms.last_at, excluded.last_at),
        event_id = coalesce(excluded.event_id, alarms.event_id)
      returning id, (xmax = 0) as inserted`);
    const row = result.rows[0] as { id: string | number; inserted: boolean } | undefined;
    if (!row?.inserted) continue;
    const id = Number(row.id);
    created.push(id);
    events.push({
      type: 'alarm',
      projectId: device.projectId,
      id,
      sn: incident.sn,
      kind: incident.kind,
      at: incident.at.toISOString(),
    });
    await queueDeliveries(tx, device.projectId, id, now);
  }
  await publishEvents(tx, events);
  return created;
}

/** One delivery row and job per recipient of the project's settings. */
async function queueDeliveries(tx: DbOrTx, projectId: number, alarmId: number, now: Date): Promise<void> {
  const [settings] = await tx.select().from(alarmSettings).where(eq(alarmSettings.projectId, projectId));
  if (!settings) return;
  const targets = [
    ...settings.emails.map((to) => ({ channel: 'email', target: to })),
    ...(settings.webhookUrl ? [{ channel: 'webhook', target: settings.webhookUrl }] : []),
  ];
  if (targets.length === 0) return;
  const rows = await tx
    .insert(alarmDeliveries)
    .values(targets.map((t) => ({ projectId, alarmId, ...t, createdAt: now, nextAttemptAt: now })))
    .returning({ id: alarmDeliveries.id });
  await addJobs(
    tx,
    rows.map((r) => ({
      kind: ALARM_DELIVER_JOB,
      key: `${ALARM_DELIVER_JOB}:${r.id}:0`,
      payload: { id: r.id },
      runAt: now,
    })),
  );
}

/** From the ingest (IngestHooks.onEvent): a device event that stands for an incident raises it. */
/**
 * The ingest's device-event listener (logs/device-events.ts): the incidents of a batch of newly
 * stored events (repeats already left out) are raised in the transaction that stored them.
 */
export function alarmsFromStoredEvents(now: () => Date): DeviceEventListener {
  return async (tx, events) => {
    const incidents: Incident[] = [];
    for (const e of events) {
      const incident = incidentOf({
        id: e.eventId,
        ts: e.at.getTime(),
        event: e.event,
        level: e.level,
        message: e.message,
        data: e.data ?? undefined,
      } as DeviceEvent);
      if (incident) incidents.push({ ...incident, sn: e.sn, at: e.at });
    }
    if (incidents.length > 0) await raiseAlarms(tx, incidents, now());
  };
}

/** The project's name for views and deliveries. */
export async function projectName(db: DbOrTx, projectId: number): Promise<string> {
  const [row] = await db
    .select({ name: projects.name })
    .from(projects)
    .where(and(eq(projects.id, projectId)));
  return row?.name ?? '';
}
