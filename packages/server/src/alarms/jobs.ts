import { ALARM_DEFAULTS, ALARM_RULE_WINDOW, AlarmKind, DeviceStatus } from '@beacon/protocol';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { DbOrTx, Tx } from '../db/client.ts';
import { alarmDeliveries, alarmSettings, alarms } from '../db/schema.ts';
import { addJobs, type JobRunner } from '../jobs/runner.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Secrets } from '../security/secrets.ts';
import { ALARM_DELIVER_JOB, type Incident, projectName, raiseAlarms } from './raise.ts';
import { toAlarmView } from './views.ts';
import { DELIVERY_HEADER, postWebhook, SIGNATURE_HEADER, signature, TIMESTAMP_HEADER } from './webhook.ts';

/**
 * The alarm jobs (durable job runner, safe with several instances):
 * - `alarm-sweep` recurs every ALARM_SWEEP_SECONDS (a chain keyed by time slot, like
 *   config-converge): raises the rule alarms (offline for N minutes; CPU or memory at or above the
 *   project's threshold over the last 5 minutes of stored samples, ALARM_RULE_WINDOW) and clears
 *   incidents whose condition is gone (CPU or memory: the latest reading is under the threshold);
 * - `alarm-deliver` sends one delivery (email or webhook); a failed webhook is tried again after
 *   RETRY_DELAYS_MS, each attempt's outcome kept on the delivery row.
 */

export const ALARM_SWEEP_JOB = 'alarm-sweep';
/**
 * Formerly the daily deletion of ended alarms after 180 days. Ended alarms now follow their
 * project's log retention choice, applied hourly by the log-retention job (stats/retention.ts,
 * docs/decisions/0045); a job of this kind still queued finishes without doing anything.
 */
export const ALARM_RETENTION_JOB = 'alarm-retention';
/** Delay before each retry of a failed webhook delivery; after the last, it is failed. */
export const RETRY_DELAYS_MS = [10_000, 60_000, 300_000, 900_000, 3_600_000] as const;
/** An event incident (PoE, IP conflict, upgrade, reboot) ends after this long without a repeat. */
export const EVENT_QUIET_MS = 30 * 60_000;
/** Telemetry older than this says nothing about CPU or memory now. */
const FRESH_TELEMETRY_MS = 5 * 60_000;
/** Rule incidents raised per sweep at most (a mass outage is raised over a few sweeps). */
const SWEEP_BATCH = 2000;

const OFFLINE = [DeviceStatus.OFFLINE, DeviceStatus.OFFLINE_VARIANT];
const EVENT_KINDS = [
  AlarmKind.POE_OVER_BUDGET,
  AlarmKind.IP_CONFLICT,
  AlarmKind.UPGRADE_FAILED,
  AlarmKind.REBOOT,
];

const slotKey = (at: Date, every: number) => `${ALARM_SWEEP_JOB}:${Math.floor(at.getTime() / every) + 1}`;
const slotTime = (at: Date, every: number) => new Date((Math.floor(at.getTime() / every) + 1) * every);

export interface AlarmJobDeps {
  config: Pick<Config, 'alarmSweepMs' | 'alarmWebhookAllowPrivate' | 'alarmWebhookTimeoutMs'>;
  mailer: Mailer;
  secrets: Secrets;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

/** Starts the sweep chain (every instance at start; the slot key keeps it one). */
export async function startAlarmSweep(db: DbOrTx, now: Date, every: number): Promise<void> {
  await addJobs(db, [{ kind: ALARM_SWEEP_JOB, key: slotKey(now, every), runAt: slotTime(now, every) }]);
}

const list = (values: readonly (string | number)[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/** One pass of the rules: clears what recovered, then raises what is wrong now. */
export async function sweepAlarms(tx: Tx, now: Date): Promise<number[]> {
  const at = now.toISOString();
  const settings = sql`left join alarm_settings st on st.project_id = d.project_id`;
  // Cleared: the device left the project (or is gone), came back, or cooled down; quiet event incidents.
  await tx.execute(sql`
    update alarms a set cleared_at = ${at}::timestamptz
    where a.cleared_at is null and not exists (
      select 1 from devices d where d.sn = a.sn and d.project_id = a.project_id)`);
  await tx.execute(sql`
    update alarms a set cleared_at = ${at}::timestamptz from device_state s
    where a.cleared_at is null and a.kind = ${AlarmKind.OFFLINE} and s.sn = a.sn
      and s.status not in (${list(OFFLINE)})`);
  await tx.execute(sql`
    update alarms a set cleared_at = ${at}::timestamptz
    from device_state s join devices d on d.sn = s.sn ${settings}
    where a.cleared_at is null and s.sn = a.sn and (
      (a.kind = ${AlarmKind.CPU_HIGH} and (s.status in (${list(OFFLINE)}) or coalesce(s.cpu, 0) < coalesce(st.cpu_percent, 90)))
      or (a.kind = ${AlarmKind.MEMORY_HIGH} and (s.status in (${list(OFFLINE)}) or coalesce(s.memory, 0) < coalesce(st.memory_percent, 90))))`);
  await tx.execute(sql`
    update alarms set cleared_at = ${at}::timestamptz
    where cleared_at is null and kind in (${list(EVENT_KINDS)})
      and last_at < ${new Date(now.getTime() - EVENT_QUIET_MS).toISOString()}::timestamptz`);

  const open = (kind: string) =>
    sql`not exists (select 1 from alarms a where a.sn = d.sn and a.kind = ${kind} and a.cleared_at is null)`;
  const fresh = new Date(now.getTime() - FRESH_TELEMETRY_MS).toISOString();
  const windowStart = new Date(now.getTime() - ALARM_RULE_WINDOW.WINDOW_MS).toISOString();
  /**
   * CPU or memory high (docs/alarms.md): the latest reading is at or above the threshold (a cheap
   * filter on device_state), and so is every raw sample of the window (stats_device, its (sn, at)
   * index, partitions pruned by time), with enough samples over enough of the window. `value` is the
   * lowest reading of the window.
   */
  const windowRule = (kind: AlarmKind, column: 'cpu' | 'memory', threshold: SQL) => sql`
    (select d.sn, ${kind} as kind, w.low as value, ${threshold} as threshold, s.telemetry_at as since
      from devices d join device_state s on s.sn = d.sn ${settings}
      cross join lateral (
        select count(*)::int as n, min(x.${sql.raw(column)}) as low, min(x.at) as first, max(x.at) as last
          from stats_device x
         where x.sn = d.sn and x.at > ${windowStart}::timestamptz and x.at <= ${at}::timestamptz) w
      where d.project_id is not null and s.status not in (${list(OFFLINE)}) and s.telemetry_at > ${fresh}::timestamptz
        and s.${sql.raw(column)} >= ${threshold} and ${open(kind)}
        and w.n >= ${ALARM_RULE_WINDOW.MIN_SAMPLES} and w.low >= ${threshold}
        and w.last - w.first >= make_interval(secs => ${ALARM_RULE_WINDOW.MIN_SPAN_MS / 1000})
      limit ${SWEEP_BATCH})`;
  const found = await tx.execute<{
    sn: string;
    kind: string;
    value: number | null;
    threshold: number;
    since: Date | string | null;
  }>(sql`
    (select d.sn, ${AlarmKind.OFFLINE} as kind, null::real as value, coalesce(st.offline_minutes, 5) as threshold, s.last_seen_at as since
      from devices d join device_state s on s.sn = d.sn ${settings}
      where d.project_id is not null and s.status in (${list(OFFLINE)}) and s.last_seen_at is not null
        and s.last_seen_at <= ${at}::timestamptz - make_interval(mins => coalesce(st.offline_minutes, 5))
        and ${open(AlarmKind.OFFLINE)}
      limit ${SWEEP_BATCH})
    union all
    ${windowRule(AlarmKind.CPU_HIGH, 'cpu', sql`coalesce(st.cpu_percent, ${ALARM_DEFAULTS.cpuPercent})`)}
    union all
    ${windowRule(AlarmKind.MEMORY_HIGH, 'memory', sql`coalesce(st.memory_percent, ${ALARM_DEFAULTS.memoryPercent})`)}`);
  const incidents: Incident[] = found.rows.map((r) => {
    if (r.kind === AlarmKind.OFFLINE) {
      return {
        sn: r.sn,
        kind: AlarmKind.OFFLINE,
        level: 'critical',
        message: `Offline for more than ${r.threshold} minutes`,
        at: now,
      };
    }
    const what = r.kind === AlarmKind.CPU_HIGH ? 'CPU' : 'Memory';
    const minutes = ALARM_RULE_WINDOW.WINDOW_MS / 60_000;
    return {
      sn: r.sn,
      kind: r.kind as Incident['kind'],
      level: 'warning',
      message: `${what} usage at or above ${r.threshold} % for ${minutes} minutes (lowest ${Number(r.value).toFixed(1)} %)`,
      at: now,
    };
  });
  return raiseAlarms(tx, incidents, now);
}

export function registerAlarmJobs(runner: JobRunner, deps: AlarmJobDeps): void {
  const every = deps.config.alarmSweepMs;
  runner.register(ALARM_SWEEP_JOB, async ({ tx, now }) => {
    await sweepAlarms(tx, now);
    await addJobs(tx, [{ kind: ALARM_SWEEP_JOB, key: slotKey(now, every), runAt: slotTime(now, every) }]);
  });

  // Retired (see ALARM_RETENTION_JOB): drains what an older version queued.
  runner.register(ALARM_RETENTION_JOB, async () => {});

  runner.register(ALARM_DELIVER_JOB, async ({ tx, now, job }) => {
    const { id } = job.payload as { id: number };
    const [delivery] = await tx
      .select()
      .from(alarmDeliveries)
      .where(eq(alarmDeliveries.id, id))
      .for('update');
    if (delivery?.state !== 'pending') return;
    const [alarm] = await tx.select().from(alarms).where(eq(alarms.id, delivery.alarmId));
    if (!alarm) return;
    const view = toAlarmView(alarm, await projectName(tx, alarm.projectId));
    const attempts = delivery.attempts + 1;
    if (delivery.channel === 'email') {
      // The mailer keeps it in mail_outbox first; SMTP failures are kept on that row.
      await deps.mailer.send({
        to: delivery.target,
        subject: `[Beacon] ${view.level === 'critical' ? 'Critical' : 'Warning'}: ${view.kind} on ${view.name || view.sn}`,
        body: [
          `Project: ${view.project}`,
          `Time: ${view.at}`,
          `Event: ${view.event}`,
          `Device: ${view.name || '-'} (${view.model}), SN ${view.sn}, MAC ${view.mac ?? '-'}`,
        ].join('\n'),
      });
      await tx
        .update(alarmDeliveries)
        .set({ state: 'delivered', attempts, deliveredAt: now, nextAttemptAt: null, lastError: null })
        .where(eq(alarmDeliveries.id, id));
      return;
    }
    const [settings] = await tx
      .select({ secret: alarmSettings.webhookSecret })
      .from(alarmSettings)
      .where(eq(alarmSettings.projectId, alarm.projectId));
    let status: number | null = null;
    let error: string | null = null;
    try {
      if (!settings?.secret) throw new Error('The project has no webhook signing secret any more');
      const body = JSON.stringify({ type: 'alarm', delivery: id, sentAt: now.toISOString(), alarm: view });
      const timestamp = String(Math.floor(now.getTime() / 1000));
      const result = await postWebhook(
        delivery.target,
        body,
        {
          [SIGNATURE_HEADER]: signature(deps.secrets.open(settings.secret), timestamp, body),
          [TIMESTAMP_HEADER]: timestamp,
          [DELIVERY_HEADER]: String(id),
        },
        { allowPrivate: deps.config.alarmWebhookAllowPrivate, timeoutMs: deps.config.alarmWebhookTimeoutMs },
      );
      status = result.status;
      if (status < 200 || status >= 300) error = `HTTP ${status}`;
    } catch (err) {
      error = (err instanceof Error ? err.message : String(err)).slice(0, 500);
    }
    if (error === null) {
      await tx
        .update(alarmDeliveries)
        .set({
          state: 'delivered',
          attempts,
          responseStatus: status,
          deliveredAt: now,
          nextAttemptAt: null,
          lastError: null,
        })
        .where(eq(alarmDeliveries.id, id));
      return;
    }
    const delay = RETRY_DELAYS_MS[attempts - 1];
    const next = delay === undefined ? null : new Date(now.getTime() + delay);
    await tx
      .update(alarmDeliveries)
      .set({
        state: next ? 'pending' : 'failed',
        attempts,
        responseStatus: status,
        lastError: error,
        nextAttemptAt: next,
      })
      .where(eq(alarmDeliveries.id, id));
    if (next) {
      await addJobs(tx, [
        {
          kind: ALARM_DELIVER_JOB,
          key: `${ALARM_DELIVER_JOB}:${id}:${attempts}`,
          payload: { id },
          runAt: next,
        },
      ]);
    } else {
      deps.log.warn({ deliveryId: id, error }, 'alarm webhook delivery failed for good');
    }
  });
}
