import type { DbOrTx } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';
import { insertRows } from '../gateway/batch.ts';

export interface Actor {
  /** null: the system itself (e.g. the gateway), named by `account`. */
  accountId: number | null;
  account: string;
  requestId?: string;
}

export interface AuditEntry {
  projectId?: number | null;
  action: 'create' | 'update' | 'delete' | string;
  entity: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
}

/** An audit row written by hand: its time is the service's deps.now() (tests move the clock). */
export interface TimedAuditEntry extends AuditEntry {
  at: Date;
}

const rowOf = (actor: Actor, entry: AuditEntry, at: Date) => ({
  accountId: actor.accountId,
  accountName: actor.account,
  projectId: entry.projectId ?? null,
  action: entry.action,
  entity: entry.entity,
  entityId: entry.entityId == null ? null : String(entry.entityId),
  before: entry.before ?? null,
  after: entry.after ?? null,
  requestId: actor.requestId ?? null,
  at,
});

/**
 * Invariant 2: call inside the same transaction as the write it records (or let withProjectWrite
 * do it for you).
 */
export async function recordAudit(tx: DbOrTx, actor: Actor, entry: TimedAuditEntry): Promise<void> {
  const { at, ...rest } = entry;
  await tx.insert(auditLog).values(rowOf(actor, rest, at));
}

const AUDIT_COLUMNS = [
  'accountId',
  'accountName',
  'projectId',
  'action',
  'entity',
  'entityId',
  'before',
  'after',
  'requestId',
  'at',
] as const;

/** Many audit rows in one statement (a bulk device action writes one per device). */
export async function recordAudits(
  tx: DbOrTx,
  actor: Actor,
  entries: readonly AuditEntry[],
  at: Date,
): Promise<void> {
  if (entries.length === 0) return;
  await insertRows(
    tx,
    auditLog,
    AUDIT_COLUMNS,
    entries.map((e) => rowOf(actor, e, at) as typeof auditLog.$inferInsert),
  );
}
