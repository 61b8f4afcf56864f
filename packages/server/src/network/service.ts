import {
  AppError,
  Capability,
  Codes,
  type ConfigDiffView,
  type ConfigRevisionList,
  canonicalJson,
  completeSwitchConfig,
  configHash,
  type DeviceConfigInput,
  deviceConfigSchema,
  EMPTY_NETWORK,
  type ErrorCode,
  EventLevel,
  errorMessage,
  hasCapability,
  isOfflineStatus,
  ManagementMode,
  type ModelInfo,
  modelInfo,
  NetworkDeviceNote,
  type NetworkDeviceView,
  NetworkDocument,
  type NetworkPreviewView,
  type NetworkProgress,
  type NetworkView,
  type PreviewNetworkBody,
  parseOrThrow,
  REDACTED,
  type RollbackNetworkBody,
  RouteTableEntry,
  type RouteTableView,
  redactSecrets,
  type SaveNetworkBody,
  type SwitchConfigInput,
  validateDeviceConfig,
  validateDhcpServerConfig,
  validateNetworkDocument,
} from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  diffProjectRevisions,
  latestProjectRevision,
  listProjectRevisions,
  rollbackTarget,
} from '../config/project-revisions.ts';
import { commitDeviceRevisions, keepSecrets, type NewDeviceRevision } from '../config/repository.ts';
import type { DbOrTx } from '../db/client.ts';
import { deviceEvents, devices, networkRevisions } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { type DeviceRow, selectDevices } from '../devices/row.ts';
import { loadProjectAccess } from '../projects/access.ts';
import { type WriteCaller, withProjectWrite } from '../projects/write.ts';
import type { Secrets } from '../security/secrets.ts';

/**
 * The project's network configuration (issue 10, docs/decisions/0038): one document saved as
 * revisions of the project (network_revisions), checked against the revision it was based on
 * (5120), validated with every SPEC.md §5 rule (validateNetworkDocument) and compiled, in the same
 * transaction, into a new configuration revision of each device whose document it changes
 * (config/repository.ts commitDeviceRevisions: each device's own revision, pending, due for a push,
 * written for all the devices in a few multi-row statements).
 * After the commit the devices are pushed; the convergence job and the devices' hellos bring the
 * offline and busy ones along (invariant 3). A device in local management mode is left out (76).
 */

type RevisionRow = typeof networkRevisions.$inferSelect;
const secretsOf = (deps: Deps) => deps.gateway.commands.secrets;

/**
 * keepSecrets (a `********` sent back keeps the stored secret) for the network document, with the
 * tunnel accounts and clients matched by name rather than by position: deleting the first account
 * must not give the second the first one's password.
 */
export function keepNetworkSecrets(incoming: unknown, stored: unknown): unknown {
  const kept = keepSecrets(incoming, stored) as Record<string, unknown> | null;
  if (!kept || typeof kept !== 'object' || !incoming || typeof incoming !== 'object') return kept;
  const inc = incoming as Record<string, unknown>;
  const old = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
  const byName = (list: unknown, oldList: unknown, name: string): unknown => {
    if (!Array.isArray(list)) return list;
    const olds = Array.isArray(oldList) ? (oldList as Record<string, unknown>[]) : [];
    return list.map((item) => {
      if (!item || typeof item !== 'object') return item;
      const it = item as Record<string, unknown>;
      if (it.password !== REDACTED) return it;
      const match = olds.find((o) => o && o[name] === it[name]);
      return { ...it, password: typeof match?.password === 'string' ? match.password : '' };
    });
  };
  for (const key of ['pppoeServer', 'pptpServer', 'l2tpServer']) {
    const server = inc[key] as Record<string, unknown> | null | undefined;
    if (server && typeof server === 'object' && kept[key]) {
      const oldServer = old[key] as Record<string, unknown> | null | undefined;
      kept[key] = {
        ...(kept[key] as Record<string, unknown>),
        accounts: byName(server.accounts, oldServer?.accounts, 'username'),
      };
    }
  }
  for (const key of ['pptpClients', 'l2tpClients']) {
    if (Array.isArray(inc[key])) kept[key] = byName(inc[key], old[key], 'name');
  }
  return kept;
}

/** What a device of each kind takes from the network document. */
export type Role = 'gateway' | 'switch' | 'ap';
const SECTIONS: Record<Role, string[]> = {
  gateway: [
    'wan',
    'lan',
    'vlans',
    'dhcpPools',
    'staticRoutes',
    'portMappings',
    'guest',
    'pppoeServer',
    'pptpServer',
    'l2tpServer',
    'pptpClients',
    'l2tpClients',
  ],
  // The switch's management VLAN is its `switch` section's (decision 0042), never a top-level copy.
  switch: ['vlans', 'switch.managementVlan'],
  ap: ['managementVlan'],
};

export function roleOf(info: ModelInfo | undefined): Role | null {
  if (!info) return null;
  if (hasCapability(info, Capability.WAN) || hasCapability(info, Capability.ROUTING)) return 'gateway';
  if (hasCapability(info, Capability.SWITCHING)) return 'switch';
  if (hasCapability(info, Capability.WIFI) && hasCapability(info, Capability.VLAN)) return 'ap';
  return null;
}

/** Drops undefined and empty-string optional values so the device document stays minimal. */
function clean<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined && v !== '')) as T;
}

/** The device's document with the network sections of its role replaced by the document's. */
export function compile(
  doc: NetworkDocument,
  role: Role,
  current: Record<string, unknown>,
  info?: ModelInfo,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...current };
  for (const key of SECTIONS[role]) delete out[key];
  // A switch's management VLAN lives once, in its `switch` section (decision 0042): a top-level
  // copy left by an earlier compile is dropped.
  if (role === 'switch') delete out.managementVlan;
  if (role === 'gateway') {
    if (doc.wan) out.wan = clean({ ...doc.wan });
    if (doc.lan) out.lan = { ...doc.lan };
    if (doc.vlans.length) out.vlans = doc.vlans.map((v) => clean({ ...v }));
    if (doc.dhcpPools.length) out.dhcpPools = doc.dhcpPools.map((p) => clean({ ...p }));
    if (doc.staticRoutes.length) out.staticRoutes = doc.staticRoutes.map((r) => clean({ ...r }));
    if (doc.portMappings.length) out.portMappings = doc.portMappings.map((m) => ({ ...m }));
    // The guest network, the PPPoE / PPTP / L2TP servers and the tunnel clients (decision 0046).
    if (doc.guest) out.guest = { ...doc.guest };
    for (const key of ['pppoeServer', 'pptpServer', 'l2tpServer'] as const) {
      const server = doc[key];
      if (server) out[key] = { ...server, accounts: server.accounts.map((a) => ({ ...a })) };
    }
    if (doc.pptpClients.length) out.pptpClients = doc.pptpClients.map((c) => ({ ...c }));
    if (doc.l2tpClients.length) out.l2tpClients = doc.l2tpClients.map((c) => ({ ...c }));
  } else if (role === 'switch') {
    // The VLANs exist on the switch; which of its ports carry them is the switch's own port settings.
    if (doc.vlans.length) {
      out.vlans = doc.vlans.map((v) => ({ id: v.id, name: v.name, dhcp: false, tagged: [], untagged: [] }));
    }
    if (doc.managementVlan !== undefined && info) {
      // The rest of the section (ports, QVLAN, IP) stays the switch's own; the whole section is
      // written complete, as the switch-port screen stores it (decision 0039).
      const section = completeSwitchConfig(info, current.switch as SwitchConfigInput | undefined);
      out.switch = { ...section, managementVlan: doc.managementVlan };
    }
  } else if (doc.managementVlan !== undefined) {
    out.managementVlan = doc.managementVlan;
  }
  return out;
}

interface Member {
  row: DeviceRow;
  info: ModelInfo;
  role: Role;
}

async function membersOf(db: DbOrTx, projectId: number, lock = false): Promise<Member[]> {
  const q = selectDevices(db).where(eq(devices.projectId, projectId)).orderBy(devices.sn);
  const rows = lock ? await q.for('update', { of: devices }) : await q;
  const out: Member[] = [];
  for (const row of rows) {
    const info = modelInfo(row.model);
    const role = roleOf(info);
    if (info && role) out.push({ row, info, role });
  }
  return out;
}

/** The VLAN range every member accepts and the gateway's ports. */
function rulesOf(members: readonly Member[]) {
  let min = 10;
  let max = 4094;
  const vlanMembers = members.filter((m) => m.role !== 'ap');
  if (vlanMembers.length) {
    min = Math.max(...vlanMembers.map((m) => m.info.minVlan));
    max = Math.min(...vlanMembers.map((m) => m.info.maxVlan));
  }
  const gateway = members.find((m) => m.role === 'gateway');
  return {
    vlanRange: { min, max },
    gatewayPorts: gateway ? gateway.info.ports.filter((p) => !p.wan).map((p) => p.id) : undefined,
  };
}

function noteOf(row: DeviceRow): NetworkDeviceView['note'] {
  if (row.managementMode === ManagementMode.LOCAL) return NetworkDeviceNote.LOCAL;
  if (row.status === 3 || row.status === 4 || row.status === 5) return NetworkDeviceNote.UPGRADING;
  if (isOfflineStatus(row.status)) return NetworkDeviceNote.OFFLINE;
  return null;
}

function deviceView(m: Member, changed: boolean): NetworkDeviceView {
  return {
    sn: m.row.sn,
    name: m.row.name,
    model: m.row.model,
    type: m.row.type,
    sections: SECTIONS[m.role],
    changed,
    note: noteOf(m.row),
    revision: m.row.desiredRevision,
    reportedRevision: m.row.reportedRevision,
    status: m.row.configStatus,
    code: m.row.configCode,
  };
}

function progressOf(views: readonly NetworkDeviceView[]): NetworkProgress {
  const p = { pending: 0, applied: 0, failed: 0, skipped: 0 };
  for (const v of views) {
    if (v.note === NetworkDeviceNote.LOCAL) p.skipped++;
    else p[v.status]++;
  }
  return p;
}

function currentDocument(deps: Deps, row: DeviceRow): Record<string, unknown> {
  return row.desiredConfig
    ? (secretsOf(deps).openDocument(row.desiredConfig) as Record<string, unknown>)
    : {};
}

/** A member's document before and after the network document, both parsed. */
interface Compiled {
  member: Member;
  current: Record<string, unknown>;
  compiled: Record<string, unknown>;
  /** Whether the parsed compiled document differs from the parsed current one. */
  changed: boolean;
}

/**
 * Validates a network document for the project's devices; throws the first failure with its code.
 * Answers each configurable member's compiled document (local-management members are left out), so
 * that a save compiles and opens every device's document once.
 */
function check(
  doc: NetworkDocument,
  members: readonly Member[],
  deps: Deps,
  previous?: NetworkDocument,
): Compiled[] {
  const failure = validateNetworkDocument(doc, { ...rulesOf(members), previous });
  if (failure) {
    throw new AppError(failure.code as ErrorCode, failure.message, {
      [`document.${failure.path}`]: failure.message,
    });
  }
  const out: Compiled[] = [];
  // Each compiled document must also pass what the device itself checks (its model's rules).
  for (const m of members) {
    if (m.row.managementMode === ManagementMode.LOCAL) continue;
    const current = currentOf(deps, m);
    const compiled = compile(doc, m.role, current, m.info);
    const parsed = deviceConfigSchema.safeParse(compiled);
    if (!parsed.success) throw new AppError(Codes.FORM_DATA, `The document does not fit ${m.row.sn}`);
    const f = validateDeviceConfig(parsed.data, m.info);
    if (f) {
      // The switch's management VLAN comes from the document's (decision 0042): the field to fix.
      const path = f.path?.startsWith('switch.managementVlan') ? 'managementVlan' : (f.path ?? '');
      throw new AppError(f.code as ErrorCode, `${m.row.sn}: ${f.message}`, {
        [`document.${path}`]: f.message,
      });
    }
    // A switch's or an AP's own DHCP server stays valid: never on a VLAN the document gives DHCP
    // relay, snooping or the gateway's server (5011), never on a VLAN it removes (decision 0043).
    if (parsed.data.dhcpServer) {
      const d = validateDhcpServerConfig(parsed.data.dhcpServer, {
        vlans: doc.vlans,
        managementVlan: parsed.data.switch?.managementVlan ?? parsed.data.managementVlan,
      });
      if (d) {
        throw new AppError(d.code as ErrorCode, `${m.row.sn}: ${d.message}`, { document: d.message });
      }
    }
    const changed = canonicalJson(parsed.data) !== canonicalJson(deviceConfigSchema.parse(current));
    out.push({ member: m, current, compiled, changed });
  }
  return out;
}

// currentDocument takes a member for brevity.
function currentOf(deps: Deps, m: Member) {
  return currentDocument(deps, m.row);
}

const latest = (db: DbOrTx, projectId: number) => latestProjectRevision(db, networkRevisions, projectId);

function openDoc(deps: Deps, row: RevisionRow | undefined): NetworkDocument {
  if (!row) return EMPTY_NETWORK;
  return NetworkDocument.parse(secretsOf(deps).openDocument(row.document));
}

/** The project's latest network document (empty before the first save). */
export async function latestNetworkDocument(
  deps: Pick<Deps, 'gateway'>,
  db: DbOrTx,
  projectId: number,
): Promise<NetworkDocument> {
  return openDoc(deps as Deps, await latest(db, projectId));
}

async function view(deps: Deps, db: DbOrTx, projectId: number): Promise<NetworkView> {
  const [row, members] = await Promise.all([latest(db, projectId), membersOf(db, projectId)]);
  const doc = openDoc(deps, row);
  const views = members.map((m) => deviceView(m, false));
  const rules = rulesOf(members);
  return {
    revision: row?.revision ?? 0,
    hash: row?.hash ?? null,
    document: redactSecrets(doc),
    vlanRange: rules.vlanRange,
    gatewayPorts: rules.gatewayPorts ?? [],
    devices: views,
    progress: progressOf(views),
  };
}

export async function getNetwork(deps: Deps, caller: WriteCaller, projectId: number): Promise<NetworkView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  return view(deps, db, projectId);
}

/** Which devices a document would change (validated like a save; nothing is written). */
export async function previewNetwork(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  body: PreviewNetworkBody,
): Promise<NetworkPreviewView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const stored = await latest(db, projectId);
  const opened = stored ? secretsOf(deps).openDocument(stored.document) : null;
  const doc = NetworkDocument.parse(keepNetworkSecrets(body.document, opened));
  const members = await membersOf(db, projectId);
  const changed = new Set(
    check(doc, members, deps, openDoc(deps, stored))
      .filter((c) => c.changed)
      .map((c) => c.member.row.sn),
  );
  return { devices: members.map((m) => deviceView(m, changed.has(m.row.sn))) };
}

async function commit(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  change: {
    document: (tx: DbOrTx, current: NetworkDocument) => Promise<unknown>;
    expectedRevision: number;
    reason: string;
    action: string;
  },
): Promise<NetworkView> {
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
      const stored = before ? secrets.openDocument(before.document) : null;
      const raw = await change.document(write.tx, openDoc(deps, before));
      const doc = parseOrThrow(NetworkDocument, keepNetworkSecrets(raw, stored));
      const members = await membersOf(write.tx, projectId, true);
      const compiled = check(doc, members, deps, before ? openDoc(deps, before) : undefined);
      const hash = await configHash(doc);
      const next = head + 1;
      await write.tx.insert(networkRevisions).values({
        projectId,
        revision: next,
        document: secrets.sealDocument(doc),
        hash,
        authorId: caller.accountId,
        authorName: caller.account,
        reason: change.reason,
        createdAt: write.now,
      });
      // Every affected device's next revision in a few multi-row statements (the devices are
      // already locked above, in serial-number order), not four statements per device.
      const reason = `Network revision ${next}${change.reason ? `: ${change.reason}` : ''}`;
      const written = await commitDeviceRevisions(
        write.tx,
        secrets,
        compiled
          .filter((c) => c.changed || c.member.row.desiredRevision === 0)
          .map((c) => ({
            sn: c.member.row.sn,
            projectId,
            document: c.compiled as DeviceConfigInput as Record<string, unknown>,
            author: caller,
            reason,
            now: write.now,
          })),
      );
      const touched = written.map((w) => ({ sn: w.before.sn, revision: w.revision }));
      pushed.push(...touched.map((t) => t.sn));
      write.audit({
        action: change.action,
        entity: 'network-config',
        entityId: projectId,
        before: { revision: head, hash: before?.hash ?? null },
        after: { revision: next, hash, reason: change.reason, devices: touched },
      });
    },
    // Two saves of the network are serialised on the project row.
    { lock: 'update' },
  );
  for (const sn of pushed) deps.gateway.commands.converge(sn);
  return view(deps, deps.database.db, projectId);
}

/**
 * A device that joins the project (added, imported or bound again) after the last network save
 * gets the project's network like any other member (decision 0042): in the joining transaction its
 * document is compiled from the latest network revision and committed as its next revision,
 * pending and due, so it converges like an offline device (on its hello, or the convergence job).
 * A device the document does not fit (its model's own rules refuse the compiled document, e.g. a
 * switch none of whose ports carries the management VLAN) is still added: nothing is queued for it
 * and a warning `network-not-applied` event in the project's log says why; the next network save
 * refuses with that code until it is fixed. Answers the SNs to push once the caller has committed.
 */
export function compileForJoined(
  tx: DbOrTx,
  deps: Pick<Deps, 'gateway'>,
  caller: Pick<WriteCaller, 'accountId' | 'account'>,
  projectId: number,
  sns: readonly string[],
  now: Date,
): Promise<string[]> {
  return compileFor(tx, secretsOf(deps as Deps), caller, projectId, sns, now, 'joined the project');
}

/**
 * A device switched from local management back to cloud management (its hello or state says so)
 * gets the project's current network at once, like a device that joins (decision 0046): called
 * by the device ingest in the transaction that stores the new mode; answers the SNs to push once
 * it has committed.
 */
export function compileForCloudManaged(
  tx: DbOrTx,
  secrets: Secrets,
  projectId: number,
  sns: readonly string[],
  now: Date,
): Promise<string[]> {
  return compileFor(
    tx,
    secrets,
    { accountId: null, account: 'system' },
    projectId,
    sns,
    now,
    'back in cloud management',
  );
}

async function compileFor(
  tx: DbOrTx,
  secrets: Secrets,
  caller: Pick<NewDeviceRevision['author'], 'accountId' | 'account'>,
  projectId: number,
  sns: readonly string[],
  now: Date,
  why: string,
): Promise<string[]> {
  if (sns.length === 0) return [];
  const head = await latest(tx, projectId);
  if (!head) return [];
  const doc = NetworkDocument.parse(secrets.openDocument(head.document));
  const wanted = new Set(sns);
  const queued: NewDeviceRevision[] = [];
  for (const m of await membersOf(tx, projectId)) {
    if (!wanted.has(m.row.sn) || m.row.managementMode === ManagementMode.LOCAL) continue;
    const current = m.row.desiredConfig
      ? (secrets.openDocument(m.row.desiredConfig) as Record<string, unknown>)
      : {};
    const compiled = compile(doc, m.role, current, m.info);
    const parsed = deviceConfigSchema.safeParse(compiled);
    const failure = parsed.success
      ? validateDeviceConfig(parsed.data, m.info)
      : { code: Codes.FORM_DATA, message: 'The document does not fit the device', path: '' };
    if (failure) {
      await tx
        .insert(deviceEvents)
        .values({
          sn: m.row.sn,
          projectId,
          eventId: `${NETWORK_NOT_APPLIED_EVENT}-${head.revision}-${now.getTime()}`,
          at: now,
          event: NETWORK_NOT_APPLIED_EVENT,
          level: EventLevel.WARNING,
          message: `Network revision ${head.revision} was not applied to ${m.row.sn}: ${failure.message} (${failure.code})`,
          data: { code: failure.code, path: failure.path ?? null, revision: head.revision },
          receivedAt: now,
        })
        .onConflictDoNothing();
      continue;
    }
    // Nothing of the network for this device (e.g. an AP and no management VLAN): no revision.
    if (canonicalJson(parsed.data) === canonicalJson(deviceConfigSchema.parse(current))) continue;
    queued.push({
      sn: m.row.sn,
      projectId,
      document: compiled,
      author: caller,
      reason: `Network revision ${head.revision} (${why})`,
      now,
    });
  }
  // An import of many devices writes their revisions in a few multi-row statements.
  await commitDeviceRevisions(tx, secrets, queued);
  return queued.map((q) => q.sn);
}

export const NETWORK_NOT_APPLIED_EVENT = 'network-not-applied';

export function saveNetwork(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  body: SaveNetworkBody,
): Promise<NetworkView> {
  return commit(deps, caller, projectId, {
    document: async () => body.document,
    expectedRevision: body.expectedRevision,
    reason: body.reason ?? '',
    action: 'network-save',
  });
}

export function rollbackNetwork(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  body: RollbackNetworkBody,
): Promise<NetworkView> {
  return commit(deps, caller, projectId, {
    document: async (tx) => {
      const target = await rollbackTarget(tx, networkRevisions, projectId, body.revision);
      return secretsOf(deps).openDocument(target.document);
    },
    expectedRevision: body.expectedRevision,
    reason: body.reason || `Rollback to revision ${body.revision}`,
    action: 'network-rollback',
  });
}

export async function listNetworkRevisions(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  page: { page: number; pageSize: number },
): Promise<ConfigRevisionList> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  return listProjectRevisions(db, networkRevisions, projectId, page);
}

export async function diffNetwork(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  from: number,
  to: number,
): Promise<ConfigDiffView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  return diffProjectRevisions(db, networkRevisions, projectId, from, to, (row) => openDoc(deps, row));
}

const RouteTableReply = z.object({
  revision: z
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .default(0),
  routes: z.array(RouteTableEntry).max(1024),
});

/**
 * The routes the gateway runs, asked of the device itself (route-table command), never our
 * database. A gateway that cannot answer (offline 36, upgrading 71, no reply 5025) or a project
 * without one (5252) is an answer too: the screen shows why there is no table.
 */
export async function routeTable(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
): Promise<RouteTableView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const gateway = (await membersOf(db, projectId)).find((m) => m.role === 'gateway');
  const none = (sn: string | null, code: number, message: string | null): RouteTableView => ({
    sn,
    code,
    message: message ?? errorMessage(code),
    revision: 0,
    routes: [],
  });
  if (!gateway) return none(null, Codes.NO_GATEWAY, null);
  const outcome = await deps.gateway.commands.send(gateway.row.sn, 'route-table', {}, caller);
  if (outcome.code !== 0) return none(gateway.row.sn, outcome.code, outcome.message ?? null);
  // What a device answers is hostile input: bounded and checked before it is shown.
  const reply = RouteTableReply.safeParse(outcome.data);
  if (!reply.success)
    return none(gateway.row.sn, Codes.SET_FAILED, 'The gateway answered with a malformed route table');
  return {
    sn: gateway.row.sn,
    code: 0,
    message: null,
    revision: reply.data.revision,
    routes: reply.data.routes,
  };
}
