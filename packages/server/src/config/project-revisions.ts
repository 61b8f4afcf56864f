import {
  AppError,
  Codes,
  type ConfigDiffView,
  type ConfigRevisionList,
  diffConfigs,
  REDACTED,
  SECRET_KEYS,
} from '@beacon/protocol';
import { and, count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { pageWindow, withTotal } from '../db/paging.ts';
import type { networkRevisions, wifiRevisions } from '../db/schema.ts';

/**
 * The project-wide configuration documents (the network, decision 0038; the Wi-Fi, 0047) keep
 * their revisions in tables of one shape; reading them (latest, one, a page, a comparison) is done
 * here once. Writing stays with each domain: what a document compiles into differs.
 */
export type ProjectRevisionTable = typeof networkRevisions | typeof wifiRevisions;
export type ProjectRevisionRow = typeof networkRevisions.$inferSelect;

// The tables share every column, so one of them stands for both in drizzle's types.
const asTable = (table: ProjectRevisionTable) => table as typeof networkRevisions;

export async function latestProjectRevision(
  db: DbOrTx,
  table: ProjectRevisionTable,
  projectId: number,
): Promise<ProjectRevisionRow | undefined> {
  const t = asTable(table);
  const [row] = await db
    .select()
    .from(t)
    .where(eq(t.projectId, projectId))
    .orderBy(desc(t.revision))
    .limit(1);
  return row;
}

export async function findProjectRevision(
  db: DbOrTx,
  table: ProjectRevisionTable,
  projectId: number,
  revision: number,
): Promise<ProjectRevisionRow | undefined> {
  const t = asTable(table);
  const [row] = await db
    .select()
    .from(t)
    .where(and(eq(t.projectId, projectId), eq(t.revision, revision)));
  return row;
}

/** The revision a rollback returns to; 404 (1) when the project has no such revision. */
export async function rollbackTarget(
  db: DbOrTx,
  table: ProjectRevisionTable,
  projectId: number,
  revision: number,
): Promise<ProjectRevisionRow> {
  const target = await findProjectRevision(db, table, projectId, revision);
  if (!target) throw new AppError(Codes.NOT_FOUND, 'There is no such revision', { revision: 'Not found' });
  return target;
}

/** A page of the revisions, newest first. */
export async function listProjectRevisions(
  db: DbOrTx,
  table: ProjectRevisionTable,
  projectId: number,
  page: { page: number; pageSize: number },
): Promise<ConfigRevisionList> {
  const t = asTable(table);
  const where = eq(t.projectId, projectId);
  const { limit, offset } = pageWindow(page);
  const { rows, total } = await withTotal(
    db.select().from(t).where(where).orderBy(desc(t.revision)).limit(limit).offset(offset),
    db.select({ n: count() }).from(t).where(where),
  );
  return {
    items: rows.map((r) => ({
      revision: r.revision,
      hash: r.hash,
      author: r.authorName,
      reason: r.reason,
      createdAt: r.createdAt.toISOString(),
    })),
    total,
    page: page.page,
    pageSize: page.pageSize,
  };
}

const mask = (v: unknown) => (v === undefined || v === '' ? v : REDACTED);

/** Two revisions compared field by field (open: the stored document, secrets unsealed); secrets masked. */
export async function diffProjectRevisions(
  db: DbOrTx,
  table: ProjectRevisionTable,
  projectId: number,
  from: number,
  to: number,
  open: (row: ProjectRevisionRow) => unknown,
): Promise<ConfigDiffView> {
  const [a, b] = await Promise.all([
    findProjectRevision(db, table, projectId, from),
    findProjectRevision(db, table, projectId, to),
  ]);
  if (!a || !b) throw new AppError(Codes.NOT_FOUND, `There is no revision ${a ? to : from}`);
  const changes = diffConfigs(open(a), open(b)).map((c) =>
    SECRET_KEYS.has(c.path.slice(c.path.lastIndexOf('.') + 1))
      ? { path: c.path, before: mask(c.before), after: mask(c.after) }
      : c,
  );
  return { from, to, changes };
}
