import { z } from 'zod';
import { macSchema } from '../device/messages.ts';
import { isFirmwareVersion } from '../device/models.ts';
import { CpeMode, RemoteManageState } from '../enums/device.ts';
import { LIMITS } from '../enums/limits.ts';
import { Codes } from '../errors.ts';
import { validateDevicePassword, validateRebootDays } from '../validators/device.ts';
import { type Check, invalid } from '../validators/result.ts';
import { checked } from '../validators/zod.ts';
import { CommandView, SerialNumber } from './devices.ts';
import { Id } from './ids.ts';

/**
 * Device maintenance (SPEC.md §1 "Device maintenance", §4 rules, §9 durations):
 *
 *   POST /api/v1/projects/{id}/devices/{sn}/actions/{action}      body: the action's parameters
 *   POST /api/v1/projects/{id}/devices/actions/{action}           body: { sns: [...], params }
 *   GET  /api/v1/projects/{id}/devices/{sn}/maintenance           schedule, firmware, remote, history
 *   POST /api/v1/projects/{id}/firmware                           multipart `file` (.bin, ≤ 40 MB)
 *
 * The single form answers the device's result (or its code as an error); the bulk form always
 * answers one result per device.
 */

export const MaintenanceAction = {
  REBOOT: 'reboot',
  RESET: 'reset',
  UPGRADE: 'upgrade',
  PASSWORD: 'password',
  REBOOT_SCHEDULE: 'reboot-schedule',
  LOCATE: 'locate',
  COPY_CONFIG: 'copy-config',
  RATE_LIMIT: 'rate-limit',
  LED: 'led',
  POE_REBOOT: 'poe-reboot',
  LOCAL_MANAGEMENT: 'local-management',
  REMOTE_MANAGEMENT: 'remote-management',
  CPE_MODE: 'cpe-mode',
} as const;
export type MaintenanceAction = (typeof MaintenanceAction)[keyof typeof MaintenanceAction];
export const MAINTENANCE_ACTIONS = Object.values(MaintenanceAction) as [
  MaintenanceAction,
  ...MaintenanceAction[],
];

/** More ports than any switch has (the largest model has 28): a PoE port number is at most this. */
export const SWITCH_PORT_MAX = 64;

/** "HH:MM", 24-hour, in the project's time zone. */
export const TimeOfDay = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Enter a time as HH:MM');

export const RebootScheduleParams = z
  .object({
    enabled: z.boolean().default(true),
    /** 0 Sunday … 6 Saturday; at least one when enabled (SPEC.md §5). */
    days: z.array(z.int()).default([]),
    time: TimeOfDay.default('03:00'),
  })
  .strict()
  .superRefine((value, ctx) => {
    if (!value.enabled) return;
    const failure = validateRebootDays(value.days);
    if (failure)
      ctx.addIssue({
        code: 'custom',
        path: ['days'],
        message: failure.message,
        params: { code: failure.code },
      });
  });

/** The client a rate limit applies to (the form's rule; the body's schema is macSchema). */
export function validateClientMac(value: string): Check {
  return macSchema.safeParse(value).success
    ? null
    : invalid(Codes.FORM_DATA, 'Enter a MAC address as AA:BB:CC:DD:EE:FF');
}

/**
 * Every action body is strict: a field the API does not know is refused (16), never dropped
 * (issue 17: `rate-limit` with a `clientMac` it did not know became a device-wide limit).
 */
const empty = z.object({}).strict();

/** Parameters of each action. */
export const ACTION_PARAMS = {
  reboot: empty,
  reset: empty,
  /**
   * Either an uploaded image (firmwareId, from POST …/firmware: its version is read from the image)
   * or a catalogue version the device fetches itself.
   */
  upgrade: z
    .object({
      firmwareId: Id.optional(),
      version: z.string().trim().min(1).max(32).optional(),
    })
    .strict()
    .refine((v) => v.firmwareId !== undefined || v.version !== undefined, {
      message: 'Choose a firmware file or a version',
      path: ['firmwareId'],
    }),
  password: z.object({ password: checked(z.string().max(64), validateDevicePassword) }).strict(),
  'reboot-schedule': RebootScheduleParams,
  locate: z.object({ seconds: z.int().min(1).max(3600).default(60) }).strict(),
  /**
   * Copies one device's configuration to others of the same model. Single form: the path's device
   * is the source and `targets` the receivers; bulk form: `sns` are the receivers and `source` the source.
   */
  'copy-config': z
    .object({
      source: SerialNumber.optional(),
      targets: z.array(SerialNumber).max(LIMITS.DEVICES_PER_IMPORT).optional(),
    })
    .strict(),
  /**
   * kbit/s each way, 0 = unlimited. With `clientMac` the device limits that one client (its other
   * clients keep the device's limit); without it, the whole device.
   */
  'rate-limit': z
    .object({
      upKbps: z.int().min(0).max(10_000_000),
      downKbps: z.int().min(0).max(10_000_000),
      clientMac: macSchema.optional().describe('Limit only this client (AA:BB:CC:DD:EE:FF)'),
    })
    .strict(),
  led: z.object({ on: z.boolean() }).strict(),
  'poe-reboot': z
    .object({
      ports: z
        .array(z.int().min(1).max(SWITCH_PORT_MAX))
        .min(1, 'Choose at least one port')
        .max(SWITCH_PORT_MAX),
    })
    .strict(),
  'local-management': z.object({ enabled: z.boolean() }).strict(),
  'remote-management': z
    .object({
      enabled: z.boolean(),
      ttlSeconds: z.int().min(60).max(86_400).default(600),
    })
    .strict(),
  'cpe-mode': z.object({ mode: z.enum([CpeMode.AP, CpeMode.CLIENT]) }).strict(),
} as const satisfies Record<MaintenanceAction, z.ZodType>;
export type ActionParams<A extends MaintenanceAction> = z.output<(typeof ACTION_PARAMS)[A]>;
export type ActionParamsInput<A extends MaintenanceAction> = z.input<(typeof ACTION_PARAMS)[A]>;

/** About how long each action keeps the device busy (SPEC.md §9), seconds; 0 when instant. */
export const ACTION_SECONDS: Readonly<Record<MaintenanceAction, number>> = {
  reboot: LIMITS.REBOOT_SECONDS,
  reset: LIMITS.RESET_SECONDS,
  upgrade: LIMITS.UPGRADE_SECONDS,
  password: 0,
  'reboot-schedule': 0,
  locate: 0,
  'copy-config': LIMITS.CONFIG_SAVE_MAX_SECONDS,
  'rate-limit': 0,
  led: 0,
  'poe-reboot': LIMITS.POE_REBOOT_SECONDS,
  'local-management': 0,
  'remote-management': 0,
  'cpe-mode': LIMITS.MODE_SWITCH_SECONDS,
};

/** Actions that restart the device: refused while it restarts or upgrades (SPEC.md §4: 5046 / 71). */
export const RESTART_ACTIONS: readonly MaintenanceAction[] = ['reboot', 'reset', 'upgrade', 'cpe-mode'];

/** Most devices one bulk call may name. */
export const BULK_ACTION_MAX = 10_000;

export const BulkActionBody = z
  .object({
    sns: z.array(SerialNumber).min(1, 'Select a device').max(BULK_ACTION_MAX),
    /** The action's parameters: the single action's body (ACTION_PARAMS), strict the same way. */
    params: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();
export type BulkActionBody = z.input<typeof BulkActionBody>;

/** One device's result: code 0 success, else the catalogue code (36, 37, 38, 71, 76, 5046, …). */
export const ActionResultView = z.object({
  sn: z.string(),
  code: z.number().int(),
  message: z.string().nullable(),
  /** The recorded command (null when the action needs none, e.g. a reboot schedule). */
  commandId: z.string().nullable(),
  data: z.record(z.string(), z.unknown()).nullable(),
});
export type ActionResultView = z.infer<typeof ActionResultView>;

export const BulkActionView = z.object({
  results: z.array(ActionResultView),
  succeeded: z.number().int(),
  failed: z.number().int(),
});
export type BulkActionView = z.infer<typeof BulkActionView>;

export const RebootScheduleView = z.object({
  sn: z.string(),
  days: z.array(z.number().int()),
  time: z.string(),
  /** An IANA zone: the project's time zone when the schedule was saved. */
  timeZone: z.string(),
  nextRunAt: z.string(),
});
export type RebootScheduleView = z.infer<typeof RebootScheduleView>;

export const FirmwareView = z.object({
  id: z.number().int(),
  model: z.string(),
  version: z.string(),
  fileName: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  createdAt: z.string(),
});
export type FirmwareView = z.infer<typeof FirmwareView>;

export const RemoteSessionView = z.object({
  state: z.enum([
    RemoteManageState.CLOSED,
    RemoteManageState.OBTAINING_URL,
    RemoteManageState.OPEN,
    RemoteManageState.FAILED,
  ]),
  /** The server's expiring, authenticated address of the device's local page (open only). */
  url: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type RemoteSessionView = z.infer<typeof RemoteSessionView>;

/** GET …/devices/{sn}/maintenance. */
export const MaintenanceView = z.object({
  sn: z.string(),
  schedule: RebootScheduleView.nullable(),
  firmware: z.object({
    current: z.string().nullable(),
    latest: z.string().nullable(),
    /** Catalogue versions newer than the running one. */
    available: z.array(z.string()),
  }),
  remote: RemoteSessionView,
  /** The latest commands, newest first. */
  commands: z.array(CommandView),
});
export type MaintenanceView = z.infer<typeof MaintenanceView>;

// ── firmware image format ────────────────────────────────────────────────────

/**
 * A Beacon firmware image starts with a 64-byte header: the magic "BEACONFW" (8 bytes), the model
 * (32 bytes, ASCII, NUL-padded), the version (16 bytes, NUL-padded), 8 reserved bytes. The server
 * reads the model and version from it: an upload is checked by its content, not its name.
 */
export const FIRMWARE_MAGIC = 'BEACONFW';
export const FIRMWARE_HEADER_BYTES = 64;

export function parseFirmwareHeader(bytes: Uint8Array): { model: string; version: string } | null {
  if (bytes.length < FIRMWARE_HEADER_BYTES) return null;
  const ascii = (from: number, to: number) => {
    let s = '';
    for (let i = from; i < to && bytes[i] !== 0; i++) {
      if (bytes[i] < 0x20 || bytes[i] > 0x7e) return null;
      s += String.fromCharCode(bytes[i]);
    }
    return s;
  };
  if (ascii(0, 8) !== FIRMWARE_MAGIC) return null;
  const model = ascii(8, 40);
  const version = ascii(40, 56);
  if (!model || !version || !isFirmwareVersion(version)) return null;
  return { model, version };
}

/** Builds a firmware image (header + `payloadBytes` of filler): for tests, the simulator and demos. */
export function buildFirmwareImage(model: string, version: string, payloadBytes = 4096): Uint8Array {
  const out = new Uint8Array(FIRMWARE_HEADER_BYTES + payloadBytes);
  const put = (s: string, at: number, max: number) => {
    for (let i = 0; i < Math.min(s.length, max); i++) out[at + i] = s.charCodeAt(i);
  };
  put(FIRMWARE_MAGIC, 0, 8);
  put(model, 8, 32);
  put(version, 40, 16);
  for (let i = FIRMWARE_HEADER_BYTES; i < out.length; i++) out[i] = (i * 31 + 7) & 0xff;
  return out;
}

/**
 * The OpenAPI description of the action bodies (POST …/devices/{sn}/actions/{action} and the bulk
 * form's `params`): one schema per action, each strict. The route validates the body against the
 * action named in the path (ACTION_PARAMS); this is what the document shows.
 */
export function actionBodiesOpenApi(): Record<string, unknown> {
  return {
    description:
      'The parameters of the action named in the path: one of these, by action (title). A field the action does not know is refused with 16.',
    oneOf: MAINTENANCE_ACTIONS.map((action) => {
      const { $schema: _s, ...schema } = z.toJSONSchema(ACTION_PARAMS[action], {
        target: 'openapi-3.0',
        io: 'input',
        unrepresentable: 'any',
      }) as Record<string, unknown>;
      return { title: action, ...schema };
    }),
  };
}
