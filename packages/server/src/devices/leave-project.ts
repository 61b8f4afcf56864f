import { eq } from 'drizzle-orm';
import { type Actor, recordAudit } from '../audit/audit.ts';
import { dropClientsOf } from '../clients/ingest.ts';
import type { DbOrTx } from '../db/client.ts';
import { devices } from '../db/schema.ts';
import { publishEvent, publishEvents } from '../events/bus.ts';
import * as repo from './repository.ts';
import { unboundValues } from './service.ts';
import type { DeviceRow } from './views.ts';

/** What the audit row keeps of a device. */
export function deviceAuditFields(row: DeviceRow) {
  return { sn: row.sn, name: row.name, remark: row.remark, model: row.model, type: row.type };
}

/**
 * A device leaves its project in the caller's transaction: back to the unclaimed pool ('unbind')
 * or forgotten ('delete'), with its audit row and the `device.changed` (removed) live event — the
 * same for an administrator's removal and for the system's unbind after a first hello.
 */
export async function leaveProject(
  tx: DbOrTx,
  actor: Actor,
  device: DeviceRow,
  projectId: number,
  now: Date,
  how: { mode: 'unbind' | 'delete'; after?: unknown },
): Promise<void> {
  if (how.mode === 'delete') await repo.deleteDevice(tx, device.sn, now);
  else {
    await tx.update(devices).set(unboundValues(now)).where(eq(devices.sn, device.sn));
    // Its clients leave the project's list with it (a deleted device's go by cascade). On a
    // savepoint: should their sessions not be written, the clients upkeep job removes them later.
    await tx
      .transaction(async (sp) => publishEvents(sp, await dropClientsOf(sp, [device.sn], now)))
      .catch(() => {});
  }
  await recordAudit(tx, actor, {
    at: now,
    projectId,
    action: how.mode,
    entity: 'device',
    entityId: device.sn,
    before: deviceAuditFields(device),
    ...(how.after === undefined ? {} : { after: how.after }),
  });
  await publishEvent(tx, {
    type: 'device.changed',
    projectId,
    sn: device.sn,
    change: 'removed',
    at: now.toISOString(),
  });
}
