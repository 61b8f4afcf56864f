import {
  type AlarmDeliveryView,
  AlarmListQuery,
  type AlarmReadView,
  AlarmSettingsBody,
  type AlarmSettingsView,
  type AlarmView,
  AppError,
  Codes,
  MaintenanceWindowBody,
  type MaintenanceWindowView,
  MarkAlarmsReadBody,
  PageQuery,
  parseOrThrow,
  validateWebhookUrl,
} from '@beacon/protocol';
import { and, asc, count, desc, eq, gte, inArray, lte } from 'drizzle-orm';
import type { Caller } from '../auth/principal.ts';
import type { DbOrTx } from '../db/client.ts';
import { pageWindow, withTotal } from '../db/paging.ts';
import { alarmDeliveries, alarmSettings, alarms, alarmWindows } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { loadProjectAccess } from '../projects/access.ts';
import { withProjectWrite } from '../projects/write.ts';
import type { Secrets } from '../security/secrets.ts';
import { toAlarmView, toDeliveryView, toSettingsView, toWindowView } from './views.ts';

type Paged<T> = { items: T[]; total: number; page: number; pageSize: number };

/** The alarm API (docs/alarms.md): list, read state, delivery settings and outcomes, maintenance windows. */

export type AlarmDeps = Pick<Deps, 'database' | 'now' | 'config'> & { secrets: Secrets };

async function unreadOf(db: DbOrTx, projectId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(alarms)
    .where(and(eq(alarms.projectId, projectId), eq(alarms.read, 0)));
  return row.n;
}

export async function listAlarms(
  deps: AlarmDeps,
  caller: Caller,
  projectId: number,
  input: unknown,
): Promise<Paged<AlarmView>> {
  const query = parseOrThrow(AlarmListQuery, input);
  const { db } = deps.database;
  const access = await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const where = and(
    eq(alarms.projectId, projectId),
    query.from ? gte(alarms.raisedAt, new Date(query.from)) : undefined,
    query.to ? lte(alarms.raisedAt, new Date(query.to)) : undefined,
    query.kind ? eq(alarms.kind, query.kind) : undefined,
    query.sn ? eq(alarms.sn, query.sn.toUpperCase()) : undefined,
    query.read !== undefined ? eq(alarms.read, query.read) : undefined,
  );
  const order =
    query.order === 'asc' ? [asc(alarms.raisedAt), asc(alarms.id)] : [desc(alarms.raisedAt), desc(alarms.id)];
  const { limit, offset } = pageWindow(query);
  const { rows, total } = await withTotal(
    db
      .select()
      .from(alarms)
      .where(where)
      .orderBy(...order)
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(alarms).where(where),
  );
  return {
    items: rows.map((r) => toAlarmView(r, access.project.name)),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

export async function unreadCount(
  deps: AlarmDeps,
  caller: Caller,
  projectId: number,
): Promise<{ unread: number }> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  return { unread: await unreadOf(db, projectId) };
}

/** Marks the given alarms (or all of the project's) read; one audit row, the `alarm.read` event. */
export async function markRead(
  deps: AlarmDeps,
  caller: Caller,
  projectId: number,
  input: unknown,
  all: boolean,
): Promise<AlarmReadView> {
  const ids = all ? null : parseOrThrow(MarkAlarmsReadBody, input).ids;
  return withProjectWrite(deps, caller, projectId, async ({ tx, now, audit, publish }) => {
    const updated = await tx
      .update(alarms)
      .set({ read: 1, readAt: now, readBy: caller.accountId })
      .where(
        and(eq(alarms.projectId, projectId), eq(alarms.read, 0), ids ? inArray(alarms.id, ids) : undefined),
      )
      .returning({ id: alarms.id });
    const unread = await unreadOf(tx, projectId);
    audit({
      action: 'update',
      entity: 'alarm',
      entityId: all ? 'all' : ids!.slice(0, 20).join(','),
      before: { read: 0 },
      after: { read: 1, alarms: updated.map((r) => r.id) },
    });
    publish({ type: 'alarm.read', projectId, ids: all ? 'all' : updated.map((r) => r.id), unread });
    return { updated: updated.length, unread };
  });
}

export async function getSettings(
  deps: AlarmDeps,
  caller: Caller,
  projectId: number,
): Promise<AlarmSettingsView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const [row] = await db.select().from(alarmSettings).where(eq(alarmSettings.projectId, projectId));
  return toSettingsView(row);
}

export async function saveSettings(
  deps: AlarmDeps,
  caller: Caller,
  projectId: number,
  input: unknown,
): Promise<AlarmSettingsView> {
  const body = parseOrThrow(AlarmSettingsBody, input);
  if (body.webhookUrl) {
    const refused = validateWebhookUrl(body.webhookUrl, deps.config.alarmWebhookAllowPrivate);
    if (refused) throw new AppError(refused.code, refused.message, { webhookUrl: refused.message });
  }
  return withProjectWrite(deps, caller, projectId, async ({ tx, now, audit }) => {
    const [before] = await tx
      .select()
      .from(alarmSettings)
      .where(eq(alarmSettings.projectId, projectId))
      .for('update');
    const secret = body.webhookSecret
      ? deps.secrets.seal(body.webhookSecret)
      : (before?.webhookSecret ?? null);
    if (body.webhookUrl && !secret) {
      throw new AppError(Codes.WEBHOOK_SECRET_REQUIRED, undefined, {
        webhookSecret: 'Give a signing secret of at least 16 characters',
      });
    }
    const values = {
      emails: [...new Set(body.emails.map((e) => e.toLowerCase()))],
      webhookUrl: body.webhookUrl || null,
      webhookSecret: body.webhookUrl ? secret : null,
      offlineMinutes: body.offlineMinutes,
      cpuPercent: body.cpuPercent,
      memoryPercent: body.memoryPercent,
      updatedAt: now,
    };
    const [row] = await tx
      .insert(alarmSettings)
      .values({ projectId, ...values })
      .onConflictDoUpdate({ target: alarmSettings.projectId, set: values })
      .returning();
    const view = toSettingsView(row);
    audit({
      action: before ? 'update' : 'create',
      entity: 'alarm-settings',
      entityId: projectId,
      before: before ? toSettingsView(before) : null,
      after: view,
    });
    return view;
  });
}

export async function listDeliveries(
  deps: AlarmDeps,
  caller: Caller,
  projectId: number,
  input: unknown,
): Promise<Paged<AlarmDeliveryView>> {
  const query = parseOrThrow(PageQuery, input);
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const { limit, offset } = pageWindow(query);
  const where = eq(alarmDeliveries.projectId, projectId);
  const { rows, total } = await withTotal(
    db
      .select({ d: alarmDeliveries, kind: alarms.kind, sn: alarms.sn })
      .from(alarmDeliveries)
      .innerJoin(alarms, eq(alarms.id, alarmDeliveries.alarmId))
      .where(where)
      .orderBy(desc(alarmDeliveries.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(alarmDeliveries).where(where),
  );
  return {
    items: rows.map((r) => toDeliveryView({ ...r.d, kind: r.kind, sn: r.sn })),
    total,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** The project's windows that have not ended, soonest first. */
export async function listWindows(
  deps: AlarmDeps,
  caller: Caller,
  projectId: number,
): Promise<MaintenanceWindowView[]> {
  const { db } = deps.database;
  const now = deps.now();
  await loadProjectAccess(db, caller, projectId, { now });
  const rows = await db
    .select()
    .from(alarmWindows)
    .where(and(eq(alarmWindows.projectId, projectId), gte(alarmWindows.endsAt, now)))
    .orderBy(asc(alarmWindows.startsAt), asc(alarmWindows.id))
    .limit(500);
  return rows.map(toWindowView);
}

export async function addWindow(
  deps: AlarmDeps,
  caller: Caller,
  projectId: number,
  input: unknown,
): Promise<MaintenanceWindowView> {
  const body = parseOrThrow(MaintenanceWindowBody, input);
  return withProjectWrite(deps, caller, projectId, async ({ tx, now, audit }) => {
    const [row] = await tx
      .insert(alarmWindows)
      .values({
        projectId,
        sns: [...new Set(body.sns.map((s) => s.toUpperCase()))],
        startsAt: new Date(body.startsAt),
        endsAt: new Date(body.endsAt),
        reason: body.reason,
        createdAt: now,
        createdBy: caller.accountId,
      })
      .returning();
    const view = toWindowView(row);
    audit({ action: 'create', entity: 'alarm-window', entityId: row.id, after: view });
    return view;
  });
}

export async function removeWindow(
  deps: AlarmDeps,
  caller: Caller,
  projectId: number,
  windowId: number,
): Promise<{ id: number }> {
  return withProjectWrite(deps, caller, projectId, async ({ tx, audit }) => {
    const [row] = await tx
      .delete(alarmWindows)
      .where(and(eq(alarmWindows.projectId, projectId), eq(alarmWindows.id, windowId)))
      .returning();
    if (!row) throw new AppError(Codes.NOT_FOUND, 'The maintenance window does not exist');
    audit({ action: 'delete', entity: 'alarm-window', entityId: row.id, before: toWindowView(row) });
    return { id: row.id };
  });
}
