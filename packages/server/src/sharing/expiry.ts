import type { JobRunner } from '../jobs/runner.ts';
import { emitRevoked, notifyRevoked } from './events.ts';
import * as repo from './repository.ts';
import { auditFields } from './rules.ts';
import { SHARE_EXPIRE_JOB } from './service.ts';

/**
 * Timed shares end by themselves: a `share.expire` job is
 * due at the row's expiresAt (service.syncExpiryJob keeps it in step). access.ts already refuses
 * an expired row with 74 from that instant; the job removes the row, leaves an 'expired'
 * project_departures row (so access.ts keeps answering 74), writes the audit row and announces the
 * revocation (NOTIFY beacon_access + onMembershipRevoked) so open subscriptions close.
 * Idempotent: a share extended or removed in the meantime is left alone.
 */
export function registerSharingJobs(runner: JobRunner): void {
  runner.register(SHARE_EXPIRE_JOB, async ({ tx, now, job, afterCommit }) => {
    const { projectId, accountId } = job.payload as { projectId: number; accountId: number };
    const member = await repo.findMember(tx, projectId, accountId, true);
    if (!member || member.expiresAt === null || member.expiresAt.getTime() > now.getTime()) return;
    const listed = await repo.shareOf(tx, projectId, accountId);
    await repo.deleteMember(tx, projectId, accountId);
    await repo.deleteOpenInvitesFor(tx, projectId, accountId);
    await repo.recordDeparture(tx, projectId, accountId, 'expired', now);
    await repo.recordSystemAudit(tx, {
      projectId,
      action: 'expire',
      entity: 'share',
      entityId: String(accountId),
      before: auditFields(member, listed.account.account),
    });
    const event = { projectId, accountId, reason: 'expired' as const };
    await notifyRevoked(tx, event);
    afterCommit(() => emitRevoked([event]));
  });
}
