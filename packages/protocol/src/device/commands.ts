import { z } from 'zod';
import { CpeMode } from '../enums/device.ts';
import { LIMITS } from '../enums/limits.ts';
import { Codes, type ErrorCode } from '../errors.ts';
import { validateDevicePassword } from '../validators/device.ts';
import { checked } from '../validators/zod.ts';
import { deviceConfigSchema } from './config.ts';
import { macSchema } from './messages.ts';
import { Capability, isFirmwareVersion } from './models.ts';

/** Commands the server sends on `dev/{sn}/down/cmd`. Each carries an id and gets exactly one reply. */
export const CommandName = {
  REBOOT: 'reboot',
  RESET: 'reset',
  UPGRADE: 'upgrade',
  SET_PASSWORD: 'set-password',
  LOCATE: 'locate',
  LED: 'led',
  RATE_LIMIT: 'rate-limit',
  POE_REBOOT: 'poe-reboot',
  SET_MODE: 'set-mode',
  LOCAL_MANAGEMENT: 'local-management',
  REMOTE_MANAGEMENT_OPEN: 'remote-management-open',
  REMOTE_MANAGEMENT_CLOSE: 'remote-management-close',
  APPLY_CONFIG: 'apply-config',
  GET_CONFIG: 'get-config',
  KICK_CLIENT: 'kick-client',
  ROUTE_TABLE: 'route-table',
} as const;
export type CommandName = (typeof CommandName)[keyof typeof CommandName];
export const COMMAND_NAMES: readonly CommandName[] = Object.values(CommandName);

const empty = z.object({});

/** Parameters of each command. */
export const COMMAND_PARAMS = {
  reboot: empty,
  /** Back to factory settings: configuration revision 0, password and modes to defaults. */
  reset: empty,
  /**
   * With `url` (an image uploaded to the console): the device downloads it (HTTP GET, no other
   * credentials: the address is signed for this device and 15 minutes), checks `size`, `sha256`, the
   * image header (its model, `version`) and the Ed25519 `signature` of firmwareStatement, and flashes
   * only if all hold (docs/decisions/0061). Without `url`: a catalogue version the device fetches
   * from its maker (the simulator pretends).
   */
  upgrade: z.object({
    version: z.string().min(1).max(32).refine(isFirmwareVersion, 'A semantic version'),
    url: z.string().max(2048).optional(),
    size: z.int().min(1).max(LIMITS.FIRMWARE_MAX_BYTES).optional(),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    /** Base64 of the 64-byte Ed25519 signature of firmwareStatement({model, version, size, sha256}). */
    signature: z.string().max(128).optional(),
  }),
  'set-password': z.object({ password: checked(z.string().max(64), validateDevicePassword) }),
  locate: z.object({ seconds: z.int().min(1).max(3600).default(60) }),
  led: z.object({ on: z.boolean() }),
  /** kbit/s, 0 = unlimited; with clientMac it limits one client, else the whole device. */
  'rate-limit': z.object({
    upKbps: z.int().min(0).max(10_000_000),
    downKbps: z.int().min(0).max(10_000_000),
    clientMac: macSchema.optional(),
  }),
  'poe-reboot': z.object({ ports: z.array(z.int().min(1)).min(1) }),
  /** CPE between AP and client mode: clears the bridge group and restarts (SPEC.md §4, about 2 min). */
  'set-mode': z.object({ mode: z.enum([CpeMode.AP, CpeMode.CLIENT]) }),
  'local-management': z.object({ enabled: z.boolean() }),
  'remote-management-open': z.object({ ttlSeconds: z.int().min(30).max(86_400).default(600) }),
  'remote-management-close': empty,
  'apply-config': z.object({ revision: z.int().min(1), document: deviceConfigSchema }),
  'get-config': empty,
  'kick-client': z.object({ mac: macSchema }),
  /** The routes the gateway runs (connected, static, default); answered in the reply's data. */
  'route-table': empty,
} as const satisfies Record<CommandName, z.ZodType>;

export type CommandParams<N extends CommandName> = z.output<(typeof COMMAND_PARAMS)[N]>;
export type CommandParamsInput<N extends CommandName> = z.input<(typeof COMMAND_PARAMS)[N]>;

const commandBase = {
  id: z.string().min(1).max(64).describe('Unique per command; a repeated id gets the same reply again'),
  ts: z.int().min(0).optional(),
  /** The device refuses a command it receives after this time (ms epoch) with code 5025. */
  expiresAt: z.int().min(0).optional(),
};

function variant<N extends CommandName>(name: N) {
  return z.object({ ...commandBase, name: z.literal(name), params: COMMAND_PARAMS[name] });
}

export const commandSchema = z.discriminatedUnion('name', [
  variant('reboot'),
  variant('reset'),
  variant('upgrade'),
  variant('set-password'),
  variant('locate'),
  variant('led'),
  variant('rate-limit'),
  variant('poe-reboot'),
  variant('set-mode'),
  variant('local-management'),
  variant('remote-management-open'),
  variant('remote-management-close'),
  variant('apply-config'),
  variant('get-config'),
  variant('kick-client'),
  variant('route-table'),
]);
export type Command = z.output<typeof commandSchema>;
export type CommandInput = z.input<typeof commandSchema>;
export type CommandOf<N extends CommandName> = Extract<Command, { name: N }>;

/** Builds a command to publish (input form, params before defaults). */
export function makeCommand<N extends CommandName>(
  name: N,
  params: CommandParamsInput<N>,
  id: string,
  extra: { ts?: number; expiresAt?: number } = {},
): CommandInput {
  return { id, name, params, ts: extra.ts ?? Date.now(), ...extra } as CommandInput;
}

export interface CommandRule {
  /** The model must have it, else code 2 (model); null when every device can. */
  capability: Capability | null;
  /** Refused with 76 while the device is in local management mode. */
  cloudOnly: boolean;
  /** About how long the device is busy after accepting it (SPEC.md §9), seconds; 0 when instant. */
  seconds: number;
  /** Whether the device restarts (status 8 or, for upgrade, 3 and offline). */
  restarts: boolean;
}

/** The rules both sides apply to each command. */
export const COMMAND_RULES: Readonly<Record<CommandName, CommandRule>> = {
  reboot: { capability: Capability.REBOOT, cloudOnly: false, seconds: LIMITS.REBOOT_SECONDS, restarts: true },
  reset: { capability: Capability.RESET, cloudOnly: true, seconds: LIMITS.RESET_SECONDS, restarts: true },
  upgrade: {
    capability: Capability.UPGRADE,
    cloudOnly: true,
    seconds: LIMITS.UPGRADE_SECONDS,
    restarts: true,
  },
  'set-password': { capability: Capability.PASSWORD, cloudOnly: true, seconds: 0, restarts: false },
  locate: { capability: Capability.LOCATE, cloudOnly: false, seconds: 0, restarts: false },
  led: { capability: Capability.LED, cloudOnly: true, seconds: 0, restarts: false },
  'rate-limit': { capability: Capability.RATE_LIMIT, cloudOnly: true, seconds: 0, restarts: false },
  'poe-reboot': {
    capability: Capability.POE,
    cloudOnly: true,
    seconds: LIMITS.POE_REBOOT_SECONDS,
    restarts: false,
  },
  'set-mode': {
    capability: Capability.CPE_MODE,
    cloudOnly: true,
    seconds: LIMITS.MODE_SWITCH_SECONDS,
    restarts: true,
  },
  'local-management': {
    capability: Capability.LOCAL_MANAGEMENT,
    cloudOnly: false,
    seconds: 0,
    restarts: false,
  },
  'remote-management-open': {
    capability: Capability.REMOTE_MANAGEMENT,
    cloudOnly: false,
    seconds: 0,
    restarts: false,
  },
  'remote-management-close': {
    capability: Capability.REMOTE_MANAGEMENT,
    cloudOnly: false,
    seconds: 0,
    restarts: false,
  },
  'apply-config': {
    capability: null,
    cloudOnly: true,
    seconds: LIMITS.CONFIG_SAVE_MAX_SECONDS,
    restarts: false,
  },
  'get-config': { capability: null, cloudOnly: false, seconds: 0, restarts: false },
  'kick-client': { capability: null, cloudOnly: true, seconds: 0, restarts: false },
  'route-table': { capability: Capability.ROUTING, cloudOnly: false, seconds: 0, restarts: false },
};

/** Code 2 (model): the model cannot do this. */
export const MODEL_UNSUPPORTED: ErrorCode = Codes.MODEL;
/** Code a command gets when it arrives after its `expiresAt`. */
export const COMMAND_EXPIRED: ErrorCode = Codes.COMMAND_TIMEOUT;

/**
 * What a device answers while it is busy: 71 while upgrading (status 3, 4 or 5), 5046 while it
 * restarts (status 8), 2010 while another command is still being carried out (e.g. a configuration
 * being saved).
 */
export function busyCode(status: number, operation: string | null): ErrorCode | null {
  if (status === 3 || status === 4 || status === 5 || operation === 'upgrade') return Codes.UPGRADING;
  if (status === 8) return Codes.DEVICE_BUSY;
  if (operation !== null) return Codes.REPEATED_CLICKS;
  return null;
}
