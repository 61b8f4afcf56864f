import {
  AppError,
  Capability,
  Codes,
  type ConfigDiffView,
  type ConfigRevisionList,
  canonicalJson,
  configHash,
  DeviceStatus,
  deviceBandsFor,
  deviceConfigSchema,
  EMPTY_WIFI,
  type ErrorCode,
  hasCapability,
  isOfflineStatus,
  ManagementMode,
  type ModelInfo,
  modelInfo,
  NetMode,
  normaliseWifiPolicy,
  parseOrThrow,
  REDACTED,
  type RollbackWifiBody,
  redactSecrets,
  type SaveWifiBody,
  targetsOf,
  validateDeviceConfig,
  validateWifiDocument,
  WIFI_DEVICE_TYPES,
  type WifiCheck,
  WifiDeviceNote,
  type WifiDeviceView,
  WifiDocument,
  type WifiDocumentInput,
  type WifiPolicy,
  type WifiPolicyBody,
  type WifiProgress,
  type WifiRules,
  WifiSyncState,
  type WifiView,
} from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import {
  diffProjectRevisions,
  latestProjectRevision,
  listProjectRevisions,
  rollbackTarget,
} from '../config/project-revisions.ts';
import { commitDeviceRevisions, type NewDeviceRevision } from '../config/repository.ts';
import type { DbOrTx } from '../db/client.ts';
import { devices, projects, wifiRevisions } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { type DeviceRow, selectDevices } from '../devices/row.ts';
import { loadProjectAccess } from '../projects/access.ts';
import { type ProjectWriteOptions, type WriteCaller, withProjectWrite } from '../projects/write.ts';
import { refuseIfAnyOptimising } from '../rf/service.ts';

/**
 * The project's Wi-Fi policies (issue 11, docs/decisions/0047), on the configuration domain like
 * the network (decision 0038): one document of policies saved as revisions of the project
 * (wifi_revisions), checked against the revision it was based on (5120), validated with every rule
 * of SPEC.md §5, §8 and §9 (protocol validateWifiDocument) and compiled, in the same transaction,
 * into the `wifi` section (and `timeZone`, which the timer shutdown runs in) of every Wi-Fi device
 * of the project whose document it changes (config/repository.ts commitDeviceRevisions: each
 * device's own revision, pending, due for a push). After the commit the devices are pushed; the
 * convergence job and the devices' hellos bring the offline and busy ones along. A device in local
 * management mode is left out (76) and counted as not configurable.
 */

type RevisionRow = typeof wifiRevisions.$inferSelect;
const secretsOf = (deps: Pick<Deps, 'gateway'>) => deps.gateway.commands.secrets;

interface Member {
  row: DeviceRow;
  info: ModelInfo;
}

/** The devices a Wi-Fi policy may reach: APs, mesh nodes and wireless routers (not a CPE bridge). */
export const isWifiTarget = (info: ModelInfo | undefined): info is ModelInfo =>
  !!info && hasCapability(info, Capability.WIFI) && WIFI_DEVICE_TYPES.includes(info.type);

async function membersOf(db: DbOrTx, projectId: number, lock = false): Promise<Member[]> {
  const q = selectDevices(db).where(eq(devices.projectId, projectId)).orderBy(devices.sn);
  const rows = lock ? await q.for('update', { of: devices }) : await q;
  const out: Member[] = [];
  for (const row of rows) {
    const info = modelInfo(row.model);
    if (isWifiTarget(info)) out.push({ row, info });
  }
  return out;
}

async function projectOf(db: DbOrTx, projectId: number) {
  const [row] = await db
    .select({ netMode: projects.netMode, timeZone: projects.timeZone })
    .from(projects)
    .where(eq(projects.id, projectId));
  if (!row) throw new AppError(Codes.PROJECT_ID);
  return row;
}

function rulesOf(netMode: number, members: readonly Member[], previousCount: number): WifiRules {
  return {
    mesh: netMode === NetMode.MESH,
    devices: members.map((m) => ({
      sn: m.row.sn,
      bands: m.info.bands,
      maxClientsPerBand: m.info.maxClientsPerBand,
    })),
    previousCount,
  };
}

/** The networks a device runs: every policy that targets it, on the bands it has. */
export function wifiSectionOf(doc: WifiDocument, member: Pick<Member, 'row' | 'info'>) {
  const out: Record<string, unknown>[] = [];
  for (const p of doc.policies) {
    if (!targetsOf(p, [member.row]).length) continue;
    const bands = deviceBandsFor(p.bands, member.info.bands);
    if (bands.length === 0) continue;
    out.push({
      policy: p.id,
      name: p.name,
      ssid: p.ssid,
      encryption: p.encryption,
      cipher: p.cipher,
      password: p.password,
      keyUpdateInterval: p.keyUpdateInterval,
      vlan: p.vlan ?? null,
      maxClients: p.maxClients,
      hidden: p.hidden,
      bands,
      guest: p.guest,
      guestRateKbps: p.guestRateKbps,
      clientIsolation: p.clientIsolation,
      ...(p.radius ? { radius: { ...p.radius } } : {}),
      schedule: p.schedule.map((s) => ({ start: s.start, end: s.end })),
      enabled: p.enabled,
      signalExtension: p.signalExtension,
    });
  }
  return out;
}

/** The device's document with its Wi-Fi replaced by the policies' (its other sections kept). */
export function compile(
  doc: WifiDocument,
  member: Member,
  current: Record<string, unknown>,
  timeZone: string,
): Record<string, unknown> {
  return { ...current, wifi: wifiSectionOf(doc, member), timeZone };
}

function currentDocument(deps: Pick<Deps, 'gateway'>, row: DeviceRow): Record<string, unknown> {
  return row.desiredConfig
    ? (secretsOf(deps).openDocument(row.desiredConfig) as Record<string, unknown>)
    : {};
}

function noteOf(row: DeviceRow): WifiDeviceView['note'] {
  if (row.managementMode === ManagementMode.LOCAL) return WifiDeviceNote.LOCAL;
  if (
    row.status === DeviceStatus.UPGRADING ||
    row.status === DeviceStatus.UPLOADING ||
    row.status === DeviceStatus.UPLOAD_SUCCESS
  ) {
    return WifiDeviceNote.UPGRADING;
  }
  if (isOfflineStatus(row.status)) return WifiDeviceNote.OFFLINE;
  return null;
}

function runningSsidsOf(row: DeviceRow): string[] {
  const t = row.telemetry as { ssids?: { ssid: string }[] } | null;
  return Array.isArray(t?.ssids) ? [...new Set(t.ssids.map((s) => s.ssid))] : [];
}

/**
 * SPEC.md §3 Wi-Fi sync state: configured when the device's latest revision carries the Wi-Fi of
 * the latest policies and the device reports it runs that revision.
 */
function deviceView(deps: Pick<Deps, 'gateway'>, m: Member, doc: WifiDocument | null, timeZone: string) {
  const compiled = doc ? wifiSectionOf(doc, m) : null;
  const desired = doc ? currentDocument(deps, m.row) : null;
  const configured =
    compiled !== null &&
    desired !== null &&
    m.row.configStatus === 'applied' &&
    m.row.reportedRevision === m.row.desiredRevision &&
    desired.timeZone === timeZone &&
    canonicalJson(deviceConfigSchema.parse({ wifi: desired.wifi ?? [] }).wifi) ===
      canonicalJson(deviceConfigSchema.parse({ wifi: compiled }).wifi);
  const view: WifiDeviceView = {
    sn: m.row.sn,
    name: m.row.name,
    model: m.row.model,
    type: m.row.type,
    bands: [...m.info.bands],
    maxClientsPerBand: m.info.maxClientsPerBand,
    policies: (compiled ?? []).map((w) => w.policy as number),
    sync: configured ? WifiSyncState.CONFIGURED : WifiSyncState.NOT_CONFIGURED,
    note: noteOf(m.row),
    revision: m.row.desiredRevision,
    reportedRevision: m.row.reportedRevision,
    status: m.row.configStatus,
    code: m.row.configCode,
    runningSsids: runningSsidsOf(m.row),
  };
  return view;
}

function progressOf(views: readonly WifiDeviceView[]): WifiProgress {
  const p = { pending: 0, applied: 0, failed: 0, skipped: 0 };
  for (const v of views) {
    if (v.note === WifiDeviceNote.LOCAL) p.skipped++;
    else p[v.status]++;
  }
  return p;
}

const latest = (db: DbOrTx, projectId: number) => latestProjectRevision(db, wifiRevisions, projectId);

function openDoc(deps: Pick<Deps, 'gateway'>, row: RevisionRow | undefined): WifiDocument {
  if (!row) return EMPTY_WIFI;
  return WifiDocument.parse(secretsOf(deps).openDocument(row.document));
}

async function view(deps: Deps, db: DbOrTx, projectId: number): Promise<WifiView> {
  const [row, members, project] = await Promise.all([
    latest(db, projectId),
    membersOf(db, projectId),
    projectOf(db, projectId),
  ]);
  const doc = row ? openDoc(deps, row) : null;
  const views = members.map((m) => deviceView(deps, m, doc, project.timeZone));
  return {
    revision: row?.revision ?? 0,
    hash: row?.hash ?? null,
    document: redactSecrets(doc ?? EMPTY_WIFI),
    netMode: project.netMode,
    timeZone: project.timeZone,
    devices: views,
    progress: progressOf(views),
  };
}

export async function getWifi(deps: Deps, caller: WriteCaller, projectId: number): Promise<WifiView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  return view(deps, db, projectId);
}

/**
 * A policy as the client sent it back: a secret it received as "********" stands for the value the
 * same policy (by id, not by place: a delete moves the others up) has stored.
 */
function keepPolicySecrets(incoming: WifiPolicy, stored: readonly WifiPolicy[]): WifiPolicy {
  const before = incoming.id === undefined ? undefined : stored.find((s) => s.id === incoming.id);
  const out = { ...incoming };
  if (out.password === REDACTED) out.password = before?.password ?? '';
  if (out.radius?.password === REDACTED) {
    out.radius = { ...out.radius, password: before?.radius?.password ?? '' };
  }
  return out;
}

/** Ids for the policies that have none (new ones), after the highest in use. */
function withIds(policies: readonly WifiPolicy[], stored: readonly WifiPolicy[]): WifiPolicy[] {
  let next = Math.max(0, ...stored.map((p) => p.id ?? 0), ...policies.map((p) => p.id ?? 0));
  return policies.map((p) => (p.id === undefined ? { ...p, id: ++next } : p));
}

type FieldOf = (path: string) => string;

function refuse(check: NonNullable<WifiCheck>, field: FieldOf, prefix = ''): never {
  throw new AppError(check.code as ErrorCode, `${prefix}${check.message}`, {
    [field(check.path)]: check.message,
  });
}

interface Compiled {
  member: Member;
  compiled: Record<string, unknown>;
  changed: boolean;
}

/**
 * Validates the document for the project's devices (throws the first failure with its code) and
 * answers each configurable member's compiled document; every compiled document must also pass
 * what the device itself checks (its model's rules), so the server refuses what a device would.
 */
function check(
  deps: Pick<Deps, 'gateway'>,
  doc: WifiDocument,
  members: readonly Member[],
  rules: WifiRules,
  timeZone: string,
  field: FieldOf,
): Compiled[] {
  const failure = validateWifiDocument(doc, rules);
  if (failure) refuse(failure, field);
  const out: Compiled[] = [];
  for (const m of members) {
    if (m.row.managementMode === ManagementMode.LOCAL) continue;
    const current = currentDocument(deps, m.row);
    const compiled = compile(doc, m, current, timeZone);
    const parsed = deviceConfigSchema.safeParse(compiled);
    if (!parsed.success) throw new AppError(Codes.FORM_DATA, `The policies do not fit ${m.row.sn}`);
    const f = validateDeviceConfig(parsed.data, m.info);
    if (f) {
      throw new AppError(f.code as ErrorCode, `${m.row.sn}: ${f.message}`, {
        [field('policies')]: f.message,
      });
    }
    const changed = canonicalJson(parsed.data) !== canonicalJson(deviceConfigSchema.parse(current));
    out.push({ member: m, compiled, changed });
  }
  return out;
}

interface Change {
  /** The new document from the current one (plain secrets) — what the client asked for. */
  document: (tx: DbOrTx, current: WifiDocument) => Promise<WifiDocumentInput>;
  expectedRevision: number;
  reason: string;
  action: string;
  /** The single policy routes: the index of their policy, checked first and reported as `policy.x`. */
  focus?: (next: WifiDocument) => number;
}

async function commit(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  change: Change,
  options: Pick<ProjectWriteOptions, 'check'> = {},
): Promise<WifiView> {
  const secrets = secretsOf(deps);
  const pushed: string[] = [];
  await withProjectWrite(
    deps,
    caller,
    projectId,
    async (write) => {
      const before = await latest(write.tx, projectId);
      const head = before?.revision ?? 0;
      if (change.expectedRevision !== head) {
        throw new AppError(Codes.CONFIG_STALE, undefined, {
          expectedRevision: `The latest revision is ${head}`,
        });
      }
      const current = openDoc(deps, before);
      const raw = parseOrThrow(WifiDocument, await change.document(write.tx, current));
      const policies = withIds(
        raw.policies.map((p) => normaliseWifiPolicy(keepPolicySecrets(p, current.policies))),
        current.policies,
      );
      const doc: WifiDocument = { policies };
      const focus = change.focus?.(doc);
      const field = focus === undefined ? (path: string) => `document.${path}` : policyField(focus);
      const members = await membersOf(write.tx, projectId, true);
      const project = write.access.project;
      const compiled = check(
        deps,
        doc,
        members,
        { ...rulesOf(project.netMode, members, current.policies.length), focus },
        project.timeZone,
        field,
      );
      // An AP inside a running RF optimisation keeps its radios until the run ends (27).
      await refuseIfAnyOptimising(
        write.tx,
        projectId,
        compiled.filter((c) => c.changed).map((c) => c.member.row.sn),
      );
      const hash = await configHash(doc);
      const next = head + 1;
      await write.tx.insert(wifiRevisions).values({
        projectId,
        revision: next,
        document: secrets.sealDocument(doc),
        hash,
        authorId: caller.accountId,
        authorName: caller.account,
        reason: change.reason,
        createdAt: write.now,
      });
      const reason = `Wi-Fi revision ${next}${change.reason ? `: ${change.reason}` : ''}`;
      const written = await commitDeviceRevisions(
        write.tx,
        secrets,
        compiled
          .filter((c) => c.changed)
          .map((c) => ({
            sn: c.member.row.sn,
            projectId,
            document: c.compiled,
            author: caller,
            reason,
            now: write.now,
          })),
      );
      const touched = written.map((w) => ({ sn: w.before.sn, revision: w.revision }));
      pushed.push(...touched.map((t) => t.sn));
      write.audit({
        action: change.action,
        entity: 'wifi-config',
        entityId: projectId,
        before: { revision: head, hash: before?.hash ?? null, policies: summary(current) },
        after: { revision: next, hash, reason: change.reason, policies: summary(doc), devices: touched },
      });
    },
    // Two saves of the Wi-Fi are serialised on the project row.
    { lock: 'update', ...options },
  );
  for (const sn of pushed) deps.gateway.commands.converge(sn);
  return view(deps, deps.database.db, projectId);
}

/** What the audit row shows of the policies: no secrets. */
const summary = (doc: WifiDocument) =>
  doc.policies.map((p) => ({ id: p.id, name: p.name, ssid: p.ssid, scope: p.scope }));

export function saveWifi(deps: Deps, caller: WriteCaller, projectId: number, body: SaveWifiBody) {
  return commit(deps, caller, projectId, {
    document: async () => body.document,
    expectedRevision: body.expectedRevision,
    reason: body.reason ?? '',
    action: 'wifi-save',
  });
}

/** A failure of the policy at `index` is the body's `policy.x`; another's (a count) the document's. */
const policyField =
  (index: number): FieldOf =>
  (path) => {
    const own = `policies.${index}`;
    if (path === own || path.startsWith(`${own}.`)) return `policy${path.slice(own.length)}`;
    return `document.${path}`;
  };

export function createWifiPolicy(deps: Deps, caller: WriteCaller, projectId: number, body: WifiPolicyBody) {
  return commit(deps, caller, projectId, {
    document: async (_tx, current) => ({
      policies: [...current.policies, { ...body.policy, id: undefined }],
    }),
    expectedRevision: body.expectedRevision,
    reason: body.reason ?? '',
    action: 'wifi-policy-create',
    focus: (next) => next.policies.length - 1,
  });
}

function indexOf(current: WifiDocument, policyId: number): number {
  const i = current.policies.findIndex((p) => p.id === policyId);
  if (i < 0)
    throw new AppError(Codes.NOT_FOUND, `There is no Wi-Fi policy ${policyId}`, { policyId: 'Not found' });
  return i;
}

export function updateWifiPolicy(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  policyId: number,
  body: WifiPolicyBody,
) {
  return commit(deps, caller, projectId, {
    document: async (_tx, current) => {
      const i = indexOf(current, policyId);
      const policies = [...current.policies];
      policies[i] = { ...(body.policy as WifiPolicy), id: policyId };
      return { policies };
    },
    expectedRevision: body.expectedRevision,
    reason: body.reason ?? '',
    action: 'wifi-policy-update',
    focus: (next) => next.policies.findIndex((p) => p.id === policyId),
  });
}

export function deleteWifiPolicy(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  policyId: number,
  expectedRevision: number,
) {
  return commit(deps, caller, projectId, {
    document: async (_tx, current) => {
      indexOf(current, policyId);
      return { policies: current.policies.filter((p) => p.id !== policyId) };
    },
    expectedRevision,
    reason: '',
    action: 'wifi-policy-delete',
  });
}

export function rollbackWifi(deps: Deps, caller: WriteCaller, projectId: number, body: RollbackWifiBody) {
  return commit(deps, caller, projectId, {
    document: async (tx) => {
      const target = await rollbackTarget(tx, wifiRevisions, projectId, body.revision);
      return openDoc(deps, target);
    },
    expectedRevision: body.expectedRevision,
    reason: body.reason || `Rollback to revision ${body.revision}`,
    action: 'wifi-rollback',
  });
}

export async function listWifiRevisions(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  page: { page: number; pageSize: number },
): Promise<ConfigRevisionList> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  return listProjectRevisions(db, wifiRevisions, projectId, page);
}

export async function diffWifi(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  from: number,
  to: number,
): Promise<ConfigDiffView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  return diffProjectRevisions(db, wifiRevisions, projectId, from, to, (row) => openDoc(deps, row));
}

/**
 * A Wi-Fi device that joins the project (added, imported or bound again) after the last Wi-Fi
 * save gets the policies like any other member, in the joining transaction (as the network does,
 * decision 0042): its document compiled and committed as its next revision, pending and due. A
 * document the device's model refuses queues nothing (the next save names the device and the rule).
 * Answers the SNs to push once the caller has committed.
 */
export async function compileWifiForJoined(
  tx: DbOrTx,
  deps: Pick<Deps, 'gateway'>,
  caller: Pick<WriteCaller, 'accountId' | 'account'>,
  projectId: number,
  sns: readonly string[],
  now: Date,
): Promise<string[]> {
  if (sns.length === 0) return [];
  const head = await latest(tx, projectId);
  if (!head) return [];
  const doc = openDoc(deps, head);
  const { timeZone } = await projectOf(tx, projectId);
  const wanted = new Set(sns);
  const queued: NewDeviceRevision[] = [];
  for (const m of await membersOf(tx, projectId)) {
    if (!wanted.has(m.row.sn) || m.row.managementMode === ManagementMode.LOCAL) continue;
    const current = currentDocument(deps, m.row);
    const compiled = compile(doc, m, current, timeZone);
    const parsed = deviceConfigSchema.safeParse(compiled);
    if (!parsed.success || validateDeviceConfig(parsed.data, m.info)) continue;
    queued.push({
      sn: m.row.sn,
      projectId,
      document: compiled,
      author: caller,
      reason: `Wi-Fi revision ${head.revision} (joined the project)`,
      now,
    });
  }
  await commitDeviceRevisions(tx, secretsOf(deps), queued);
  return queued.map((q) => q.sn);
}

/**
 * The project's time zone changed: every Wi-Fi device's timer shutdown runs on the new clock, so
 * each is compiled again (in the caller's transaction, which holds the project row). Answers the
 * SNs to push once it has committed.
 */
export async function recompileWifiForTimeZone(
  tx: DbOrTx,
  deps: Pick<Deps, 'gateway'>,
  caller: Pick<WriteCaller, 'accountId' | 'account'>,
  projectId: number,
  timeZone: string,
  now: Date,
): Promise<string[]> {
  const head = await latest(tx, projectId);
  if (!head) return [];
  const doc = openDoc(deps, head);
  const queued: NewDeviceRevision[] = [];
  for (const m of await membersOf(tx, projectId, true)) {
    if (m.row.managementMode === ManagementMode.LOCAL) continue;
    const current = currentDocument(deps, m.row);
    if (current.timeZone === timeZone) continue;
    const compiled = compile(doc, m, current, timeZone);
    const parsed = deviceConfigSchema.safeParse(compiled);
    if (!parsed.success || validateDeviceConfig(parsed.data, m.info)) continue;
    queued.push({
      sn: m.row.sn,
      projectId,
      document: compiled,
      author: caller,
      reason: `Wi-Fi revision ${head.revision} (time zone ${timeZone})`,
      now,
    });
  }
  await commitDeviceRevisions(tx, secretsOf(deps), queued);
  return queued.map((q) => q.sn);
}

/**
 * The demo projects' Wi-Fi (`npm start`): what a visitor of a read-only demo sees on the Wi-Fi screen
 * and what the demo APs run. Written once, by the demo owner (the system account), through the same
 * commit as a user's save (validation, revisions, compiled into each device); the demo's own write
 * refusal (5031) is for users, so it is skipped here. A project that already has Wi-Fi keeps it.
 */
export async function seedDemoWifi(
  deps: Deps,
  owner: WriteCaller,
  projectId: number,
  policies: WifiDocumentInput['policies'],
): Promise<boolean> {
  if (await latest(deps.database.db, projectId)) return false;
  await commit(
    deps,
    owner,
    projectId,
    {
      document: async () => ({ policies }),
      expectedRevision: 0,
      reason: 'Demo Wi-Fi',
      action: 'wifi-save',
    },
    { check: (access) => access },
  );
  return true;
}
