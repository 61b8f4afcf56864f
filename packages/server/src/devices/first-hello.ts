import { AppError, EventLevel } from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';
import { deviceEvents, projects } from '../db/schema.ts';
import { ensureEventDay } from '../logs/device-events.ts';
import { leaveProject } from './leave-project.ts';
import * as repo from './repository.ts';
import { checkNetMode, checkOneGateway, takesGatewayPlace } from './service.ts';
import type { DeviceRow } from './views.ts';

/**
 * A device added by SN before it ever connected (pre-provisioned, with a catalogue model) was
 * checked against its project's rules with the model it was given. Its first hello says what it
 * really is. When that breaks the project's rules — a cable-free device in a WLAN project or the
 * reverse (93), a second gateway or cable-free router (5008) — the device goes back to the pool:
 * unbound, with a critical `project-rules` event in the project's log, an audit row by the system
 * and a `device.changed` (removed) live event (docs/decisions/0011-pre-provisioned-device-mismatch.md).
 * A different model that keeps the rules (one AP model for another) is simply taken as reported.
 */

export const PROJECT_RULES_EVENT = 'project-rules';
const SYSTEM = { accountId: null, account: 'system' };

/** The first hello of a device is the one that set its firstSeenAt (ingest stamps both alike). */
function isFirstHello(row: DeviceRow): boolean {
  return (
    row.firstSeenAt !== null &&
    row.lastSeenAt !== null &&
    row.firstSeenAt.getTime() === row.lastSeenAt.getTime()
  );
}

function netModeAllows(project: Parameters<typeof checkNetMode>[0], type: string): boolean {
  try {
    checkNetMode(project, type);
    return true;
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
}

/** Answers the row to carry on with, or null when the device was sent back to the pool. */
export async function checkFirstHello(
  database: Database,
  row: DeviceRow,
  now: Date,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<DeviceRow | null> {
  if (row.projectId === null || !isFirstHello(row)) return row;
  const projectId = row.projectId;
  // Nearly every first hello breaks nothing, and a fleet's first connection is thousands of them
  // into one project: locking the project row for each serialised them (100,000 devices of one
  // project took over 8 minutes to come online, bench/RESULTS.md). A device that cannot take the
  // project's one gateway place is checked against the net mode alone, which never changes once
  // the project exists: no lock is needed to read it. The rest (and a refusal) take the locked path.
  if (!takesGatewayPlace(row)) {
    const [project] = await database.db.select().from(projects).where(eq(projects.id, projectId));
    if (project && netModeAllows(project, row.type)) return row;
  }
  // The project-rules event below lands in today's partition of device_events (docs/decisions/0036).
  await ensureEventDay(database, now);
  return database.db.transaction(async (tx) => {
    // The same lock order as adding a device (project row, then device row): the rules hold
    // against concurrent adds.
    const [project] = await tx.select().from(projects).where(eq(projects.id, projectId)).for('update');
    const current = await repo.lockDevice(tx, row.sn);
    if (!project || !current || current.projectId !== projectId) return current ?? null;
    let broken: AppError | null = null;
    try {
      checkNetMode(project, current.type);
      await checkOneGateway(tx, project, current);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      broken = err;
    }
    if (!broken) return current;
    const message =
      `${current.sn} connected as a ${current.model} (${current.type}), which this project cannot take: ` +
      `${broken.message} (${broken.code}). It was removed from the project and is unclaimed again.`;
    await tx
      .insert(deviceEvents)
      .values({
        sn: current.sn,
        projectId,
        eventId: `${PROJECT_RULES_EVENT}-${now.getTime()}`,
        at: now,
        event: PROJECT_RULES_EVENT,
        level: EventLevel.CRITICAL,
        message,
        data: { code: broken.code, model: current.model, type: current.type, meshRole: current.meshRole },
        receivedAt: now,
      })
      .onConflictDoNothing();
    await leaveProject(tx, SYSTEM, current, projectId, now, {
      mode: 'unbind',
      after: { reason: broken.code, message },
    });
    log.warn(
      { sn: current.sn, projectId, code: broken.code },
      'device breaks its project rules on first hello; unbound',
    );
    return null;
  });
}
