import { AlarmKind, type DeviceEvent, DeviceEventName, DeviceOperation } from '@beacon/protocol';
import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { alarmDeliveries, alarmSettings, alarmWindows, devices, projects } from '../db/schema.ts';
import { inTexts, textArray } from '../db/text-array.ts';
import { publishEvents } from '../events/bus.ts';
import { insertRows } from '../gateway/batch.ts';
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

/**
 * Raises incidents (new ones only count once); answers the ids of the alarms that are new.
 *
 * Set-based: a sweep raises up to thousands at once (a mass outage), and one statement per incident
 * and step cost a round trip each — under a reconnect storm's load ~10,000 of them kept the sweep's
 * transaction open for minutes. Incidents of the same device and kind are raised in turns (the
 * first raises, the next counts up), as one after another would be.
 */
export async function raiseAlarms(tx: DbOrTx, incidents: readonly Incident[], now: Date): Promise<number[]> {
  if (incidents.length === 0) return [];
  const sns = [...new Set(incidents.map((i) => i.sn))];
  const facts = await tx
    .select({
      sn: devices.sn,
      projectId: devices.projectId,
      mac: devices.mac,
      model: devices.model,
      name: devices.name,
    })
    .from(devices)
    .where(inTexts(devices.sn, sns));
  const device = new Map(facts.map((f) => [f.sn, f]));
  const projectIds = [...new Set(facts.flatMap((f) => (f.projectId === null ? [] : [f.projectId])))];
  // Devices inside a maintenance window of their project raise nothing.
  const windows = projectIds.length
    ? await tx
        .select({ projectId: alarmWindows.projectId, sns: alarmWindows.sns })
        .from(alarmWindows)
        .where(
          and(
            inArray(alarmWindows.projectId, projectIds),
            lte(alarmWindows.startsAt, now),
            gt(alarmWindows.endsAt, now),
          ),
        )
    : [];
  const muted = new Set(windows.flatMap((w) => w.sns.map((sn) => `${w.projectId}\0${sn}`)));
  const raised: Raised[] = [];
  for (const incident of incidents) {
    const d = device.get(incident.sn);
    // Unclaimed devices have no project to alarm.
    if (!d?.projectId || muted.has(`${d.projectId}\0${incident.sn}`)) continue;
    raised.push({ ...incident, projectId: d.projectId, mac: d.mac, model: d.model, name: d.name });
  }

  const created: { id: number; incident: Raised }[] = [];
  for (const turn of turns(raised)) created.push(...(await raiseTurn(tx, turn, now)));
  // In the order given, as the live events were published before.
  const order = new Map(raised.map((r, i) => [r, i]));
  created.sort((a, b) => (order.get(a.incident) ?? 0) - (order.get(b.incident) ?? 0));
  await queueDeliveries(tx, created, now);
  await publishEvents(
    tx,
    created.map(({ id, incident }) => ({
      type: 'alarm',
      projectId: incident.projectId,
      id,
      sn: incident.sn,
      kind: incident.kind,
      at: incident.at.toISOString(),
    })),
  );
  return created.map((c) => c.id);
}

interface Raised extends Incident {
  projectId: number;
  mac: string | null;
  model: string;
  name: string;
}

/** The incidents split so that no turn holds one device and kind twice (one upsert may not touch a row twice). */
function turns(incidents: readonly Raised[]): Raised[][] {
  const out: Raised[][] = [];
  const seen = new Map<string, number>();
  for (const incident of incidents) {
    const key = `${incident.sn}\0${incident.kind}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    if (n === out.length) out.push([]);
    out[n].push(incident);
  }
  return out;
}

/** One turn: ends incidents left open in a device's previous project, then inserts or counts up. */
async function raiseTurn(
  tx: DbOrTx,
  turn: readonly Raised[],
  now: Date,
): Promise<{ id: number; incident: Raised }[]> {
  const at = now.toISOString();
  const rows = JSON.stringify(
    turn.map((i) => ({
      project_id: i.projectId,
      sn: i.sn,
      kind: i.kind,
      level: i.level,
      message: i.message,
      mac: i.mac,
      model: i.model,
      name: i.name,
      at: i.at.toISOString(),
      event_id: i.eventId ?? null,
    })),
  );
  const recordset = sql`json_to_recordset(${rows}::json) as v(project_id bigint, sn text, kind text, level text,
    message text, mac text, model text, name text, at timestamptz, event_id text)`;
  // The serial numbers as an array too: the planner then reads alarms by index (decision 0071).
  const bySn = sql`a.sn = any(${textArray([...new Set(turn.map((i) => i.sn))])}::text[])`;
  // An incident still open from the device's previous project ends here (the sweep would end it
  // later): the device's trouble in this project is a new alarm of this project.
  await tx.execute(sql`
    update alarms a set cleared_at = ${at}::timestamptz from ${recordset}
    where a.sn = v.sn and a.kind = v.kind and a.cleared_at is null and a.project_id <> v.project_id and ${bySn}`);
  // One statement decides new or repeat: the open row is the conflict target. Rows go in in (sn,
  // kind) order, the order another raiser locks them in.
  const result = await tx.execute<{ id: string | number; sn: string; kind: string; inserted: boolean }>(sql`
    insert into alarms (project_id, sn, kind, level, message, mac, model, name, raised_at, last_at, event_id)
    select v.project_id, v.sn, v.kind, v.level, v.message, v.mac, v.model, v.name, v.at, v.at, v.event_id
      from ${recordset} order by v.sn collate "C", v.kind collate "C"
    on conflict (sn, kind) where cleared_at is null
    do update set
      -- A device re-sending the same event (QoS 1 after a reconnect) is not a repeat.
      count = alarms.count + (case when excluded.event_id is not null and alarms.event_id = excluded.event_id then 0 else 1 end),
      last_at = greatest(alarms.last_at, excluded.last_at),
      event_id = coalesce(excluded.event_id, alarms.event_id)
    returning id, sn, kind, (xmax = 0) as inserted`);
  const incident = new Map(turn.map((i) => [`${i.sn}\0${i.kind}`, i]));
  return result.rows.flatMap((r) => {
    const found = r.inserted ? incident.get(`${r.sn}\0${r.kind}`) : undefined;
    return found ? [{ id: Number(r.id), incident: found }] : [];
  });
}

/** One delivery row and job per recipient of each new alarm's project settings. */
async function queueDeliveries(
  tx: DbOrTx,
  created: readonly { id: number; incident: Raised }[],
  now: Date,
): Promise<void> {
  if (created.length === 0) return;
  const projectIds = [...new Set(created.map((c) => c.incident.projectId))];
  const settings = await tx.select().from(alarmSettings).where(inArray(alarmSettings.projectId, projectIds));
  const targets = new Map(
    settings.map((s) => [
      s.projectId,
      [
        ...s.emails.map((to) => ({ channel: 'email', target: to })),
        ...(s.webhookUrl ? [{ channel: 'webhook', target: s.webhookUrl }] : []),
      ],
    ]),
  );
  const rows = created.flatMap(({ id, incident }) =>
    (targets.get(incident.projectId) ?? []).map((t) => ({
      projectId: incident.projectId,
      alarmId: id,
      ...t,
      createdAt: now,
      nextAttemptAt: now,
    })),
  );
  if (rows.length === 0) return;
  const ids = await insertRows(
    tx,
    alarmDeliveries,
    ['projectId', 'alarmId', 'channel', 'target', 'createdAt', 'nextAttemptAt'],
    rows,
    { returning: 'id' },
  );
  await addJobs(
    tx,
    ids.map((id) => ({
      kind: ALARM_DELIVER_JOB,
      key: `${ALARM_DELIVER_JOB}:${id}:0`,
      payload: { id: Number(id) },
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
