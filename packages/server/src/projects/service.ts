import {
  AppError,
  type AuditView,
  BUILTIN_SCENARIOS,
  Codes,
  CreateProjectBody,
  type PageQuery,
  type ProjectListItem,
  type ProjectListQuery,
  type ProjectTimeRange,
  type ProjectView,
  parseOrThrow,
  UpdateProjectBody,
} from '@beacon/protocol';
import type { z } from 'zod';
import { recordAudit } from '../audit/audit.ts';
import type { Caller } from '../auth/principal.ts';
import type { DbOrTx } from '../db/client.ts';
import type { Deps } from '../deps.ts';
import { toStats } from '../overview/stats.ts';
import { recompileWifiForTimeZone } from '../wifi/service.ts';
import {
  loadProjectAccess,
  type ProjectAccess,
  requireOwner,
  requireWritable,
  resolveRight,
} from './access.ts';
import * as repo from './repository.ts';

type Paged<T> = { items: T[]; total: number; page: number; pageSize: number };
type ServiceDeps = Pick<Deps, 'database' | 'config' | 'now'>;

const ENTITY = 'project';
const BUILTIN = new Set<string>(BUILTIN_SCENARIOS);
const noMember = { permission: null, expiresAt: null, acceptedAt: null, via: null };

/** Invariant 2: services validate with the protocol schema whoever calls them; a failure is its catalogue code. */
export function toProjectView(access: ProjectAccess, deviceCount: number): ProjectView {
  const p = access.project;
  return {
    id: p.id,
    name: p.name,
    netMode: p.netMode as ProjectView['netMode'],
    scenario: p.scenario,
    location: p.location,
    address: p.address,
    timeZone: p.timeZone,
    right: access.right,
    isShare: access.isShare,
    property: access.property,
    isDemo: access.isDemo,
    ownerAccount: access.ownerAccount,
    deviceCount,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

/** SPEC.md §9 time ranges, counted back from now on createdAt. */
export function rangeStart(range: ProjectTimeRange, now: Date): Date {
  const since = new Date(now);
  if (range === '15d') since.setUTCDate(since.getUTCDate() - 15);
  else if (range === '1y') since.setUTCFullYear(since.getUTCFullYear() - 1);
  else since.setUTCMonth(since.getUTCMonth() - Number.parseInt(range, 10));
  return since;
}

function isUniqueViolation(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } })?.cause ?? error;
  return (cause as { code?: string })?.code === '23505';
}

/** Postgres refused the write on projects_owner_name_uq (a race past the check): answer 5038. */
async function mapNameRace<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(Codes.NAME_TAKEN, undefined, { name: 'Name in use' });
    throw error;
  }
}

/** A built-in scenario key, or the name of a custom scenario of one of `accountIds`; else 16. */
async function checkScenario(db: DbOrTx, scenario: string, accountIds: number[]): Promise<void> {
  if (BUILTIN.has(scenario)) return;
  if (await repo.hasCustomScenario(db, accountIds, scenario)) return;
  const message = 'Choose a built-in scenario or one of your custom scenarios';
  throw new AppError(Codes.FORM_DATA, message, { scenario: message });
}

function nameTakenError(name: string): AppError {
  const message = `A project named "${name}" already exists`;
  return new AppError(Codes.NAME_TAKEN, message, { name: message });
}

export async function listProjects(
  deps: ServiceDeps,
  caller: Caller,
  query: ProjectListQuery,
  onlyIds?: number[] | null,
): Promise<Paged<ProjectListItem>> {
  const now = deps.now();
  const { range, ...rest } = query;
  const { rows, total } = await repo.listVisibleProjects(deps.database.db, caller.accountId, now, {
    ...rest,
    createdSince: range ? rangeStart(range, now) : undefined,
    onlyIds: onlyIds ?? undefined,
  });
  const items = rows.map((row) => {
    const stats = toStats(row.stats);
    const view = toProjectView(
      {
        project: row.project,
        ownerAccount: row.ownerAccount,
        ...resolveRight(caller.accountId, row.project, row),
      },
      stats.total,
    );
    return { ...view, stats };
  });
  return { items, total, page: query.page, pageSize: query.pageSize };
}

export async function getProject(deps: ServiceDeps, caller: Caller, id: number): Promise<ProjectView> {
  const { db } = deps.database;
  const access = await loadProjectAccess(db, caller, id, { now: deps.now() });
  return toProjectView(access, await repo.deviceCountOf(db, id));
}

export async function createProject(
  deps: ServiceDeps,
  caller: Caller,
  input: CreateProjectBody,
): Promise<ProjectView> {
  const body = parseOrThrow(CreateProjectBody, input);
  const now = deps.now();
  const row = await mapNameRace(() =>
    deps.database.db.transaction(async (tx) => {
      await checkScenario(tx, body.scenario, [caller.accountId]);
      await repo.lockAccount(tx, caller.accountId);
      if ((await repo.countOwnedProjects(tx, caller.accountId)) >= deps.config.maxProjectsPerAccount) {
        throw new AppError(Codes.PROJECT_LIMIT);
      }
      if (await repo.nameTaken(tx, caller.accountId, body.name)) throw nameTakenError(body.name);
      const created = await repo.insertProject(tx, { ...body, ownerId: caller.accountId, createdAt: now });
      await recordAudit(tx, caller, {
        at: now,
        projectId: created.id,
        action: 'create',
        entity: ENTITY,
        entityId: created.id,
        after: repo.projectFields(created),
      });
      return created;
    }),
  );
  return toProjectView(
    { project: row, ownerAccount: caller.account, ...resolveRight(caller.accountId, row, noMember) },
    0,
  );
}

export async function updateProject(
  deps: ServiceDeps & Pick<Deps, 'gateway'>,
  caller: Caller,
  id: number,
  input: UpdateProjectBody,
): Promise<ProjectView> {
  const changes = parseOrThrow(UpdateProjectBody, input);
  const now = deps.now();
  let pushed: string[] = [];
  const access = await mapNameRace(() =>
    deps.database.db.transaction(async (tx) => {
      const current = requireWritable(await loadProjectAccess(tx, caller, id, { now, lock: 'update' }));
      const before = repo.projectFields(current.project);
      const patch = Object.fromEntries(
        Object.entries(changes).filter(
          ([key, value]) => value !== undefined && before[key as keyof typeof before] !== value,
        ),
      ) as Partial<repo.ProjectFields>;
      if (Object.keys(patch).length === 0) return current;
      if (patch.scenario !== undefined) {
        await checkScenario(tx, patch.scenario, [...new Set([caller.accountId, current.project.ownerId])]);
      }
      if (patch.name !== undefined && (await repo.nameTaken(tx, current.project.ownerId, patch.name, id))) {
        throw nameTakenError(patch.name);
      }
      const project = await repo.updateProject(tx, id, { ...patch, updatedAt: now });
      // The Wi-Fi timer shutdown runs on the project's clock: its devices take the new zone (decision 0047).
      if (patch.timeZone !== undefined) {
        pushed = await recompileWifiForTimeZone(tx, deps, caller, id, patch.timeZone, now);
      }
      await recordAudit(tx, caller, {
        at: now,
        projectId: id,
        action: 'update',
        entity: ENTITY,
        entityId: id,
        before,
        after: repo.projectFields(project),
      });
      return { ...current, project };
    }),
  );
  for (const sn of pushed) deps.gateway.commands.converge(sn);
  return toProjectView(access, await repo.deviceCountOf(deps.database.db, id));
}

export async function deleteProject(deps: ServiceDeps, caller: Caller, id: number): Promise<{ id: number }> {
  const now = deps.now();
  await deps.database.db.transaction(async (tx) => {
    const access = requireOwner(await loadProjectAccess(tx, caller, id, { now, lock: 'update' }));
    await repo.deleteProject(tx, id);
    await recordAudit(tx, caller, {
      at: now,
      projectId: id,
      action: 'delete',
      entity: ENTITY,
      entityId: id,
      before: repo.projectFields(access.project),
    });
  });
  return { id };
}

export async function projectLogs(
  deps: ServiceDeps,
  caller: Caller,
  id: number,
  query: z.output<typeof PageQuery>,
): Promise<Paged<AuditView>> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, id, { now: deps.now() });
  const { rows, total } = await repo.listProjectAudit(db, id, query.page, query.pageSize);
  const items = rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    account: row.accountName,
    action: row.action,
    entity: row.entity,
    entityId: row.entityId,
    before: row.before ?? null,
    after: row.after ?? null,
  }));
  return { items, total, page: query.page, pageSize: query.pageSize };
}
