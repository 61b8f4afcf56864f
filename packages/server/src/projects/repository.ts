import type { ProjectListQuery } from '@beacon/protocol';
import { and, asc, count, desc, eq, gte, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { pageWindow, withTotal } from '../db/paging.ts';
import { accounts, auditLog, customScenarios, devices, projectMembers, projects } from '../db/schema.ts';
import { projectStatsSubquery, type StatsRow } from '../overview/stats.ts';
import { memberJoin, type ProjectRow, visibleProjectIds } from './access.ts';

/** The stored fields of a project an administrator sets: the audit row's before/after. */
export type ProjectFields = Pick<
  ProjectRow,
  'name' | 'netMode' | 'scenario' | 'location' | 'address' | 'timeZone'
>;

export function projectFields(row: ProjectRow): ProjectFields {
  return {
    name: row.name,
    netMode: row.netMode,
    scenario: row.scenario,
    location: row.location,
    address: row.address,
    timeZone: row.timeZone,
  };
}

export interface ListedProject {
  project: ProjectRow;
  ownerAccount: string;
  permission: string | null;
  expiresAt: Date | null;
  acceptedAt: Date | null;
  via: string | null;
  /** The project's device counts (overview/stats.ts); null fields: no devices. */
  stats: StatsRow;
}

/** LIKE pattern that matches `text` literally anywhere (backslash is PostgreSQL's default escape). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface ListFilter extends Omit<ProjectListQuery, 'range'> {
  /** Only projects created at or after this instant (the time range). */
  createdSince?: Date;
  /** Only these projects (an API key limited to some projects, docs/decisions/0058). */
  onlyIds?: number[];
}

/**
 * One page of the projects the account may see (own, unexpired shares, demo), with the total.
 * One query: the visible ids come from an index-served UNION, the total from count(*) over(), the
 * device counts from one grouped subquery over the visible projects' devices (also the sort keys
 * devices, online, clients, health).
 */
export async function listVisibleProjects(
  db: DbOrTx,
  accountId: number,
  now: Date,
  filter: ListFilter,
): Promise<{ rows: ListedProject[]; total: number }> {
  const conditions: SQL[] = [inArray(projects.id, visibleProjectIds(accountId, now))];
  if (filter.createdSince) conditions.push(gte(projects.createdAt, filter.createdSince));
  if (filter.q) conditions.push(sql`${projects.name} ilike ${containsPattern(filter.q)}`);
  if (filter.netMode !== undefined) conditions.push(eq(projects.netMode, filter.netMode));
  if (filter.onlyIds) conditions.push(inArray(projects.id, filter.onlyIds));
  const where = and(...conditions);

  const ov = projectStatsSubquery(db, visibleProjectIds(accountId, now));
  const column = {
    name: sql`lower(${projects.name})`,
    updatedAt: projects.updatedAt,
    createdAt: projects.createdAt,
    devices: sql`coalesce(${ov.total}, 0)`,
    online: sql`coalesce(${ov.online}, 0)`,
    clients: sql`coalesce(${ov.clients}, 0)`,
    // No devices sorts below 0 % healthy.
    health: sql`coalesce(${ov.healthy} * 100 / nullif(${ov.total}, 0), -1)`,
  }[filter.sort];
  const direction = filter.order === 'asc' ? asc : desc;

  const rows = await db
    .select({
      project: projects,
      ownerAccount: accounts.account,
      permission: projectMembers.permission,
      expiresAt: projectMembers.expiresAt,
      acceptedAt: projectMembers.acceptedAt,
      via: projectMembers.via,
      stats: {
        total: ov.total,
        online: ov.online,
        offline: ov.offline,
        clients: ov.clients,
        configFailed: ov.configFailed,
        healthy: ov.healthy,
      },
      total: sql<number>`count(*) over()`.mapWith(Number),
    })
    .from(projects)
    .innerJoin(accounts, eq(accounts.id, projects.ownerId))
    .leftJoin(projectMembers, memberJoin(accountId))
    .leftJoin(ov, eq(ov.projectId, projects.id))
    .where(where)
    .orderBy(direction(column), direction(projects.id))
    .limit(filter.pageSize)
    .offset((filter.page - 1) * filter.pageSize);

  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && filter.page > 1) {
    // Past the last page: the window count has no row to ride on.
    const [counted] = await db.select({ n: count() }).from(projects).where(where);
    total = counted.n;
  }
  return { rows, total };
}

export async function deviceCountOf(db: DbOrTx, projectId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(devices).where(eq(devices.projectId, projectId));
  return row.n;
}

export async function countOwnedProjects(db: DbOrTx, ownerId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(projects).where(eq(projects.ownerId, ownerId));
  return row.n;
}

/** Case-insensitive name clash among the owner's projects (projects_owner_name_uq), leaving out `exceptId`. */
export async function nameTaken(
  db: DbOrTx,
  ownerId: number,
  name: string,
  exceptId?: number,
): Promise<boolean> {
  const rows = await db
    .select({ id: projects.id })
    .from(projects)
    .where(
      and(
        eq(projects.ownerId, ownerId),
        sql`lower(${projects.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(projects.id, exceptId),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export async function hasCustomScenario(db: DbOrTx, accountIds: number[], name: string): Promise<boolean> {
  const rows = await db
    .select({ id: customScenarios.id })
    .from(customScenarios)
    .where(and(inArray(customScenarios.accountId, accountIds), eq(customScenarios.name, name)))
    .limit(1);
  return rows.length > 0;
}

/** Serialises project creation per account (the count limit) by locking the account row. */
export async function lockAccount(db: DbOrTx, accountId: number): Promise<void> {
  await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
}

export async function insertProject(
  db: DbOrTx,
  values: ProjectFields & { ownerId: number; createdAt: Date },
): Promise<ProjectRow> {
  const [row] = await db
    .insert(projects)
    .values({ ...values, updatedAt: values.createdAt })
    .returning();
  return row;
}

export async function updateProject(
  db: DbOrTx,
  id: number,
  changes: Partial<ProjectFields> & { updatedAt: Date },
): Promise<ProjectRow> {
  const [row] = await db.update(projects).set(changes).where(eq(projects.id, id)).returning();
  return row;
}

export async function deleteProject(db: DbOrTx, id: number): Promise<void> {
  await db.delete(projects).where(eq(projects.id, id));
}

/** The project's audit trail, newest first, with the total. */
export async function listProjectAudit(
  db: DbOrTx,
  projectId: number,
  page: number,
  pageSize: number,
): Promise<{ rows: (typeof auditLog.$inferSelect)[]; total: number }> {
  const where = eq(auditLog.projectId, projectId);
  const { limit, offset } = pageWindow({ page, pageSize });
  return withTotal(
    db
      .select()
      .from(auditLog)
      .where(where)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(auditLog).where(where),
  );
}
