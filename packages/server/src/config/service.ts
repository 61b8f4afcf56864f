import {
  AppError,
  Codes,
  type ConfigDiffView,
  type ConfigRevisionDetail,
  type ConfigRevisionList,
  type ConfigRevisionView,
  type DeviceConfigView,
  diffConfigs,
  ManagementMode,
  type ProjectConfigView,
  REDACTED,
  type RollbackConfigBody,
  redactSecrets,
  type SaveDeviceConfigBody,
  SECRET_KEYS,
} from '@beacon/protocol';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { devices } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { selectDevices } from '../devices/row.ts';
import { loadProjectAccess } from '../projects/access.ts';
import { type WriteCaller, withProjectWrite } from '../projects/write.ts';
import { refuseIfOptimising } from '../rf/service.ts';
import * as repo from './repository.ts';
import { commitDeviceRevision, type DeviceRow, type RevisionRow } from './repository.ts';

/**
 * The configuration domain (invariant 3, docs/decisions/0029): a device's desired configuration
 * as revisions. Every change — a save, a rollback, a copy from another device (maintenance) — is a
 * new revision committed on the project write path with its audit row, checked against the
 * revision it was based on (5120 when someone saved in between), then pushed after commit; the
 * convergence job (convergence.ts) keeps pushing until the device reports it.
 */

const secretsOf = (deps: Deps) => deps.gateway.commands.secrets;
/** A device's serial number as stored, or null for the project's own configuration. */
const norm = (sn: string | null) => (sn === null ? null : sn.toUpperCase());

async function deviceIn(db: DbOrTx, projectId: number, sn: string): Promise<DeviceRow> {
  const [row] = await selectDevices(db).where(
    and(eq(devices.projectId, projectId), eq(devices.sn, sn.toUpperCase())),
  );
  if (!row) throw new AppError(Codes.NOT_FOUND, 'The device is not in this project');
  return row;
}

function configView(deps: Deps, row: DeviceRow): DeviceConfigView {
  const document = row.desiredConfig ? secretsOf(deps).openDocument(row.desiredConfig) : {};
  return {
    sn: row.sn,
    revision: row.desiredRevision,
    hash: row.desiredHash,
    document: redactSecrets(document as Record<string, unknown>),
    status: row.configStatus,
    code: row.configCode,
    reportedRevision: row.reportedRevision,
    reportedHash: row.reportedHash,
    drift:
      row.reportedRevision === row.desiredRevision &&
      row.desiredHash !== null &&
      row.reportedHash !== null &&
      row.desiredHash !== row.reportedHash,
  };
}

const revisionView = (row: RevisionRow): ConfigRevisionView => ({
  revision: row.revision,
  hash: row.hash,
  author: row.authorName,
  reason: row.reason,
  createdAt: row.createdAt.toISOString(),
});

export async function getDeviceConfig(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  sn: string,
): Promise<DeviceConfigView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  return configView(deps, await deviceIn(db, projectId, sn));
}

/** A new revision of the device's configuration, on the write path; pushed once committed. */
async function commitOnWritePath(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  sn: string,
  change: {
    /** Read inside the write, after its access check (a rollback's revision must not leak ids). */
    document: (tx: DbOrTx) => Promise<Record<string, unknown>>;
    expectedRevision: number;
    reason: string;
    action: string;
  },
): Promise<DeviceConfigView> {
  const device = await withProjectWrite(deps, caller, projectId, async (write) => {
    const current = await deviceIn(write.tx, projectId, sn);
    // SPEC.md §4: a device in local management mode cannot be configured from the cloud.
    if (current.managementMode === ManagementMode.LOCAL) throw new AppError(Codes.LOCAL_MANAGE);
    // SPEC.md §4: configuring a device while RF optimisation runs on it is blocked (27).
    await refuseIfOptimising(write.tx, projectId, current.sn);
    const { before, device, revision } = await commitDeviceRevision(write.tx, secretsOf(deps), {
      sn: current.sn,
      projectId,
      document: await change.document(write.tx),
      author: caller,
      reason: change.reason,
      expectedRevision: change.expectedRevision,
      now: write.now,
    });
    write.audit({
      action: change.action,
      entity: 'device-config',
      entityId: device.sn,
      before: { revision: before.desiredRevision, hash: before.desiredHash },
      after: { revision: revision.revision, hash: revision.hash, reason: revision.reason },
    });
    return device;
  });
  // An offline or busy device gets it when it can take it (its hello, its state, or the job).
  deps.gateway.commands.converge(device.sn);
  return configView(deps, device);
}

export function saveDeviceConfig(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  sn: string,
  body: SaveDeviceConfigBody,
): Promise<DeviceConfigView> {
  return commitOnWritePath(deps, caller, projectId, sn, {
    document: async () => body.document,
    expectedRevision: body.expectedRevision,
    reason: body.reason ?? '',
    action: 'config-save',
  });
}

export async function rollbackDeviceConfig(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  sn: string,
  body: RollbackConfigBody,
): Promise<DeviceConfigView> {
  return commitOnWritePath(deps, caller, projectId, sn, {
    document: async (tx) => {
      const target = await repo.findRevision(tx, projectId, sn.toUpperCase(), body.revision);
      if (!target)
        throw new AppError(Codes.NOT_FOUND, 'There is no such revision', { revision: 'Not found' });
      // Sealed secrets are opened here; the commit seals them again with fresh nonces.
      return secretsOf(deps).openDocument(target.document) as Record<string, unknown>;
    },
    expectedRevision: body.expectedRevision,
    reason: body.reason || `Rollback to revision ${body.revision}`,
    action: 'config-rollback',
  });
}

export async function listRevisions(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  sn: string | null,
  page: { page: number; pageSize: number },
): Promise<ConfigRevisionList> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const { rows, total } = await repo.listRevisions(db, projectId, norm(sn), page);
  return { items: rows.map(revisionView), total, page: page.page, pageSize: page.pageSize };
}

async function revisionOr404(deps: Deps, projectId: number, sn: string | null, revision: number) {
  const row = await repo.findRevision(deps.database.db, projectId, norm(sn), revision);
  if (!row) throw new AppError(Codes.NOT_FOUND, `There is no revision ${revision}`);
  return row;
}

export async function getRevision(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  sn: string | null,
  revision: number,
): Promise<ConfigRevisionDetail> {
  await loadProjectAccess(deps.database.db, caller, projectId, { now: deps.now() });
  const row = await revisionOr404(deps, projectId, sn, revision);
  const document = secretsOf(deps).openDocument(row.document) as Record<string, unknown>;
  return { ...revisionView(row), document: redactSecrets(document) };
}

/** What changed from one revision to another; a changed secret shows as changed, never its value. */
export async function diffRevisions(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  sn: string | null,
  from: number,
  to: number,
): Promise<ConfigDiffView> {
  await loadProjectAccess(deps.database.db, caller, projectId, { now: deps.now() });
  const [a, b] = await Promise.all([
    revisionOr404(deps, projectId, sn, from),
    revisionOr404(deps, projectId, sn, to),
  ]);
  const secrets = secretsOf(deps);
  const changes = diffConfigs(secrets.openDocument(a.document), secrets.openDocument(b.document)).map((c) =>
    isSecretPath(c.path) ? { path: c.path, before: mask(c.before), after: mask(c.after) } : c,
  );
  return { from, to, changes };
}

const isSecretPath = (path: string) => SECRET_KEYS.has(path.slice(path.lastIndexOf('.') + 1));
const mask = (v: unknown) => (v === undefined || v === '' ? v : REDACTED);

// ── the project's own configuration (sn null): settings for the whole project ──

function projectView(deps: Deps, row: RevisionRow | undefined): ProjectConfigView {
  if (!row) return { revision: 0, hash: null, document: {} };
  const document = secretsOf(deps).openDocument(row.document) as Record<string, unknown>;
  return { revision: row.revision, hash: row.hash, document: redactSecrets(document) };
}

export async function getProjectConfig(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
): Promise<ProjectConfigView> {
  await loadProjectAccess(deps.database.db, caller, projectId, { now: deps.now() });
  return projectView(deps, await repo.latestProjectRevision(deps.database.db, projectId));
}

async function commitProject(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  change: {
    document: (tx: DbOrTx) => Promise<Record<string, unknown>>;
    expectedRevision: number;
    reason: string;
    action: string;
  },
): Promise<ProjectConfigView> {
  const row = await withProjectWrite(
    deps,
    caller,
    projectId,
    async (write) => {
      const { before, revision } = await repo.commitProjectRevision(write.tx, secretsOf(deps), {
        projectId,
        document: await change.document(write.tx),
        author: caller,
        reason: change.reason,
        expectedRevision: change.expectedRevision,
        now: write.now,
      });
      write.audit({
        action: change.action,
        entity: 'project-config',
        entityId: projectId,
        before: { revision: before?.revision ?? 0, hash: before?.hash ?? null },
        after: { revision: revision.revision, hash: revision.hash, reason: revision.reason },
      });
      return revision;
    },
    // Two saves of the project's configuration are serialised on its row.
    { lock: 'update' },
  );
  return projectView(deps, row);
}

export function saveProjectConfig(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  body: SaveDeviceConfigBody,
): Promise<ProjectConfigView> {
  return commitProject(deps, caller, projectId, {
    document: async () => body.document,
    expectedRevision: body.expectedRevision,
    reason: body.reason ?? '',
    action: 'config-save',
  });
}

export function rollbackProjectConfig(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  body: RollbackConfigBody,
): Promise<ProjectConfigView> {
  return commitProject(deps, caller, projectId, {
    document: async (tx) => {
      const target = await repo.findRevision(tx, projectId, null, body.revision);
      if (!target)
        throw new AppError(Codes.NOT_FOUND, 'There is no such revision', { revision: 'Not found' });
      return secretsOf(deps).openDocument(target.document) as Record<string, unknown>;
    },
    expectedRevision: body.expectedRevision,
    reason: body.reason || `Rollback to revision ${body.revision}`,
    action: 'config-rollback',
  });
}
