import {
  AppError,
  allowedChannels,
  bandWidths,
  CableFreeMode,
  type ChannelWidth,
  Codes,
  type DeviceConfigInput,
  defaultWidth,
  deviceConfigSchema,
  type ErrorCode,
  errorMessage,
  ManagementMode,
  type ManualRfBody,
  maxPowerFor,
  NetMode,
  type RfRecord,
  type RfRunList,
  RfRunState,
  type RfRunView,
  type RfScheduleBody,
  type RfScheduleView,
  type RfView,
  type RoamingBody,
  type SetCountryBody,
  validateDeviceConfig,
  validateRadioSetting,
} from '@beacon/protocol';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { commitDeviceRevisions, type NewDeviceRevision } from '../config/repository.ts';
import type { DbOrTx } from '../db/client.ts';
import { deviceState, devices, projects, rfRuns, rfSettings } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { cancelJob, scheduleJob } from '../jobs/runner.ts';
import { loadProjectAccess } from '../projects/access.ts';
import { type WriteCaller, withProjectWrite } from '../projects/write.ts';
import {
  adaptationOf,
  blockedCode,
  documentOf,
  isOnline,
  type Member,
  membersOf,
  type RunRow,
  radioState,
  reportedRadios,
  runningRun,
  type SettingsRow,
  settingsOf,
} from './members.ts';
import {
  defaultPower,
  nextRunAt,
  queueRunStep,
  RF_SCHEDULE_JOB,
  type RunPlan,
  recordsOf,
  runDeadline,
  type StartRun,
  scheduleKey,
  withRadios,
} from './run.ts';

/**
 * RF optimisation of a project's APs (issue 11, docs/decisions/0048), on the write path
 * (withProjectWrite) and through the configuration domain (each change a device revision, pending
 * → applied or failed, re-sent by convergence): the Wi-Fi country, manual radio settings, the
 * roaming tuner, automatic runs (run.ts: the plan as a durable job) and their schedule.
 */

const secretsOf = (deps: Deps) => deps.gateway.commands.secrets;
const LOG_ENTRIES = 20;

function runView(row: RunRow, withRecords: true): RfRunView;
function runView(row: RunRow, withRecords: false): Omit<RfRunView, 'records'>;
function runView(row: RunRow, withRecords: boolean): RfRunView | Omit<RfRunView, 'records'> {
  const base = {
    id: row.id,
    kind: row.kind as RfRunView['kind'],
    state: row.state as RfRunView['state'],
    progress: row.progress,
    code: row.code,
    message: row.message,
    changed: row.changed,
    author: row.authorName,
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    devices: row.devices.length,
    scoreBefore: row.scoreBefore,
    scoreAfter: row.scoreAfter,
    scorePlanned: row.scorePlanned,
    coChannelBefore: row.coChannelBefore,
    coChannelAfter: row.coChannelAfter,
  };
  return withRecords ? { ...base, records: row.records as RfRecord[] } : base;
}

async function scheduleView(db: DbOrTx, settings: SettingsRow): Promise<RfScheduleView> {
  const [project] = await db
    .select({ timeZone: projects.timeZone })
    .from(projects)
    .where(eq(projects.id, settings.projectId));
  return {
    enabled: settings.scheduleEnabled,
    days: [...settings.scheduleDays].sort((a, b) => a - b),
    time: settings.scheduleTime,
    timeZone: project?.timeZone ?? 'UTC',
    nextRunAt: settings.scheduleEnabled ? (settings.nextRunAt?.toISOString() ?? null) : null,
  };
}

/** The APs covered by the latest completed automatic run (SPEC.md §4: optimised). */
async function optimisedSet(db: DbOrTx, projectId: number): Promise<Set<string>> {
  const [row] = await db
    .select({ devices: rfRuns.devices })
    .from(rfRuns)
    .where(
      and(
        eq(rfRuns.projectId, projectId),
        eq(rfRuns.state, RfRunState.COMPLETED),
        inArray(rfRuns.kind, ['auto', 'scheduled']),
      ),
    )
    .orderBy(desc(rfRuns.startedAt))
    .limit(1);
  return new Set(row?.devices ?? []);
}

async function view(deps: Deps, db: DbOrTx, projectId: number): Promise<RfView> {
  const [settings, members, running, optimised] = await Promise.all([
    settingsOf(db, projectId),
    membersOf(db, projectId),
    runningRun(db, projectId),
    optimisedSet(db, projectId),
  ]);
  const inRun = new Set(running?.devices ?? []);
  return {
    country: settings.country,
    adaptation: adaptationOf(settings, members),
    online: members.filter((m) => isOnline(m.row)).length,
    running: running ? runView(running, false) : null,
    schedule: await scheduleView(db, settings),
    devices: members.map((m) => {
      const doc = documentOf(deps, m.row);
      const set = (Array.isArray(doc.radios) ? doc.radios : []) as Record<string, number | undefined>[];
      const reported = reportedRadios(m.row);
      const roaming = (doc.roaming ?? {}) as { bandSteering?: boolean; loadBalanceClients?: number };
      return {
        sn: m.row.sn,
        name: m.name,
        model: m.row.model,
        status: m.row.status,
        blocked: blockedCode(m.row, inRun),
        optimised: optimised.has(m.row.sn) ? 1 : 0,
        configStatus: m.row.configStatus,
        configCode: m.row.configCode,
        revision: m.row.desiredRevision,
        reportedRevision: m.row.reportedRevision,
        adapting: m.row.operation === 'rf-adapt' ? (m.row.progress ?? 0) : null,
        bandSteering: roaming.bandSteering ?? false,
        loadBalanceClients: roaming.loadBalanceClients ?? 0,
        radios: m.info.bands.map((band) => {
          const s = set.find((r) => (r as { band?: string }).band === band);
          const r = reported.find((x) => x.band === band);
          return {
            band,
            channel: s?.channel ?? null,
            width: s?.width ?? null,
            power: s?.power ?? null,
            accessThreshold: s?.accessThreshold ?? null,
            reported: r ? { ...radioState(r), utilisation: r.utilisation, clients: r.clients } : null,
          };
        }),
      };
    }),
  };
}

export async function getRf(deps: Deps, caller: WriteCaller, projectId: number): Promise<RfView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  return view(deps, db, projectId);
}

function fail(code: ErrorCode, message?: string, fields?: Record<string, string>): never {
  throw new AppError(code, message ?? errorMessage(code), fields);
}

/** Refuses when an AP cannot be configured now (36, 76, 71, 27, 5345). */
function refuseBlocked(m: Member, inRun: ReadonlySet<string>): void {
  const code = blockedCode(m.row, inRun);
  if (code !== null) fail(code, `${m.name}: ${errorMessage(code)}`);
}

/** Checks the document a change gives an AP as the device will (its model's rules, the country's). */
function checkDocument(m: Member, doc: Record<string, unknown>): void {
  const parsed = deviceConfigSchema.safeParse(doc);
  if (!parsed.success) fail(Codes.FORM_DATA, `The settings do not fit ${m.name}`);
  const failure = validateDeviceConfig(parsed.data, m.info);
  if (failure) {
    fail(failure.code as ErrorCode, `${m.name}: ${failure.message}`, {
      [failure.path ?? '_']: failure.message,
    });
  }
}

/** The chosen APs of the project, in the order given; 5033 for one not there, 2 for a non-AP. */
async function chosen(tx: DbOrTx, projectId: number, sns: readonly string[]): Promise<Member[]> {
  const members = await membersOf(tx, projectId, true);
  const bySn = new Map(members.map((m) => [m.row.sn, m]));
  return sns.map((sn) => {
    const m = bySn.get(sn);
    if (!m)
      fail(Codes.NOT_FOUND, `${sn} is not an AP of this project`, {
        sns: `${sn} is not an AP of this project`,
      });
    return m;
  });
}

/**
 * A radio section adjusted to a country: a channel it does not allow becomes automatic (0), a width
 * the band does not have its default, a power above the limit the limit.
 */
function fitCountry(radio: Record<string, unknown>, country: string): Record<string, unknown> {
  const band = String(radio.band);
  const width = bandWidths(band).includes(radio.width as ChannelWidth)
    ? (radio.width as number)
    : defaultWidth(band);
  const channel =
    typeof radio.channel === 'number' && allowedChannels(country, band, width).includes(radio.channel)
      ? radio.channel
      : 0;
  const power = Math.max(8, Math.min(Number(radio.power) || 20, maxPowerFor(country, band, channel)));
  return { ...radio, width, channel, power };
}

export async function setCountry(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  body: SetCountryBody,
): Promise<RfView> {
  const pushed: string[] = [];
  await withProjectWrite(
    deps,
    caller,
    projectId,
    async (write) => {
      const settings = await settingsOf(write.tx, projectId, true);
      if (await runningRun(write.tx, projectId)) fail(Codes.RADIO_RUNNING);
      const members = await membersOf(write.tx, projectId, true);
      if (adaptationOf(settings, members)) fail(Codes.RF_ADAPTING);
      if (settings.country === body.country) return;
      const revisions: NewDeviceRevision[] = [];
      for (const m of members) {
        if (m.row.managementMode === ManagementMode.LOCAL) continue;
        const doc = documentOf(deps, m.row);
        const radios = (Array.isArray(doc.radios) ? doc.radios : []) as Record<string, unknown>[];
        const next = {
          ...doc,
          country: body.country,
          radios: radios.map((r) => fitCountry(r, body.country)),
        };
        if (!radios.length) delete (next as Record<string, unknown>).radios;
        checkDocument(m, next);
        revisions.push({
          sn: m.row.sn,
          projectId,
          document: next as DeviceConfigInput as Record<string, unknown>,
          author: caller,
          reason: `Country or region ${body.country}`,
          now: write.now,
        });
      }
      const written = await commitDeviceRevisions(write.tx, secretsOf(deps), revisions);
      const adaptRevisions = Object.fromEntries(written.map((w) => [w.before.sn, w.revision]));
      const values = {
        projectId,
        country: body.country,
        countryChangedAt: write.now,
        adaptRevisions,
        updatedAt: write.now,
      };
      await write.tx
        .insert(rfSettings)
        .values(values)
        .onConflictDoUpdate({ target: rfSettings.projectId, set: values });
      pushed.push(...written.map((w) => w.before.sn));
      write.audit({
        action: 'rf-country',
        entity: 'rf',
        entityId: projectId,
        before: { country: settings.country },
        after: {
          country: body.country,
          devices: written.map((w) => ({ sn: w.before.sn, revision: w.revision })),
        },
      });
    },
    { lock: 'update' },
  );
  for (const sn of pushed) deps.gateway.commands.converge(sn);
  return view(deps, deps.database.db, projectId);
}

export async function manualRf(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  body: ManualRfBody,
): Promise<RfRunView> {
  const pushed: string[] = [];
  const run = await withProjectWrite(
    deps,
    caller,
    projectId,
    async (write) => {
      const settings = await settingsOf(write.tx, projectId);
      // The country's rules first (5340-5342), for every AP alike.
      for (const [i, r] of body.radios.entries()) {
        const f = validateRadioSetting(settings.country, r);
        if (f) {
          const field = f.code === Codes.RF_POWER ? 'power' : f.code === Codes.RF_WIDTH ? 'width' : 'channel';
          fail(f.code, f.message, { [`radios.${i}.${field}`]: f.message });
        }
      }
      const running = await runningRun(write.tx, projectId);
      const targets = await chosen(write.tx, projectId, body.sns);
      const members = await membersOf(write.tx, projectId);
      if (adaptationOf(settings, members)) fail(Codes.RF_ADAPTING);
      const inRun = new Set(running?.devices ?? []);
      const revisions: NewDeviceRevision[] = [];
      const plan: RunPlan = { devices: {}, planned: true };
      for (const m of targets) {
        refuseBlocked(m, inRun);
        for (const [i, r] of body.radios.entries()) {
          if (!m.info.bands.includes(r.band)) {
            fail(Codes.MODEL, `${m.name} (${m.row.model}) has no ${r.band} radio`, {
              [`radios.${i}.band`]: 'No such radio',
            });
          }
        }
        const doc = withRadios({ ...documentOf(deps, m.row), country: settings.country }, body.radios);
        checkDocument(m, doc);
        revisions.push({
          sn: m.row.sn,
          projectId,
          document: doc,
          author: caller,
          reason: 'Manual RF settings',
          now: write.now,
        });
        plan.devices[m.row.sn] = {
          revision: 0,
          radios: body.radios.map(({ band, channel, width, power }) => ({ band, channel, width, power })),
        };
      }
      // A second run while one is going is refused (27), here and by the one-running index.
      if (running) fail(Codes.RADIO_RUNNING);
      const written = await commitDeviceRevisions(write.tx, secretsOf(deps), revisions);
      for (const w of written) plan.devices[w.before.sn]!.revision = w.revision;
      pushed.push(...written.map((w) => w.before.sn));
      const records = recordsOf(targets).filter((r) => body.radios.some((x) => x.band === r.band));
      const [row] = await write.tx
        .insert(rfRuns)
        .values({
          projectId,
          kind: 'manual',
          state: RfRunState.RUNNING,
          progress: 40,
          changed: true,
          devices: body.sns,
          plan,
          records,
          scoreBefore: Math.round(records.reduce((a, r) => a + r.before.score, 0) * 100) / 100,
          coChannelBefore: records.reduce((a, r) => a + r.before.coChannel, 0),
          authorId: caller.accountId,
          authorName: caller.account,
          startedAt: write.now,
          deadlineAt: runDeadline(write.now),
        })
        .returning();
      await queueRunStep(write.tx, row!.id, write.now);
      write.audit({
        action: 'rf-manual',
        entity: 'rf',
        entityId: projectId,
        before: null,
        after: {
          run: row!.id,
          radios: body.radios,
          devices: written.map((w) => ({ sn: w.before.sn, revision: w.revision })),
        },
      });
      return row!;
    },
    { lock: 'update' },
  );
  for (const sn of pushed) deps.gateway.commands.converge(sn);
  return runView(run, true);
}

export async function setRoaming(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  body: RoamingBody,
): Promise<RfView> {
  const pushed: string[] = [];
  await withProjectWrite(
    deps,
    caller,
    projectId,
    async (write) => {
      const settings = await settingsOf(write.tx, projectId);
      const running = await runningRun(write.tx, projectId);
      const inRun = new Set(running?.devices ?? []);
      const targets = await chosen(
        write.tx,
        projectId,
        body.devices.map((d) => d.sn),
      );
      const revisions: NewDeviceRevision[] = [];
      for (const [i, m] of targets.entries()) {
        refuseBlocked(m, inRun);
        const item = body.devices[i]!;
        const doc = documentOf(deps, m.row);
        const radios = (Array.isArray(doc.radios) ? doc.radios : []) as Record<string, unknown>[];
        const next = m.info.bands.map((band) => {
          const old = radios.find((r) => r.band === band) ?? {
            band,
            channel: 0,
            width: defaultWidth(band),
            power: defaultPower(settings.country, band, 0),
          };
          const { accessThreshold: _old, ...rest } = old;
          return item.accessThreshold === undefined
            ? rest
            : { ...rest, accessThreshold: item.accessThreshold };
        });
        const document = {
          ...doc,
          country: settings.country,
          radios: next,
          roaming: { bandSteering: item.bandSteering, loadBalanceClients: item.loadBalanceClients },
        };
        checkDocument(m, document);
        revisions.push({
          sn: m.row.sn,
          projectId,
          document,
          author: caller,
          reason: 'Roaming tuner',
          now: write.now,
        });
      }
      const written = await commitDeviceRevisions(write.tx, secretsOf(deps), revisions);
      pushed.push(...written.map((w) => w.before.sn));
      write.audit({
        action: 'rf-roaming',
        entity: 'rf',
        entityId: projectId,
        before: null,
        after: {
          devices: body.devices,
          revisions: written.map((w) => ({ sn: w.before.sn, revision: w.revision })),
        },
      });
    },
    { lock: 'update' },
  );
  for (const sn of pushed) deps.gateway.commands.converge(sn);
  return view(deps, deps.database.db, projectId);
}

/**
 * Starts an automatic run in the caller's transaction (an optimisation or a scheduled one): mesh
 * projects need their primary node online (5010); a run going is refused (27), so are fewer than 2
 * online APs (5022) and APs still re-adapting to a country change (5345). The plan is the job's.
 */
export const startRun: StartRun = async (tx, projectId, kind, author, now) => {
  const [project] = await tx
    .select({ netMode: projects.netMode })
    .from(projects)
    .where(eq(projects.id, projectId))
    .for('update');
  if (!project) fail(Codes.PROJECT_ID);
  if (project.netMode === NetMode.MESH) {
    const [primary] = await tx
      .select({ sn: devices.sn })
      .from(devices)
      .innerJoin(deviceState, eq(deviceState.sn, devices.sn))
      .where(
        and(
          eq(devices.projectId, projectId),
          eq(deviceState.meshRole, CableFreeMode.PRIMARY),
          sql`${deviceState.status} not in (0, 9)`,
        ),
      )
      .limit(1);
    if (!primary) fail(Codes.AI_NEEDS_PRIMARY);
  }
  if (await runningRun(tx, projectId)) fail(Codes.RADIO_RUNNING);
  const settings = await settingsOf(tx, projectId);
  const members = await membersOf(tx, projectId);
  const online = members.filter((m) => isOnline(m.row) && m.row.managementMode !== ManagementMode.LOCAL);
  if (online.length < 2) fail(Codes.FEWER_THAN_TWO_ONLINE);
  if (adaptationOf(settings, members)) fail(Codes.RF_ADAPTING);
  const [row] = await tx
    .insert(rfRuns)
    .values({
      projectId,
      kind,
      state: RfRunState.RUNNING,
      progress: 5,
      devices: online.map((m) => m.row.sn),
      plan: {},
      authorId: author.accountId,
      authorName: author.account,
      startedAt: now,
      deadlineAt: runDeadline(now),
    })
    .returning();
  await queueRunStep(tx, row!.id, now);
  return row!;
};

export async function optimise(deps: Deps, caller: WriteCaller, projectId: number): Promise<RfRunView> {
  const row = await withProjectWrite(
    deps,
    caller,
    projectId,
    async (write) => {
      const run = await startRun(write.tx, projectId, 'auto', caller, write.now);
      write.audit({
        action: 'rf-optimise',
        entity: 'rf',
        entityId: projectId,
        before: null,
        after: { run: run.id },
      });
      return run;
    },
    { lock: 'update' },
  );
  return runView(row, true);
}

export async function listRuns(deps: Deps, caller: WriteCaller, projectId: number): Promise<RfRunList> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const rows = await db
    .select()
    .from(rfRuns)
    .where(eq(rfRuns.projectId, projectId))
    .orderBy(desc(rfRuns.startedAt), desc(rfRuns.id))
    .limit(LOG_ENTRIES);
  return { items: rows.map((r) => runView(r, false)) };
}

export async function getRun(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  runId: number,
): Promise<RfRunView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const [row] = await db
    .select()
    .from(rfRuns)
    .where(and(eq(rfRuns.projectId, projectId), eq(rfRuns.id, runId)));
  if (!row) fail(Codes.NOT_FOUND, 'There is no such RF run');
  return runView(row, true);
}

export async function saveSchedule(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  body: RfScheduleBody,
): Promise<RfScheduleView> {
  const saved = await withProjectWrite(
    deps,
    caller,
    projectId,
    async (write) => {
      const before = await settingsOf(write.tx, projectId, true);
      if (before.nextRunAt) await cancelJob(write.tx, scheduleKey(projectId, before.nextRunAt));
      const days = [...new Set(body.days)].sort((a, b) => a - b);
      const next = body.enabled ? nextRunAt(days, body.time, write.access.project.timeZone, write.now) : null;
      const values = {
        projectId,
        scheduleEnabled: body.enabled,
        scheduleDays: days,
        scheduleTime: body.time || before.scheduleTime,
        nextRunAt: next,
        updatedAt: write.now,
      };
      const [after] = await write.tx
        .insert(rfSettings)
        .values({ ...values, country: before.country })
        .onConflictDoUpdate({ target: rfSettings.projectId, set: values })
        .returning();
      if (next) {
        await scheduleJob(write.tx, {
          kind: RF_SCHEDULE_JOB,
          key: scheduleKey(projectId, next),
          payload: { projectId, at: next.getTime() },
          runAt: next,
        });
      }
      write.audit({
        action: 'rf-schedule',
        entity: 'rf',
        entityId: projectId,
        before: { enabled: before.scheduleEnabled, days: before.scheduleDays, time: before.scheduleTime },
        after: { enabled: body.enabled, days, time: values.scheduleTime },
      });
      return after!;
    },
    { lock: 'update' },
  );
  return scheduleView(deps.database.db, saved);
}

/**
 * SPEC.md §4: configuring an optimising device is blocked. Other configuration screens call this in
 * their write's transaction: 27 when the device is in the project's running RF run.
 */
export async function refuseIfOptimising(db: DbOrTx, projectId: number, sn: string): Promise<void> {
  await refuseIfAnyOptimising(db, projectId, [sn]);
}

/** The same for a project-wide save (Wi-Fi policies): refused if it would change an AP mid-run. */
export async function refuseIfAnyOptimising(db: DbOrTx, projectId: number, sns: string[]): Promise<void> {
  if (sns.length === 0) return;
  const running = await runningRun(db, projectId);
  if (running && sns.some((sn) => running.devices.includes(sn))) fail(Codes.RADIO_RUNNING);
}
