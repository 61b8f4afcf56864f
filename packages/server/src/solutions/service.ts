import {
  AppError,
  BUILTIN_SCENARIOS,
  Codes,
  generateSolution,
  type Recommendation,
  type SolutionInput,
  type SolutionShareView,
  type SolutionSummary,
  type SolutionView,
} from '@beacon/protocol';
import { and, desc, eq, or, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/audit.ts';
import type { Caller } from '../auth/principal.ts';
import { isUniqueViolation } from '../auth/repository.ts';
import type { DbOrTx } from '../db/client.ts';
import { accounts, customScenarios, solutionShares, solutions } from '../db/schema.ts';
import type { Deps } from '../deps.ts';

/**
 * Solutions of an account (SPEC.md §1, §3; docs/decisions/0054): every query is scoped by the
 * caller — its own solutions, and those shared with it (read-only: 5401 on a write). A solution
 * another account neither owns nor shares is "not found" (5033), never told apart.
 */

type ServiceDeps = Pick<Deps, 'database' | 'now'>;
type Row = typeof solutions.$inferSelect & { owner: string };

const actorOf = (c: Caller) => ({ accountId: c.accountId, account: c.account, requestId: c.requestId });

function summary(row: Row, caller: Caller): SolutionSummary {
  return {
    id: row.id,
    name: row.name,
    scenario: row.scenario,
    modifiedAt: row.updatedAt.toISOString(),
    owner: row.owner,
    readOnly: row.ownerId !== caller.accountId,
  };
}

function view(row: Row, caller: Caller): SolutionView {
  return {
    ...summary(row, caller),
    input: row.input,
    recommendation: row.recommendation,
    createdAt: row.createdAt.toISOString(),
  };
}

const columns = { ...solutionColumns(), owner: accounts.account };
function solutionColumns() {
  return {
    id: solutions.id,
    ownerId: solutions.ownerId,
    name: solutions.name,
    scenario: solutions.scenario,
    input: solutions.input,
    recommendation: solutions.recommendation,
    createdAt: solutions.createdAt,
    updatedAt: solutions.updatedAt,
  };
}

/** The caller's own or shared-with-it solutions (the permission is in the query, invariant 1). */
const visibleTo = (accountId: number) =>
  or(
    eq(solutions.ownerId, accountId),
    sql`exists (select 1 from ${solutionShares} where ${solutionShares.solutionId} = ${solutions.id}
      and ${solutionShares.accountId} = ${accountId})`,
  );

async function loadVisible(db: DbOrTx, caller: Caller, id: number, lock = false): Promise<Row> {
  const query = db
    .select(columns)
    .from(solutions)
    .innerJoin(accounts, eq(accounts.id, solutions.ownerId))
    .where(and(eq(solutions.id, id), visibleTo(caller.accountId)));
  const [row] = lock ? await query.for('update', { of: solutions }) : await query;
  if (!row) throw new AppError(Codes.NOT_FOUND);
  return row;
}

async function loadOwned(db: DbOrTx, caller: Caller, id: number): Promise<Row> {
  const row = await loadVisible(db, caller, id, true);
  if (row.ownerId !== caller.accountId) throw new AppError(Codes.SOLUTION_READ_ONLY);
  return row;
}

/** The scenario is built in or one of the caller's custom scenarios (16 otherwise). */
async function checkScenario(db: DbOrTx, caller: Caller, scenario: string): Promise<void> {
  if ((BUILTIN_SCENARIOS as readonly string[]).includes(scenario)) return;
  const [custom] = await db
    .select({ id: customScenarios.id })
    .from(customScenarios)
    .where(and(eq(customScenarios.accountId, caller.accountId), eq(customScenarios.name, scenario)));
  if (!custom) {
    throw new AppError(Codes.FORM_DATA, 'Select a scenario of the list', {
      'input.scenario': 'Select a scenario',
    });
  }
}

export async function generate(
  deps: ServiceDeps,
  caller: Caller,
  input: SolutionInput,
): Promise<Recommendation> {
  await checkScenario(deps.database.db, caller, input.scenario);
  return generateSolution(input);
}

export async function list(deps: ServiceDeps, caller: Caller): Promise<SolutionSummary[]> {
  const rows = await deps.database.db
    .select(columns)
    .from(solutions)
    .innerJoin(accounts, eq(accounts.id, solutions.ownerId))
    .where(visibleTo(caller.accountId))
    .orderBy(desc(solutions.updatedAt), desc(solutions.id))
    .limit(1000);
  return rows.map((r) => summary(r, caller));
}

export async function get(deps: ServiceDeps, caller: Caller, id: number): Promise<SolutionView> {
  return view(await loadVisible(deps.database.db, caller, id), caller);
}

export async function create(
  deps: ServiceDeps,
  caller: Caller,
  body: { name: string; input: SolutionInput },
): Promise<SolutionView> {
  const now = deps.now();
  return deps.database.db.transaction(async (tx) => {
    await checkScenario(tx, caller, body.input.scenario);
    const recommendation = generateSolution(body.input);
    const [row] = await tx
      .insert(solutions)
      .values({
        ownerId: caller.accountId,
        name: body.name,
        scenario: body.input.scenario,
        input: body.input,
        recommendation,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await recordAudit(tx, actorOf(caller), {
      at: now,
      action: 'create',
      entity: 'solution',
      entityId: row.id,
      after: { name: row.name, scenario: row.scenario },
    });
    return view({ ...row, owner: caller.account }, caller);
  });
}

export async function update(
  deps: ServiceDeps,
  caller: Caller,
  id: number,
  body: { name: string; input: SolutionInput },
): Promise<SolutionView> {
  const now = deps.now();
  return deps.database.db.transaction(async (tx) => {
    const before = await loadOwned(tx, caller, id);
    await checkScenario(tx, caller, body.input.scenario);
    const recommendation = generateSolution(body.input);
    const [row] = await tx
      .update(solutions)
      .set({
        name: body.name,
        scenario: body.input.scenario,
        input: body.input,
        recommendation,
        updatedAt: now,
      })
      .where(eq(solutions.id, id))
      .returning();
    await recordAudit(tx, actorOf(caller), {
      at: now,
      action: 'update',
      entity: 'solution',
      entityId: id,
      before: { name: before.name, input: before.input },
      after: { name: row.name, input: row.input },
    });
    return view({ ...row, owner: before.owner }, caller);
  });
}

export async function remove(deps: ServiceDeps, caller: Caller, id: number): Promise<void> {
  const now = deps.now();
  await deps.database.db.transaction(async (tx) => {
    const before = await loadOwned(tx, caller, id);
    await tx.delete(solutions).where(eq(solutions.id, id));
    await recordAudit(tx, actorOf(caller), {
      at: now,
      action: 'delete',
      entity: 'solution',
      entityId: id,
      before: { name: before.name, scenario: before.scenario },
    });
  });
}

export async function listShares(
  deps: ServiceDeps,
  caller: Caller,
  id: number,
): Promise<SolutionShareView[]> {
  const db = deps.database.db;
  const row = await loadVisible(db, caller, id);
  if (row.ownerId !== caller.accountId) throw new AppError(Codes.SOLUTION_READ_ONLY);
  const rows = await db
    .select({
      accountId: accounts.id,
      account: accounts.account,
      nick: accounts.nick,
      sharedAt: solutionShares.sharedAt,
    })
    .from(solutionShares)
    .innerJoin(accounts, eq(accounts.id, solutionShares.accountId))
    .where(eq(solutionShares.solutionId, id))
    .orderBy(solutionShares.sharedAt);
  return rows.map((r) => ({ ...r, sharedAt: r.sharedAt.toISOString() }));
}

/** Shares read-only: 22 no such account, 28 oneself, 21 already shared. */
export async function share(
  deps: ServiceDeps,
  caller: Caller,
  id: number,
  target: string,
): Promise<SolutionShareView> {
  const now = deps.now();
  const name = target.trim().toLowerCase();
  try {
    return await deps.database.db.transaction(async (tx) => {
      await loadOwned(tx, caller, id);
      const [account] = await tx
        .select({
          id: accounts.id,
          account: accounts.account,
          nick: accounts.nick,
          isSystem: accounts.isSystem,
        })
        .from(accounts)
        .where(or(eq(accounts.account, name), sql`lower(${accounts.email}) = ${name}`));
      if (!account || account.isSystem) throw new AppError(Codes.SHARE_ACCOUNT_MISSING);
      if (account.id === caller.accountId) throw new AppError(Codes.SHARE_TO_SELF);
      await tx.insert(solutionShares).values({ solutionId: id, accountId: account.id, sharedAt: now });
      await recordAudit(tx, actorOf(caller), {
        at: now,
        action: 'share',
        entity: 'solution',
        entityId: id,
        after: { account: account.account },
      });
      return {
        accountId: account.id,
        account: account.account,
        nick: account.nick,
        sharedAt: now.toISOString(),
      };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(Codes.ALREADY_SHARED);
    throw err;
  }
}

export async function unshare(
  deps: ServiceDeps,
  caller: Caller,
  id: number,
  accountId: number,
): Promise<void> {
  const now = deps.now();
  await deps.database.db.transaction(async (tx) => {
    await loadOwned(tx, caller, id);
    const gone = await tx
      .delete(solutionShares)
      .where(and(eq(solutionShares.solutionId, id), eq(solutionShares.accountId, accountId)))
      .returning({ accountId: solutionShares.accountId });
    if (gone.length === 0) throw new AppError(Codes.NOT_FOUND);
    await recordAudit(tx, actorOf(caller), {
      at: now,
      action: 'unshare',
      entity: 'solution',
      entityId: id,
      before: { accountId },
    });
  });
}
