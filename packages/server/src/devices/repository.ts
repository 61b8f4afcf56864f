import { Codes, CommandState, type DeviceListQuery, errorMessage } from '@beacon/protocol';
import { and, asc, count, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';
import { pageWindow, withTotal } from '../db/paging.ts';
import { deviceCommands, deviceEvents, deviceState, devices } from '../db/schema.ts';
import { containsPattern } from '../projects/repository.ts';
import { type DeviceRow, selectDevices } from './row.ts';

/** Every filter of the device list (SPEC.md §3 search fields), scoped to one project. */
function listConditions(projectId: number, q: DeviceListQuery): SQL[] {
  const c: SQL[] = [eq(devices.projectId, projectId)];
  const like = (column: AnyPgColumn, text: string) => sql`${column} ilike ${containsPattern(text)}`;
  if (q.q) {
    const p = containsPattern(q.q);
    c.push(
      sql`(${devices.name} ilike ${p} or ${devices.remark} ilike ${p} or ${devices.sn} ilike ${p}
        or ${devices.mac} ilike ${p} or ${deviceState.ip} ilike ${p} or ${devices.model} ilike ${p})`,
    );
  }
  if (q.ip) c.push(like(deviceState.ip, q.ip));
  if (q.model) c.push(like(devices.model, q.model));
  if (q.mac) {
    // Accept AA:BB, aa-bb or aabb.
    const hex = q.mac.replace(/[^0-9a-fA-F]/g, '');
    c.push(sql`replace(${devices.mac}, ':', '') ilike ${containsPattern(hex)}`);
  }
  if (q.name) {
    const p = containsPattern(q.name);
    // Devices without a name of their own show "model-SNtail".
    c.push(
      sql`(case when ${devices.name} = '' then ${devices.model} || '-' || right(${devices.sn}, 6) else ${devices.name} end) ilike ${p}`,
    );
  }
  if (q.port !== undefined) c.push(eq(deviceState.portCount, q.port));
  if (q.vlan !== undefined) {
    const v = JSON.stringify({ v: q.vlan });
    const doc = sql`coalesce(${devices.desiredConfig}, '{}'::jsonb)`;
    c.push(
      sql`(jsonb_path_exists(${doc}, '$.vlans[*] ? (@.id == $v)'::jsonpath, ${v}::jsonb)
        or jsonb_path_exists(${doc}, '$.ports[*] ? (@.pvid == $v || @.tagged[*] == $v)'::jsonpath, ${v}::jsonb))`,
    );
  }
  if (q.type) c.push(eq(devices.type, q.type));
  if (q.status === 'online') c.push(sql`${deviceState.status} not in (0, 9)`);
  else if (q.status === 'offline') c.push(sql`${deviceState.status} in (0, 9)`);
  else if (typeof q.status === 'number') c.push(eq(deviceState.status, q.status));
  return c;
}

const SORTS = {
  name: sql`lower(case when ${devices.name} = '' then ${devices.model} || '-' || right(${devices.sn}, 6) else ${devices.name} end)`,
  sn: sql`${devices.sn}`,
  model: sql`${devices.model}`,
  type: sql`${devices.type}`,
  ip: sql`${deviceState.ip}`,
  mac: sql`${devices.mac}`,
  status: sql`${deviceState.status}`,
  clientCount: sql`${deviceState.clientCount}`,
  lastSeenAt: sql`${deviceState.lastSeenAt}`,
  boundAt: sql`${devices.boundAt}`,
} as const;

export async function listProjectDevices(
  db: DbOrTx,
  projectId: number,
  q: DeviceListQuery,
): Promise<{ rows: DeviceRow[]; total: number }> {
  const where = and(...listConditions(projectId, q));
  const direction = q.order === 'desc' ? desc : asc;
  const [rows, total] = await Promise.all([
    // The SN breaks ties in the same direction, so the default order (name) reads its index
    // (migration 0034) forwards or backwards.
    selectDevices(db)
      .where(where)
      .orderBy(direction(SORTS[q.sort]), direction(devices.sn))
      .limit(q.pageSize)
      .offset((q.page - 1) * q.pageSize),
    keptTotal(db, projectId, q) ??
      db
        .select({ n: count() })
        .from(devices)
        .innerJoin(deviceState, eq(deviceState.sn, devices.sn))
        .where(where)
        .then(([counted]) => counted.n),
  ]);
  return { rows, total };
}

/**
 * The list's total from the kept counts (migration 0030: online and offline per project and type)
 * when it is filtered by type and online/offline at most — the screen as it opens, and its status
 * tabs. Counting the rows instead grows with the project (~0.5 s at 100,000 devices). Null when
 * another filter applies: those are counted.
 */
function keptTotal(db: DbOrTx, projectId: number, q: DeviceListQuery): Promise<number> | null {
  const others = [q.q, q.ip, q.model, q.name, q.mac, q.port, q.vlan].some((v) => v !== undefined && v !== '');
  if (others || typeof q.status === 'number') return null;
  const column =
    q.status === 'online' ? sql`online` : q.status === 'offline' ? sql`offline` : sql`online + offline`;
  return db
    .execute<{ n: string | null }>(
      sql`select sum(${column}) as n from device_count_deltas
        where project_id = ${projectId} ${q.type ? sql`and type = ${q.type}` : sql``}`,
    )
    .then((r) => Number((r as unknown as { rows: { n: string | null }[] }).rows[0]?.n ?? 0));
}

/** A device of the project, or undefined (another project's device is as invisible as a missing one). */
export async function findProjectDevice(
  db: DbOrTx,
  projectId: number,
  sn: string,
  lock = false,
): Promise<DeviceRow | undefined> {
  const query = selectDevices(db).where(and(eq(devices.projectId, projectId), eq(devices.sn, sn)));
  // The inventory row is the device's lock; its state row is written after it (docs/decisions/0031).
  const rows = lock ? await query.for('update', { of: devices }) : await query;
  return rows[0];
}

export async function lockDevice(db: DbOrTx, sn: string): Promise<DeviceRow | undefined> {
  const [row] = await selectDevices(db).where(eq(devices.sn, sn)).for('update', { of: devices });
  return row;
}

/** Counts of the project's devices by the 5008 rule's kinds, leaving out `exceptSn`. */
export async function gatewayCounts(
  db: DbOrTx,
  projectId: number,
  exceptSn: string,
): Promise<{ gateways: number; meshRouters: number }> {
  const [row] = await db
    .select({
      gateways: sql<number>`count(*) filter (where ${devices.type} = 'router')`.mapWith(Number),
      meshRouters:
        sql<number>`count(*) filter (where ${devices.type} = 'mesh' and (${deviceState.meshRole} = 'primary' or ${deviceState.deviceMode} = 0))`.mapWith(
          Number,
        ),
    })
    .from(devices)
    .innerJoin(deviceState, eq(deviceState.sn, devices.sn))
    .where(and(eq(devices.projectId, projectId), ne(devices.sn, exceptSn)));
  return row;
}

/** Commands of the project by id (sent while their device was in it). */
export async function projectCommandsByIds(
  db: DbOrTx,
  projectId: number,
  ids: readonly string[],
): Promise<(typeof deviceCommands.$inferSelect)[]> {
  return db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.projectId, projectId), inArray(deviceCommands.id, [...ids])))
    .orderBy(asc(deviceCommands.sn));
}

export async function deviceCommandsOf(
  db: DbOrTx,
  sn: string,
  page: number,
  pageSize: number,
): Promise<{ rows: (typeof deviceCommands.$inferSelect)[]; total: number }> {
  const where = eq(deviceCommands.sn, sn);
  const { limit, offset } = pageWindow({ page, pageSize });
  return withTotal(
    db
      .select()
      .from(deviceCommands)
      .where(where)
      .orderBy(desc(deviceCommands.createdAt), desc(deviceCommands.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(deviceCommands).where(where),
  );
}

/** Forgets a device: its row, its events and its finished commands (in-flight ones end with 410 first). */
export async function deleteDevice(db: DbOrTx, sn: string, now: Date): Promise<void> {
  await db
    .update(deviceCommands)
    .set({
      state: CommandState.FAILED,
      code: Codes.DEVICE_DELETED,
      message: errorMessage(Codes.DEVICE_DELETED),
      finishedAt: now,
    })
    .where(and(eq(deviceCommands.sn, sn), eq(deviceCommands.state, CommandState.SENT)));
  await db.delete(deviceEvents).where(eq(deviceEvents.sn, sn));
  await db.delete(devices).where(eq(devices.sn, sn));
}
