import type { DbOrTx } from '../db/client.ts';
import { auditLog } from '../db/schema.ts';

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

/** Invariant 2: call inside the same transaction as the write it records. */
export async function recordAudit(tx: DbOrTx, actor: Actor, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    accountId: actor.accountId,
    accountName: actor.account,
    projectId: entry.projectId ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId == null ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    requestId: actor.requestId ?? null,
  });
}
