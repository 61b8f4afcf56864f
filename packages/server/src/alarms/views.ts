import {
  ALARM_DEFAULTS,
  type AlarmDeliveryView,
  type AlarmKind,
  type AlarmSettingsView,
  type AlarmView,
  type MaintenanceWindowView,
} from '@beacon/protocol';
import type { alarmDeliveries, alarmSettings, alarms, alarmWindows } from '../db/schema.ts';

type AlarmRow = typeof alarms.$inferSelect;

export function toAlarmView(row: AlarmRow, project: string): AlarmView {
  return {
    id: row.id,
    projectId: row.projectId,
    at: row.raisedAt.toISOString(),
    kind: row.kind as AlarmKind,
    event: row.message,
    level: row.level === 'critical' ? 'critical' : 'warning',
    sn: row.sn,
    mac: row.mac,
    model: row.model,
    name: row.name,
    project,
    read: row.read === 1 ? 1 : 0,
    count: row.count,
    lastAt: row.lastAt.toISOString(),
    clearedAt: row.clearedAt?.toISOString() ?? null,
  };
}

export function toSettingsView(row: typeof alarmSettings.$inferSelect | undefined): AlarmSettingsView {
  return {
    emails: row?.emails ?? [],
    webhookUrl: row?.webhookUrl ?? null,
    webhookSecretSet: Boolean(row?.webhookSecret),
    offlineMinutes: row?.offlineMinutes ?? ALARM_DEFAULTS.offlineMinutes,
    cpuPercent: row?.cpuPercent ?? ALARM_DEFAULTS.cpuPercent,
    memoryPercent: row?.memoryPercent ?? ALARM_DEFAULTS.memoryPercent,
  };
}

export function toDeliveryView(
  row: typeof alarmDeliveries.$inferSelect & { kind: string; sn: string },
): AlarmDeliveryView {
  return {
    id: row.id,
    alarmId: row.alarmId,
    kind: row.kind as AlarmKind,
    sn: row.sn,
    channel: row.channel === 'email' ? 'email' : 'webhook',
    target: row.target,
    state: row.state as AlarmDeliveryView['state'],
    attempts: row.attempts,
    responseStatus: row.responseStatus,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
  };
}

export function toWindowView(row: typeof alarmWindows.$inferSelect): MaintenanceWindowView {
  return {
    id: row.id,
    sns: row.sns,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
  };
}
