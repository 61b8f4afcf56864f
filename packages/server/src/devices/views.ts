import {
  type CommandState,
  type CommandView,
  type DeviceDetailView,
  type DeviceType,
  type DeviceView,
  deviceStatusDisplay,
  redactSecrets,
  toSimpleStatus,
} from '@beacon/protocol';
import type { deviceCommands } from '../db/schema.ts';
import { finalOutcomeOf } from '../gateway/outcomes.ts';

export type { DeviceRow } from './row.ts';

import type { DeviceRow } from './row.ts';

type CommandRow = typeof deviceCommands.$inferSelect;

/** The name shown when the administrator gave none: model and the SN's last 6 characters. */
export const defaultDeviceName = (model: string, sn: string): string => `${model}-${sn.slice(-6)}`;

export function toDeviceView(row: DeviceRow): DeviceView {
  const poe =
    row.poeTotal !== null && row.poeTotal > 0
      ? { total: row.poeTotal, used: row.poeUsed ?? 0, remaining: row.poeRemaining ?? row.poeTotal }
      : null;
  return {
    sn: row.sn,
    name: row.name || defaultDeviceName(row.model, row.sn),
    remark: row.remark,
    model: row.model,
    type: row.type as DeviceType,
    mac: row.mac,
    firmware: row.firmware,
    hardware: row.hardware,
    ip: row.ip,
    status: row.status,
    statusDisplay: deviceStatusDisplay(row.status),
    simpleStatus: toSimpleStatus(row.status),
    operation: row.operation,
    progress: row.progress,
    managementMode: row.managementMode,
    deviceMode: row.deviceMode,
    meshRole: row.meshRole,
    cpeMode: row.cpeMode,
    uplink: row.uplinkSn ? { sn: row.uplinkSn, port: row.uplinkPort } : null,
    ports: row.ports as DeviceView['ports'],
    portCount: row.portCount,
    clientCount: row.clientCount,
    dhcpClientCount: row.dhcpClientCount,
    poe,
    cpu: row.cpu,
    memory: row.memory,
    uptime: row.uptime,
    capabilities: row.capabilities,
    desiredRevision: row.desiredRevision,
    reportedRevision: row.reportedRevision,
    configStatus: row.configStatus as DeviceView['configStatus'],
    configCode: row.configCode,
    provisioned: row.firstSeenAt === null,
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    boundAt: row.boundAt?.toISOString() ?? null,
  };
}

export function toDeviceDetailView(row: DeviceRow): DeviceDetailView {
  return {
    ...toDeviceView(row),
    telemetry: (row.telemetry as Record<string, unknown> | null) ?? null,
    telemetryAt: row.telemetryAt?.toISOString() ?? null,
  };
}

/** Reply fields that grant access (the device's remote-management page token) never leave the server. */
function redactReply(data: unknown): Record<string, unknown> | null {
  if (!data || typeof data !== 'object') return null;
  return redactSecrets(data as Record<string, unknown>, { drop: true });
}

export function toCommandView(row: CommandRow): CommandView {
  return {
    id: row.id,
    sn: row.sn,
    name: row.name,
    state: row.state as CommandState,
    code: row.code,
    message: row.message,
    data: redactReply(row.data),
    account: row.accountName,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    final: finalOutcomeOf(row),
  };
}
