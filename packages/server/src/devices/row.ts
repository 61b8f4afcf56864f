import { eq, getTableColumns } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { deviceState, devices } from '../db/schema.ts';

/**
 * A device as most code reads it: its inventory row and its reported state (docs/decisions/0031).
 * Every device has a state row (a trigger inserts it), so the inner join never hides a device.
 */
export type DeviceRow = typeof devices.$inferSelect & Omit<typeof deviceState.$inferSelect, 'sn'>;

const { sn: _sn, ...stateColumns } = getTableColumns(deviceState);

export const deviceRowColumns = { ...getTableColumns(devices), ...stateColumns };

/** The columns of DeviceRow each table holds, for writes that split a merged row. */
export const STATE_KEYS = Object.keys(stateColumns) as (keyof typeof stateColumns)[];

/** `select … from devices join device_state`, answering DeviceRow; add where/order/for as usual. */
export function selectDevices(db: DbOrTx) {
  return db.select(deviceRowColumns).from(devices).innerJoin(deviceState, eq(deviceState.sn, devices.sn));
}
