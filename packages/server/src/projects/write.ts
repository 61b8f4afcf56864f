import { type Actor, type AuditEntry, recordAudits } from '../audit/audit.ts';
import type { Tx } from '../db/client.ts';
import type { Deps } from '../deps.ts';
import { type BusEvent, publishEvents } from '../events/bus.ts';
import {
  type LoadProjectAccessOptions,
  loadProjectAccess,
  type ProjectAccess,
  requireWritable,
} from './access.ts';

/**
 * The one write path of a project's data (invariant 2): one transaction that checks the caller may
 * write the project (access.ts, in the same transaction), runs the change, writes its audit rows
 * (before and after, at deps.now()) and queues its live events, which PostgreSQL delivers only if
 * the transaction commits. In-process follow-ups (afterCommit) run once it has.
 */

export interface ProjectWrite {
  tx: Tx;
  access: ProjectAccess;
  /** deps.now() once for the whole write: the audit rows and the change share it. */
  now: Date;
  audit(entry: Omit<AuditEntry, 'projectId'>): void;
  publish(event: BusEvent): void;
  afterCommit(fn: () => void): void;
}

export interface WriteCaller extends Actor {
  accountId: number;
}

export interface ProjectWriteOptions {
  /** Lock the project row ('share' keeps it from being deleted or handed over meanwhile). */
  lock?: LoadProjectAccessOptions['lock'];
  /** Skip requireWritable (owner-only writes check requireOwner themselves). */
  check?: (access: ProjectAccess) => ProjectAccess;
}

const WRITE_ATTEMPTS = 4;

/** SQLSTATE 40P01 (deadlock detected) or 40001 (serialization failure), through Drizzle's wrapping. */
export function isRetryableConflict(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (e.code === '40P01' || e.code === '40001') return true;
    e = e.cause as typeof e;
  }
  return false;
}

export async function withProjectWrite<T>(
  deps: Pick<Deps, 'database' | 'now'>,
  caller: WriteCaller,
  projectId: number,
  change: (write: ProjectWrite) => Promise<T>,
  options: ProjectWriteOptions = {},
): Promise<T> {
  const now = deps.now();
  let after: (() => void)[] = [];
  const attempt = () =>
    deps.database.db.transaction(async (tx) => {
      after = [];
      const loaded = await loadProjectAccess(tx, caller, projectId, { now, lock: options.lock });
      const access = (options.check ?? requireWritable)(loaded);
      const audits: AuditEntry[] = [];
      const events: BusEvent[] = [];
      const value = await change({
        tx,
        access,
        now,
        audit: (entry) => audits.push({ ...entry, projectId }),
        publish: (event) => events.push(event),
        afterCommit: (fn) => after.push(fn),
      });
      await recordAudits(tx, caller, audits, now);
      await publishEvents(tx, events);
      return value;
    });
  let result: T;
  for (let tries = 1; ; tries++) {
    try {
      result = await attempt();
      break;
    } catch (err) {
      // A deadlock (or serialisation failure) rolled the whole transaction back: nothing of it was
      // written, so it is run again (issue 16: concurrent saves of a project's devices while a bulk
      // action or a project-wide save locks the project row answered 500 "deadlock detected").
      if (tries >= WRITE_ATTEMPTS || !isRetryableConflict(err)) throw err;
    }
  }
  for (const fn of after) fn();
  return result;
}
