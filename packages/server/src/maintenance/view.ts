import {
  AppError,
  Codes,
  compareVersions,
  type MaintenanceView,
  modelInfo,
  RemoteManageState,
} from '@beacon/protocol';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Caller } from '../auth/principal.ts';
import { deviceCommands, devices, remoteSessions } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { selectDevices } from '../devices/row.ts';
import { toCommandView } from '../devices/views.ts';
import { loadProjectAccess } from '../projects/access.ts';
import { remotePath, stripSecrets } from './remote-holder.ts';
import { findSchedule, scheduleView } from './schedule.ts';

/** The maintenance tab of a device: schedule, firmware, remote management, recent commands. */
export async function maintenanceView(
  deps: Deps,
  caller: Caller,
  projectId: number,
  sn: string,
): Promise<MaintenanceView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const [device] = await selectDevices(db).where(
    and(eq(devices.projectId, projectId), eq(devices.sn, sn.toUpperCase())),
  );
  if (!device) throw new AppError(Codes.DEVICE_DELETED, 'The device is not in this project');
  const info = modelInfo(device.model);
  const current = device.firmware;
  const available = info
    ? info.firmware.filter((v) => current === null || compareVersions(v, current) > 0)
    : [];
  const schedule = await findSchedule(db, device.sn);
  const now = deps.now();
  const [session] = await db
    .select()
    .from(remoteSessions)
    .where(
      and(
        eq(remoteSessions.sn, device.sn),
        eq(remoteSessions.accountId, caller.accountId),
        isNull(remoteSessions.closedAt),
        gt(remoteSessions.expiresAt, now),
      ),
    )
    .orderBy(desc(remoteSessions.createdAt))
    .limit(1);
  const reported = (device.remote as { state?: string } | null)?.state ?? RemoteManageState.CLOSED;
  const state = (
    [
      RemoteManageState.CLOSED,
      RemoteManageState.OBTAINING_URL,
      RemoteManageState.OPEN,
      RemoteManageState.FAILED,
    ] as string[]
  ).includes(reported)
    ? (reported as MaintenanceView['remote']['state'])
    : RemoteManageState.CLOSED;
  const open = state === RemoteManageState.OPEN && session;
  const commands = await db
    .select()
    .from(deviceCommands)
    .where(eq(deviceCommands.sn, device.sn))
    .orderBy(desc(deviceCommands.createdAt))
    .limit(20);
  return {
    sn: device.sn,
    schedule: schedule ? scheduleView(schedule) : null,
    firmware: { current, latest: info ? info.firmware[info.firmware.length - 1] : null, available },
    remote: {
      state,
      url: open ? remotePath(session.token) : null,
      expiresAt: open ? session.expiresAt.toISOString() : null,
    },
    // The one CommandView of a row (devices/views.ts: every secret a reply carried left out); the
    // device's own page address stays on the server here too, as it always has in this tab.
    commands: commands.map((c) => {
      const view = toCommandView(c);
      return { ...view, data: view.data ? stripSecrets(view.data) : null };
    }),
  };
}
