import {
  AppError,
  Codes,
  configHash,
  DeviceConfigState,
  deviceConfigSchema,
  parseOrThrow,
  REDACTED,
  SECRET_KEYS,
} from '@beacon/protocol';
import { and, count, desc, eq, inArray, isNull, max } from 'drizzle-orm';
import type { Actor } from '../audit/audit.ts';
import type { DbOrTx } from '../db/client.ts';
import { pageWindow, withTotal } from '../db/paging.ts';
import { configRevisions, devices } from '../db/schema.ts';
import { type DeviceRow, selectDevices } from '../devices/row.ts';
import { insertRows, updateRows } from '../gateway/batch.ts';
import type { Secrets } from '../security/secrets.ts';

export type RevisionRow = typeof configRevisions.$inferSelect;
export type { DeviceRow };

export interface NewDeviceRevision {
  sn: string;
  /** The project the device must be in (undefined: wherever it is, e.g. the system's re-sends). */
  projectId?: number;
  /** The document (plain, or with sealed secrets); "********" for a secret keeps the stored one. */
  document: Record<string, unknown>;
  author: Pick<Actor, 'accountId' | 'account'>;
  reason?: string;
  /** The revision the change was based on; another latest revision refuses it with 5120. */
  expectedRevision?: number;
  now: Date;
}

/**
 * Writes a device's next desired revision in the caller's transaction (invariant 3: committed
 * before it is sent): the device row locked, the expected-revision check, the document validated,
 * hashed in plain and stored sealed, the row's head moved and marked pending and due for a push.
 */
export async function commitDeviceRevision(
  tx: DbOrTx,
  secrets: Secrets,
  input: NewDeviceRevision,
): Promise<{ before: DeviceRow; device: DeviceRow; revision: RevisionRow }> {
  // No key update: never changes an SN, so telemetry's foreign-key checks pass (gateway/ingest.ts lockDevices).
  const [before] = await selectDevices(tx)
    .where(eq(devices.sn, input.sn))
    .for('no key update', { of: devices });
  if (!before) throw new AppError(Codes.DEVICE_DELETED);
  if (input.projectId !== undefined && before.projectId !== input.projectId) {
    throw new AppError(Codes.NOT_FOUND, 'The device is not in this project');
  }
  if (input.expectedRevision !== undefined && input.expectedRevision !== before.desiredRevision) {
    throw new AppError(Codes.CONFIG_STALE, undefined, {
      expectedRevision: `The latest revision is ${before.desiredRevision}`,
    });
  }
  const current = before.desiredConfig ? secrets.openDocument(before.desiredConfig) : null;
  // A document copied from another device or revision may carry sealed values: open them first.
  const document = parseOrThrow(
    deviceConfigSchema,
    secrets.openDocument(keepSecrets(input.document, current)),
  );
  const hash = await configHash(document);
  const [{ last }] = await tx
    .select({ last: max(configRevisions.revision) })
    .from(configRevisions)
    .where(eq(configRevisions.sn, input.sn));
  // The counter never goes back (a device unbound and added again keeps counting), so the
  // revision a device runs always names one document.
  const next = Math.max(before.desiredRevision, last ?? 0) + 1;
  const sealed = secrets.sealDocument(document);
  const [revision] = await tx
    .insert(configRevisions)
    .values({
      projectId: before.projectId,
      sn: input.sn,
      revision: next,
      document: sealed,
      hash,
      authorId: input.author.accountId,
      authorName: input.author.account,
      reason: input.reason ?? '',
      createdAt: input.now,
    })
    .returning();
  const [inventory] = await tx
    .update(devices)
    .set({
      desiredRevision: next,
      desiredConfig: sealed,
      desiredHash: hash,
      configStatus: DeviceConfigState.PENDING,
      configCode: null,
      configAttempts: 0,
      configRetryAt: input.now,
      updatedAt: input.now,
    })
    .where(eq(devices.sn, input.sn))
    .returning();
  return { before, device: { ...before, ...inventory }, revision };
}

/**
 * The next desired revision of many devices at once, in the caller's transaction, with the same
 * guarantees as commitDeviceRevision (rows locked in serial-number order, project and
 * expected-revision checks, every document validated, hashed in plain and stored sealed, each
 * device pending and due for a push) but a fixed number of statements whatever the number of
 * devices (bench/config-push: a network save touching 1,000 devices wrote them one by one, about
 * four round trips each): one locking SELECT, one SELECT of the revision counters, one multi-row
 * INSERT of the revisions and one multi-row UPDATE of the devices. Any failure throws before
 * anything is written. Answers, in input order, each device's row before and its new revision.
 */
export async function commitDeviceRevisions(
  tx: DbOrTx,
  secrets: Secrets,
  inputs: readonly NewDeviceRevision[],
): Promise<{ before: DeviceRow; revision: number; hash: string }[]> {
  if (inputs.length === 0) return [];
  const sns = inputs.map((i) => i.sn);
  if (new Set(sns).size !== sns.length) throw new Error('commitDeviceRevisions: a device given twice');
  const locked = await selectDevices(tx)
    .where(inArray(devices.sn, sns))
    .orderBy(devices.sn)
    .for('no key update', { of: devices });
  const bySn = new Map(locked.map((row) => [row.sn, row]));
  const counters = await tx
    .select({ sn: configRevisions.sn, last: max(configRevisions.revision) })
    .from(configRevisions)
    .where(inArray(configRevisions.sn, sns))
    .groupBy(configRevisions.sn);
  const lastOf = new Map(counters.map((c) => [c.sn, c.last ?? 0]));
  const revisions: (typeof configRevisions.$inferInsert)[] = [];
  const heads: Partial<typeof devices.$inferSelect>[] = [];
  const out: { before: DeviceRow; revision: number; hash: string }[] = [];
  for (const input of inputs) {
    const before = bySn.get(input.sn);
    if (!before) throw new AppError(Codes.DEVICE_DELETED);
    if (input.projectId !== undefined && before.projectId !== input.projectId) {
      throw new AppError(Codes.NOT_FOUND, 'The device is not in this project');
    }
    if (input.expectedRevision !== undefined && input.expectedRevision !== before.desiredRevision) {
      throw new AppError(Codes.CONFIG_STALE, undefined, {
        expectedRevision: `The latest revision is ${before.desiredRevision}`,
      });
    }
    const current = before.desiredConfig ? secrets.openDocument(before.desiredConfig) : null;
    const document = parseOrThrow(
      deviceConfigSchema,
      secrets.openDocument(keepSecrets(input.document, current)),
    );
    const hash = await configHash(document);
    // The counter never goes back (see commitDeviceRevision).
    const next = Math.max(before.desiredRevision, lastOf.get(input.sn) ?? 0) + 1;
    const sealed = secrets.sealDocument(document);
    revisions.push({
      projectId: before.projectId,
      sn: input.sn,
      revision: next,
      document: sealed,
      hash,
      authorId: input.author.accountId,
      authorName: input.author.account,
      reason: input.reason ?? '',
      createdAt: input.now,
    });
    heads.push({
      sn: input.sn,
      desiredRevision: next,
      desiredConfig: sealed,
      desiredHash: hash,
      configStatus: DeviceConfigState.PENDING,
      configCode: null,
      configAttempts: 0,
      configRetryAt: input.now,
      updatedAt: input.now,
    });
    out.push({ before, revision: next, hash });
  }
  await insertRows(
    tx,
    configRevisions,
    ['projectId', 'sn', 'revision', 'document', 'hash', 'authorId', 'authorName', 'reason', 'createdAt'],
    revisions,
  );
  for (let i = 0; i < heads.length; i += 1000) {
    await updateRows(
      tx,
      devices,
      'sn',
      [
        'desiredRevision',
        'desiredConfig',
        'desiredHash',
        'configStatus',
        'configCode',
        'configAttempts',
        'configRetryAt',
        'updatedAt',
      ],
      heads.slice(i, i + 1000),
    );
  }
  return out;
}

/**
 * A document as the client sent it back: a secret it received as "********" (it never sees the
 * value) stands for the value stored at the same path.
 */
export function keepSecrets(incoming: unknown, stored: unknown): unknown {
  if (Array.isArray(incoming)) {
    return incoming.map((v, i) => keepSecrets(v, Array.isArray(stored) ? stored[i] : undefined));
  }
  if (!incoming || typeof incoming !== 'object') return incoming;
  const from = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(incoming as Record<string, unknown>)) {
    out[key] =
      SECRET_KEYS.has(key) && v === REDACTED
        ? typeof from[key] === 'string'
          ? from[key]
          : ''
        : keepSecrets(v, from[key]);
  }
  return out;
}

/** A device's revisions made in a project (sn), or the project's own (sn null). */
const scopeOf = (projectId: number, sn: string | null) =>
  and(
    eq(configRevisions.projectId, projectId),
    sn === null ? isNull(configRevisions.sn) : eq(configRevisions.sn, sn),
  );

/** The revisions of a device (or the project's own, sn null) in a project, newest first. */
export async function listRevisions(
  db: DbOrTx,
  projectId: number,
  sn: string | null,
  page: { page: number; pageSize: number },
): Promise<{ rows: RevisionRow[]; total: number }> {
  const where = scopeOf(projectId, sn);
  const { limit, offset } = pageWindow(page);
  return withTotal(
    db
      .select()
      .from(configRevisions)
      .where(where)
      .orderBy(desc(configRevisions.revision))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(configRevisions).where(where),
  );
}

export async function findRevision(
  db: DbOrTx,
  projectId: number,
  sn: string | null,
  revision: number,
): Promise<RevisionRow | undefined> {
  const [row] = await db
    .select()
    .from(configRevisions)
    .where(and(scopeOf(projectId, sn), eq(configRevisions.revision, revision)));
  return row;
}

/** The project's latest own revision (none: revision 0). */
export async function latestProjectRevision(db: DbOrTx, projectId: number): Promise<RevisionRow | undefined> {
  const [row] = await db
    .select()
    .from(configRevisions)
    .where(scopeOf(projectId, null))
    .orderBy(desc(configRevisions.revision))
    .limit(1);
  return row;
}

/**
 * The project's next own revision (settings for the whole project, e.g. its Wi-Fi policies), in the
 * caller's transaction, which must hold the project row locked (withProjectWrite lock 'update') so
 * two saves are serialised; same checks as a device's.
 */
export async function commitProjectRevision(
  tx: DbOrTx,
  secrets: Secrets,
  input: Omit<NewDeviceRevision, 'sn' | 'projectId'> & { projectId: number },
): Promise<{ before: RevisionRow | undefined; revision: RevisionRow }> {
  const before = await latestProjectRevision(tx, input.projectId);
  const latest = before?.revision ?? 0;
  if (input.expectedRevision !== undefined && input.expectedRevision !== latest) {
    throw new AppError(Codes.CONFIG_STALE, undefined, {
      expectedRevision: `The latest revision is ${latest}`,
    });
  }
  const current = before ? secrets.openDocument(before.document) : null;
  const document = parseOrThrow(
    deviceConfigSchema,
    secrets.openDocument(keepSecrets(input.document, current)),
  );
  const [revision] = await tx
    .insert(configRevisions)
    .values({
      projectId: input.projectId,
      sn: null,
      revision: latest + 1,
      document: secrets.sealDocument(document),
      hash: await configHash(document),
      authorId: input.author.accountId,
      authorName: input.author.account,
      reason: input.reason ?? '',
      createdAt: input.now,
    })
    .returning();
  return { before, revision };
}
