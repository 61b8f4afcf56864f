import { z } from 'zod';
import { DEVICE_TYPES, type DeviceType, SimpleStatus, StatusDisplay } from '../enums/device.ts';
import { validateSn } from '../validators/device.ts';
import { validateDeviceName, validateRemark } from '../validators/names.ts';
import { checked } from '../validators/zod.ts';
import { PageQuery } from './envelope.ts';

/**
 * The device inventory API (/api/v1/projects/{id}/devices) and the live events of
 * /api/v1/events. Device fields follow SPEC.md §3 "Device"; status codes and their display follow §4.
 */

const deviceType = z.enum(DEVICE_TYPES as [DeviceType, ...DeviceType[]]);

/** Serial number: 16 to 32 letters or digits (SPEC.md §5); compared case-insensitively, stored upper case. */
export const SerialNumber = checked(z.string().trim(), validateSn).transform((s) => s.toUpperCase());

/** Configuration status of a device (DESIGN.md invariant 3). */
export const DeviceConfigState = { PENDING: 'pending', APPLIED: 'applied', FAILED: 'failed' } as const;
export type DeviceConfigState = (typeof DeviceConfigState)[keyof typeof DeviceConfigState];

export const DevicePortView = z.object({
  id: z.number().int(),
  type: z.string(),
  enabled: z.boolean(),
  link: z.boolean(),
  speed: z.number().int().describe('Mbit/s, 0 when down'),
  duplex: z.string().nullable(),
  poe: z.object({ enabled: z.boolean(), power: z.number() }).nullable(),
  neighbour: z.string().nullable(),
});
export type DevicePortView = z.infer<typeof DevicePortView>;

export const DeviceView = z.object({
  sn: z.string(),
  /** Name (or remark) shown in lists; defaults to the model and the last SN characters. */
  name: z.string(),
  remark: z.string(),
  model: z.string(),
  type: deviceType,
  mac: z.string().nullable(),
  /** Software (firmware) version. */
  firmware: z.string().nullable(),
  hardware: z.string().nullable(),
  /** Local IP. */
  ip: z.string().nullable(),
  /** SPEC.md §4 status code (0 offline, 1 online, … 8 rebooting, 9 offline variant). */
  status: z.number().int(),
  statusDisplay: z.enum([StatusDisplay.ERROR, StatusDisplay.SUCCESS, StatusDisplay.WARNING]),
  simpleStatus: z.enum([
    SimpleStatus.OFFLINE,
    SimpleStatus.ONLINE,
    SimpleStatus.UPGRADE,
    SimpleStatus.REBOOT,
  ]),
  /** What the device is busy with (reboot, upgrade, apply-config, …), null when idle. */
  operation: z.string().nullable(),
  progress: z.number().int().nullable(),
  /** Management mode: 0 local, 1 cloud. */
  managementMode: z.number().int(),
  /** Device mode: 0 router, 1 Wi-Fi extend (mesh nodes); null when not reported. */
  deviceMode: z.number().int().nullable(),
  /** Cable-free mode: primary or secondary (mesh nodes). */
  meshRole: z.string().nullable(),
  cpeMode: z.string().nullable(),
  uplink: z.object({ sn: z.string(), port: z.number().int().nullable() }).nullable(),
  ports: z.array(DevicePortView),
  portCount: z.number().int(),
  clientCount: z.number().int(),
  dhcpClientCount: z.number().int(),
  /** PoE power in watts: total (budget), used and remaining; null for models without PoE. */
  poe: z.object({ total: z.number(), used: z.number(), remaining: z.number() }).nullable(),
  cpu: z.number().nullable(),
  memory: z.number().nullable(),
  uptime: z.number().int().nullable(),
  capabilities: z.array(z.string()),
  /** Configuration: the revision the server wants, the one the device runs, and the status. */
  desiredRevision: z.number().int(),
  reportedRevision: z.number().int(),
  configStatus: z.enum([DeviceConfigState.PENDING, DeviceConfigState.APPLIED, DeviceConfigState.FAILED]),
  configCode: z.number().int().nullable(),
  /** Never connected yet: added by serial number and model (pre-provisioned). */
  provisioned: z.boolean(),
  lastSeenAt: z.string().nullable(),
  boundAt: z.string().nullable(),
});
export type DeviceView = z.infer<typeof DeviceView>;

/** GET …/devices/{sn}: the list fields plus the latest telemetry snapshot (its clients are the client list's). */
export const DeviceDetailView = DeviceView.extend({
  telemetry: z.record(z.string(), z.unknown()).nullable(),
  telemetryAt: z.string().nullable(),
});
export type DeviceDetailView = z.infer<typeof DeviceDetailView>;

export const DEVICE_SORTS = [
  'name',
  'sn',
  'model',
  'type',
  'ip',
  'mac',
  'status',
  'clientCount',
  'lastSeenAt',
  'boundAt',
] as const;

/**
 * GET /api/v1/projects/{id}/devices. The SPEC.md §3 search fields each filter on their own
 * (case-insensitive "contains" for ip, model, name, mac; exact for port and vlan):
 * - port: devices with that many ports (e.g. 8 or 24);
 * - vlan: devices whose configuration carries that VLAN id (vlans, port PVIDs or tagged lists);
 * q searches name, remark, SN, MAC, IP and model at once.
 */
export const DeviceListQuery = PageQuery.extend({
  q: z.string().trim().max(64).optional(),
  ip: z.string().trim().max(64).optional(),
  model: z.string().trim().max(64).optional(),
  name: z.string().trim().max(64).optional(),
  mac: z.string().trim().max(64).optional(),
  port: z.coerce.number().int().min(0).max(1024).optional(),
  vlan: z.coerce.number().int().min(1).max(4094).optional(),
  type: deviceType.optional(),
  /** online: any reachable status; offline: 0 or 9; or a status code. */
  status: z.union([z.enum(['online', 'offline']), z.coerce.number().int().min(0).max(9)]).optional(),
  sort: z.enum(DEVICE_SORTS).default('name'),
  order: z.enum(['asc', 'desc']).default('asc'),
});
export type DeviceListQuery = z.infer<typeof DeviceListQuery>;

/**
 * POST /api/v1/projects/{id}/devices. A device that has connected once is added by its SN alone
 * (its model comes from its hello). A device that never connected may be pre-provisioned: give its
 * catalogue model too.
 */
export const AddDeviceBody = z.object({
  sn: SerialNumber,
  model: z.string().trim().min(1).max(32).optional(),
  name: checked(z.string().trim(), validateDeviceName).optional(),
  remark: checked(z.string().trim(), validateRemark).optional(),
});
export type AddDeviceBody = z.input<typeof AddDeviceBody>;

/** PATCH /api/v1/projects/{id}/devices/{sn}: rename and remarks; neither may be empty (SPEC.md §5). */
export const UpdateDeviceBody = z
  .object({
    name: checked(z.string(), validateDeviceName),
    remark: checked(z.string(), validateRemark),
  })
  .partial()
  .strict()
  .refine((b) => b.name !== undefined || b.remark !== undefined, 'Give a name or a remark');
export type UpdateDeviceBody = z.infer<typeof UpdateDeviceBody>;

/**
 * DELETE /api/v1/projects/{id}/devices/{sn}?mode=…
 * - unbind (default): the device leaves the project with its name, remark and desired configuration
 *   cleared; it stays known to Beacon and can be added to any project again;
 * - delete: Beacon also forgets the device (its record, telemetry and command history). A device
 *   that is still powered on reappears as an unclaimed device at its next message.
 */
export const RemoveDeviceQuery = z.object({ mode: z.enum(['unbind', 'delete']).default('unbind') });
export type RemoveDeviceQuery = z.infer<typeof RemoveDeviceQuery>;

export const RemovedDeviceView = z.object({ sn: z.string(), mode: z.enum(['unbind', 'delete']) });

/** Result of one import row. */
export const ImportRowResult = {
  ADDED: 'added',
  INVALID: 'invalid',
  BOUND: 'bound',
  WRONG_TYPE: 'wrong_type',
} as const;
export type ImportRowResult = (typeof ImportRowResult)[keyof typeof ImportRowResult];

/**
 * POST /api/v1/projects/{id}/devices/import (multipart, field `file`, xls or xlsx, at most 500 rows).
 * Row numbers are the spreadsheet's (the header is row 1). result: added; invalid (bad SN, unknown
 * model, duplicate in the file, never-connected device without a model); bound (already in a
 * project: 5005); wrong_type (93: mesh in a WLAN project or the reverse; 5008: a second gateway or
 * cable-free router).
 */
export const ImportRowView = z.object({
  row: z.number().int(),
  sn: z.string(),
  result: z.enum([
    ImportRowResult.ADDED,
    ImportRowResult.INVALID,
    ImportRowResult.BOUND,
    ImportRowResult.WRONG_TYPE,
  ]),
  code: z.number().int(),
  message: z.string(),
});
export type ImportRowView = z.infer<typeof ImportRowView>;

export const ImportResultView = z.object({
  total: z.number().int(),
  added: z.number().int(),
  rows: z.array(ImportRowView),
});
export type ImportResultView = z.infer<typeof ImportResultView>;

/** Columns of the import template (GET /api/v1/devices/import-template), in order. */
export const IMPORT_COLUMNS = ['Serial number', 'Model', 'Name', 'Remark'] as const;

/** Outcome of a device command (DESIGN.md invariant 4): exactly one per command. */
export const CommandState = {
  SENT: 'sent',
  SUCCESS: 'success',
  FAILED: 'failed',
  TIMEOUT: 'timeout',
} as const;
export type CommandState = (typeof CommandState)[keyof typeof CommandState];

/**
 * What became of a command the device accepted and then carries out (reboot, reset, upgrade): the
 * reply only says it started. pending until the device reports the end — done (back online; for an
 * upgrade, with the new version), failed (5111), or timeout (5110, the away watchdog gave up).
 */
export const FinalState = {
  PENDING: 'pending',
  DONE: 'done',
  FAILED: 'failed',
  TIMEOUT: 'timeout',
} as const;
export type FinalState = (typeof FinalState)[keyof typeof FinalState];
const finalState = z.enum([FinalState.PENDING, FinalState.DONE, FinalState.FAILED, FinalState.TIMEOUT]);

/** Commands whose success reply means "accepted" and that get a final outcome later. */
export const FOLLOWED_COMMANDS: readonly string[] = ['reboot', 'reset', 'upgrade'];

export const FinalOutcomeView = z.object({
  state: finalState,
  /** null while pending; 0 done; else 5110 or 5111. */
  code: z.number().int().nullable(),
  message: z.string().nullable(),
  at: z.string().nullable(),
});
export type FinalOutcomeView = z.infer<typeof FinalOutcomeView>;

export const CommandView = z.object({
  id: z.string(),
  sn: z.string(),
  name: z.string(),
  state: z.enum([CommandState.SENT, CommandState.SUCCESS, CommandState.FAILED, CommandState.TIMEOUT]),
  /** null while sent; 0 success; else the catalogue code (36 offline, 5025 timeout, or the device's). */
  code: z.number().int().nullable(),
  message: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
  account: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  /** The later outcome of an accepted reboot, reset or upgrade (null for other commands and refusals). */
  final: FinalOutcomeView.nullable(),
});
export type CommandView = z.infer<typeof CommandView>;

/** Most commands one GET …/commands?ids= may name. */
export const COMMAND_IDS_MAX = 200;

/** GET /api/v1/projects/{id}/commands?ids=a,b — commands of the project by id (a bulk action's results). */
export const CommandIdsQuery = z.object({
  ids: z
    .string()
    .max(COMMAND_IDS_MAX * 40)
    .transform((s) => s.split(',').filter((x) => x !== ''))
    .pipe(z.array(z.string().uuid('Not a command id')).min(1).max(COMMAND_IDS_MAX)),
});
export type CommandIdsQuery = z.input<typeof CommandIdsQuery>;

/**
 * Messages of the WebSocket /api/v1/events (server → browser). Each names its project; the socket
 * receives only events of projects the account may see at that moment.
 */
export const LiveEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('hello'), accountId: z.number().int() }),
  z.object({
    type: z.literal('device.status'),
    projectId: z.number().int(),
    sn: z.string(),
    status: z.number().int(),
    previous: z.number().int().nullable(),
    operation: z.string().nullable(),
    progress: z.number().int().nullable(),
    configStatus: z.string().nullable(),
    at: z.string(),
  }),
  z.object({
    type: z.literal('device.changed'),
    projectId: z.number().int(),
    sn: z.string(),
    change: z.enum(['added', 'removed', 'updated']),
    at: z.string(),
  }),
  z.object({
    type: z.literal('command'),
    projectId: z.number().int(),
    sn: z.string(),
    id: z.string(),
    name: z.string(),
    state: z.enum([CommandState.SENT, CommandState.SUCCESS, CommandState.FAILED, CommandState.TIMEOUT]),
    code: z.number().int().nullable(),
    message: z.string().nullable(),
    at: z.string(),
  }),
  z.object({
    type: z.literal('command.final'),
    projectId: z.number().int(),
    sn: z.string(),
    id: z.string(),
    name: z.string(),
    final: FinalOutcomeView,
  }),
  // Alarms (server src/alarms/): a new incident, and read-state changes with the unread count after them.
  z.object({
    type: z.literal('alarm'),
    projectId: z.number().int(),
    id: z.number().int(),
    sn: z.string(),
    kind: z.string(),
    at: z.string(),
  }),
  z.object({
    type: z.literal('alarm.read'),
    projectId: z.number().int(),
    ids: z.union([z.array(z.number().int()), z.literal('all')]),
    unread: z.number().int(),
  }),
  /** A device reported an event (or the server recorded one about it): the Log screen adds the row. */
  z.object({
    type: z.literal('device.event'),
    projectId: z.number().int(),
    sn: z.string(),
    id: z.number().int(),
    event: z.string(),
    level: z.string(),
    message: z.string(),
    at: z.string(),
  }),
  /** New device statistics were stored for the project (throttled per project; stats/ingest). */
  z.object({ type: z.literal('stats.updated'), projectId: z.number().int(), at: z.string() }),
  /** Links the project's devices report changed (a neighbour came, went or changed speed; topology). Empty `sns`: many. */
  z.object({
    type: z.literal('topology.changed'),
    projectId: z.number().int(),
    sns: z.array(z.string()),
    at: z.string(),
  }),
  z.object({
    type: z.literal('clients.changed'),
    projectId: z.number().int(),
    /** Devices whose client list changed (telemetry, force offline); empty for a blacklist change. */
    sns: z.array(z.string()),
    at: z.string(),
  }),
]);
export type LiveEvent = z.infer<typeof LiveEvent>;
