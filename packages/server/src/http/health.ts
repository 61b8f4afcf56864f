import { Codes } from '@beacon/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../deps.ts';
import { errorBody } from './errors.ts';

type State = 'up' | 'down';

export type DependencyStates = Record<'database' | 'broker' | 'events', State>;

// A database that does not answer this fast counts as down: a load balancer must not hang here.
const DATABASE_TIMEOUT_MS = 2_000;

async function databaseState(deps: Pick<Deps, 'database'>): Promise<State> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<State>((resolve) => {
    timer = setTimeout(() => resolve('down'), DATABASE_TIMEOUT_MS);
  });
  const query = deps.database.pool.query('select 1').then(
    (): State => 'up',
    (): State => 'down',
  );
  try {
    return await Promise.race([query, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The dependencies a serving instance needs, as up or down: one `select 1` (at most 2 s) and two
 * flags already in memory (the broker link, the live-event listener). GET /api/v1/health and
 * /readyz (metrics/routes.ts) both answer from it.
 */
export async function dependencyStates(
  deps: Pick<Deps, 'database' | 'gateway' | 'bus'>,
): Promise<DependencyStates> {
  return {
    database: await databaseState(deps),
    broker: deps.gateway.link.connected ? 'up' : 'down',
    events: deps.bus.listening ? 'up' : 'down',
  };
}

/**
 * GET /api/v1/health, unauthenticated, for load balancers and operators: one `select 1` and two
 * flags already in memory, so it stays cheap. 200 `{code: 0, data: {status, database, broker,
 * events}}` when all is up; otherwise 503 with code 5 (database down) or 5070 (the broker link or
 * the live-event listener down) and the same states in `fields`. It names dependencies and their
 * state only: no addresses, versions or error texts.
 */
export async function healthCheck(deps: Deps, request: FastifyRequest, reply: FastifyReply) {
  const states = await dependencyStates(deps);
  reply.header('cache-control', 'no-store');
  if (Object.values(states).every((s) => s === 'up')) {
    return { code: 0 as const, data: { status: 'ok' as const, ...states } };
  }
  const code = states.database === 'down' ? Codes.DATABASE : Codes.DEPENDENCY_DOWN;
  return reply.status(503).send(errorBody(request, code, undefined, states));
}
