import {
  Codes,
  DEFAULT_TX_POWER,
  type DeviceConfigInput,
  DeviceConfigState,
  errorMessage,
  LIMITS,
  maxPowerFor,
  type RfRecord,
  RfRunState,
  zonedParts,
  zonedTimeToUtc,
} from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { commitDeviceRevisions } from '../config/repository.ts';
import type { DbOrTx } from '../db/client.ts';
import { projects, rfRuns, rfSettings } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { type JobRunner, scheduleJob } from '../jobs/runner.ts';
import {
  documentOf,
  isOnline,
  type Member,
  membersOf,
  type RunRow,
  radioState,
  reportedRadios,
  settingsOf,
} from './members.ts';
import { type PlanRadio, planRf } from './plan.ts';
import { idOf, planInput } from './reports.ts';
import { radioScore } from './spectrum.ts';

/**
 * An RF run as a durable job (src/jobs/, docs/decisions/0048). Each step is short and idempotent,
 * inside the job's transaction, and schedules the next:
 *   plan   (automatic runs) the APs' latest scans → planRf → each changed AP's next revision
 *          (its radios), the records before, progress 40;
 *   watch  every WATCH_MS: progress 40-90 as the APs run their revisions, then one fresh report
 *          from every AP after all run it; the records after and the score, progress 100, completed;
 *          past the deadline (SPEC.md §9: 10 minutes at most) the run times out (34).
 * A scheduled run (rf-schedule) starts an automatic run at its days and time, or records it skipped.
 */

export const RF_RUN_JOB = 'rf-run';
export const RF_SCHEDULE_JOB = 'rf-schedule';
/** How often a running run looks at its APs (ms). */
export const WATCH_MS = 1000;
/** How long after every AP runs the plan its scans count as "after" (ms); longer than a batch's lag. */
export const SCAN_SETTLE_MS = 2000;

/** What a run gave each AP: the revision that carries it and its radios. */
export interface PlannedDevice {
  revision: number;
  radios: { band: string; channel: number; width: number; power: number }[];
  /** When the AP was first seen running its revision (ms). */
  appliedAt?: number;
}
export interface RunPlan {
  devices: Record<string, PlannedDevice>;
  /** When every AP ran its revision (ms): reports after this are the "after". */
  allAppliedAt?: number;
  planned?: boolean;
}

let step = 0;
/** Queues the next step of a run (a key of its own: the running job's row is removed after it). */
export function queueRunStep(db: DbOrTx, runId: number, at: Date): Promise<void> {
  step = (step + 1) % 1_000_000;
  return scheduleJob(db, {
    kind: RF_RUN_JOB,
    key: `${RF_RUN_JOB}:${runId}:${at.getTime()}:${step}`,
    payload: { runId },
    runAt: at,
  });
}

/** Records of the radios of `members`: what each reports now, as "before" (or "after" into `into`). */
export function recordsOf(members: readonly Member[]): RfRecord[] {
  return members.flatMap((m) =>
    reportedRadios(m.row).map((r) => ({
      sn: m.row.sn,
      name: m.name,
      band: r.band,
      before: radioState(r),
      after: null,
    })),
  );
}

const sum = (list: readonly number[]) => Math.round(list.reduce((a, b) => a + b, 0) * 100) / 100;

/**
 * A device document with its radios replaced by the given ones (other bands and each radio's access
 * threshold and enabled flag kept).
 */
export function withRadios(
  doc: Record<string, unknown>,
  radios: readonly {
    band: string;
    channel: number;
    width: number;
    power: number;
    accessThreshold?: number;
  }[],
): Record<string, unknown> {
  const current = (Array.isArray(doc.radios) ? doc.radios : []) as Record<string, unknown>[];
  const next = current.filter((r) => !radios.some((x) => x.band === r.band));
  for (const r of radios) {
    const old = current.find((x) => x.band === r.band);
    next.push({
      ...(old ?? {}),
      band: r.band,
      channel: r.channel,
      width: r.width,
      power: r.power,
      ...(r.accessThreshold !== undefined ? { accessThreshold: r.accessThreshold } : {}),
    });
  }
  next.sort((a, b) => String(a.band).localeCompare(String(b.band)));
  return { ...doc, radios: next };
}

/** The automatic plan step: plan, write the revisions, record before; completes at once if nothing changes. */
async function planStep(
  deps: Pick<Deps, 'gateway'>,
  tx: DbOrTx,
  run: RunRow,
  now: Date,
  pushed: string[],
): Promise<void> {
  const settings = await settingsOf(tx, run.projectId);
  const inRun = new Set(run.devices);
  const members = (await membersOf(tx, run.projectId, true)).filter(
    (m) => inRun.has(m.row.sn) && isOnline(m.row),
  );
  const input = planInput(members, settings.country);
  const plan = planRf(input, { seed: run.id, budgetMs: 1500 });
  const before = recordsOf(members);
  const planned = new Map(plan.radios.map((r) => [r.id, r]));
  // The score the plan expects: each radio's scan with the planned channels and powers.
  const devicesPlan: Record<string, PlannedDevice> = {};
  const revisions = [];
  for (const m of members) {
    const mine = reportedRadios(m.row)
      .map((r) => planned.get(idOf(m.row.sn, r.band)))
      .filter((r) => r !== undefined);
    if (!mine.some((r) => r.channelChanged || r.powerChanged)) continue;
    const radios = mine.map((r) => ({
      band: r.id.slice(r.id.indexOf('/') + 1),
      channel: r.channel,
      width: r.width,
      power: r.power,
    }));
    revisions.push({
      sn: m.row.sn,
      projectId: run.projectId,
      document: withRadios(documentOf(deps, m.row), radios) as DeviceConfigInput as Record<string, unknown>,
      author: { accountId: run.authorId ?? null, account: run.authorName || 'RF optimisation' },
      reason: `RF optimisation ${run.id}`,
      now,
    });
    devicesPlan[m.row.sn] = { revision: 0, radios };
  }
  const written = await commitDeviceRevisions(tx, deps.gateway.commands.secrets, revisions);
  for (const w of written) devicesPlan[w.before.sn]!.revision = w.revision;
  pushed.push(...written.map((w) => w.before.sn));
  const scoreBefore = sum(before.map((r) => r.before.score));
  const predicted = predictedScore(input, plan.radios);
  const changed = written.length > 0;
  await tx
    .update(rfRuns)
    .set({
      plan: { devices: devicesPlan, planned: true } satisfies RunPlan,
      records: before,
      changed,
      scoreBefore,
      scorePlanned: changed ? predicted : scoreBefore,
      coChannelBefore: before.reduce((a, r) => a + r.before.coChannel, 0),
      progress: changed ? 40 : 100,
      ...(changed
        ? {}
        : {
            state: RfRunState.COMPLETED,
            finishedAt: now,
            records: before.map((r) => ({ ...r, after: r.before })),
            scoreAfter: scoreBefore,
            coChannelAfter: before.reduce((a, r) => a + r.before.coChannel, 0),
            message: 'Every channel and power stays: no AP would improve by 5 dB',
          }),
    })
    .where(eq(rfRuns.id, run.id));
  if (changed) await queueRunStep(tx, run.id, new Date(now.getTime() + WATCH_MS));
}

/** The planned score: every scan with the neighbours' planned channels and powers (path loss kept). */
function predictedScore(
  input: readonly PlanRadio[],
  plan: readonly { id: string; channel: number; width: number; power: number }[],
): number {
  const byId = new Map(plan.map((p) => [p.id, p]));
  const was = new Map(input.map((r) => [r.id, r]));
  let total = 0;
  for (const r of input) {
    const me = byId.get(r.id) ?? r;
    const neighbours = r.neighbours.map((n) => {
      const p = n.id ? byId.get(n.id) : undefined;
      const old = n.id ? was.get(n.id) : undefined;
      return p && old ? { channel: p.channel, width: p.width, rssi: n.rssi + (p.power - old.power) } : n;
    });
    total += radioScore({ channel: me.channel, width: me.width, neighbours });
  }
  return Math.round(total * 100) / 100;
}

/** The watch step: progress, then the records after, or the timeout. */
async function watchStep(tx: DbOrTx, run: RunRow, now: Date): Promise<void> {
  const plan = run.plan as RunPlan;
  const wanted = Object.entries(plan.devices ?? {});
  const members = await membersOf(tx, run.projectId);
  const bySn = new Map(members.map((m) => [m.row.sn, m]));
  let applied = 0;
  for (const [sn, p] of wanted) {
    const m = bySn.get(sn);
    const runs =
      m &&
      (m.row.reportedRevision >= p.revision ||
        (m.row.desiredRevision === p.revision && m.row.configStatus === DeviceConfigState.FAILED));
    if (runs) {
      applied++;
      p.appliedAt ??= now.getTime();
    }
  }
  if (applied === wanted.length) plan.allAppliedAt ??= now.getTime();
  const inRun = members.filter((m) => run.devices.includes(m.row.sn));
  // "After" is a report made once every AP runs the plan: each one's latest telemetry received
  // SCAN_SETTLE_MS after that was seen. A telemetry the device sent before it applied can be
  // written after its state (telemetry is batched, states are not); its scan still shows the old plan.
  const fresh =
    plan.allAppliedAt !== undefined &&
    inRun.every(
      (m) => !isOnline(m.row) || (m.row.telemetryAt?.getTime() ?? 0) > plan.allAppliedAt! + SCAN_SETTLE_MS,
    );
  const timedOut = now.getTime() >= run.deadlineAt.getTime();
  if (fresh || timedOut) {
    const after = new Map(
      inRun.flatMap((m) =>
        reportedRadios(m.row).map((r) => [idOf(m.row.sn, r.band), radioState(r)] as const),
      ),
    );
    const records = (run.records as RfRecord[]).map((r) => ({
      ...r,
      after: after.get(idOf(r.sn, r.band)) ?? null,
    }));
    const done = records.filter((r) => r.after !== null);
    await tx
      .update(rfRuns)
      .set({
        state: fresh ? RfRunState.COMPLETED : RfRunState.TIMED_OUT,
        progress: fresh ? 100 : run.progress,
        ...(fresh ? {} : { code: Codes.RADIO_TIMEOUT, message: errorMessage(Codes.RADIO_TIMEOUT) }),
        records,
        plan,
        scoreAfter: sum(done.map((r) => r.after!.score)),
        coChannelAfter: done.reduce((a, r) => a + r.after!.coChannel, 0),
        finishedAt: now,
      })
      .where(eq(rfRuns.id, run.id));
    return;
  }
  const share = wanted.length ? applied / wanted.length : 1;
  const progress = Math.max(
    run.progress,
    Math.min(95, Math.round(40 + 50 * share + (plan.allAppliedAt ? 5 : 0))),
  );
  await tx.update(rfRuns).set({ progress, plan }).where(eq(rfRuns.id, run.id));
  await queueRunStep(tx, run.id, new Date(now.getTime() + WATCH_MS));
}

/**
 * The first instant after `after` on one of `days` (0 Sunday … 6 Saturday) at `time` (HH:MM) on the
 * project's clock (see maintenance/schedule.ts nextRebootAt for the same rule).
 */
export function nextRunAt(days: readonly number[], time: string, timeZone: string, after: Date): Date {
  const [hh, mm] = time.split(':').map(Number);
  const today = zonedParts(after, timeZone);
  for (let d = 0; d <= 8; d++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + d));
    if (!days.includes(date.getUTCDay())) continue;
    const at = zonedTimeToUtc(timeZone, {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: hh!,
      minute: mm!,
    });
    if (at.getTime() > after.getTime()) return at;
  }
  throw new Error('no day in the schedule');
}

export const scheduleKey = (projectId: number, at: Date) => `${RF_SCHEDULE_JOB}:${projectId}:${at.getTime()}`;

export type StartRun = (
  tx: DbOrTx,
  projectId: number,
  kind: 'auto' | 'scheduled',
  author: { accountId: number | null; account: string },
  now: Date,
) => Promise<RunRow>;

export function registerRfJobs(
  runner: JobRunner,
  deps: Pick<Deps, 'gateway'> & { log: Pick<FastifyBaseLogger, 'info' | 'warn'> },
  startRun: StartRun,
): void {
  runner.register(RF_RUN_JOB, async ({ tx, now, job, afterCommit }) => {
    const { runId } = job.payload as { runId: number };
    const [run] = await tx.select().from(rfRuns).where(eq(rfRuns.id, runId)).for('update');
    if (!run || run.state !== RfRunState.RUNNING) return;
    const pushed: string[] = [];
    if (!(run.plan as RunPlan).planned && now.getTime() < run.deadlineAt.getTime()) {
      await planStep(deps, tx, run, now, pushed);
    } else {
      await watchStep(tx, run, now);
    }
    afterCommit(() => {
      for (const sn of pushed) deps.gateway.commands.converge(sn);
    });
  });

  runner.register(RF_SCHEDULE_JOB, async ({ tx, now, job }) => {
    const { projectId, at } = job.payload as { projectId: number; at: number };
    const [settings] = await tx
      .select()
      .from(rfSettings)
      .where(eq(rfSettings.projectId, projectId))
      .for('update');
    if (!settings?.scheduleEnabled || settings.nextRunAt?.getTime() !== at) return; // changed since
    const [project] = await tx
      .select({ timeZone: projects.timeZone })
      .from(projects)
      .where(eq(projects.id, projectId));
    if (!project) return;
    // A server that was down a while runs once, then goes on with the next future day.
    const next = nextRunAt(settings.scheduleDays, settings.scheduleTime, project.timeZone, now);
    await tx.update(rfSettings).set({ nextRunAt: next }).where(eq(rfSettings.projectId, projectId));
    await scheduleJob(tx, {
      kind: RF_SCHEDULE_JOB,
      key: scheduleKey(projectId, next),
      payload: { projectId, at: next.getTime() },
      runAt: next,
    });
    try {
      await tx.transaction((sp) =>
        startRun(sp, projectId, 'scheduled', { accountId: null, account: 'schedule' }, now),
      );
    } catch (error) {
      // Refused now (27, 5022, 5010, 5345): the log says why, and the next day tries again.
      const code = (error as { code?: number }).code ?? 2000;
      await tx.insert(rfRuns).values({
        projectId,
        kind: 'scheduled',
        state: RfRunState.SKIPPED,
        progress: 0,
        code,
        message: (error as Error).message,
        authorName: 'schedule',
        startedAt: now,
        deadlineAt: now,
        finishedAt: now,
      });
      deps.log.info({ projectId, code }, 'scheduled RF optimisation skipped');
    }
  });
}

/** Deadline of a run: SPEC.md §9, RF optimisation takes 2-10 minutes. */
export const runDeadline = (now: Date) => new Date(now.getTime() + LIMITS.RF_OPTIMISE_MAX_SECONDS * 1000);

/** The power a radio takes when a plan names none: the default, within the country's limit. */
export const defaultPower = (country: string, band: string, channel: number) =>
  Math.min(DEFAULT_TX_POWER, maxPowerFor(country, band, channel));
