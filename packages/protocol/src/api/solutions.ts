import { z } from 'zod';
import { Codes } from '../errors.ts';
import { invalid } from '../validators/result.ts';
import { checked } from '../validators/zod.ts';
import { IdParam } from './ids.ts';

/**
 * The solution generator (SPEC.md §1, §3 Solution, §8, §9; server solutions/, web features/solutions,
 * docs/solution-generator.md, decision 0054). Solutions belong to an account, not a project; a
 * solution shared with another account appears in its list read-only.
 *
 *   GET    /api/v1/solutions                              own and shared solutions
 *   POST   /api/v1/solutions/generate                     { input } the recommendation, not saved
 *   POST   /api/v1/solutions                              { name, input } generate and save
 *   GET    /api/v1/solutions/{solutionId}                 one, with its recommendation
 *   PUT    /api/v1/solutions/{solutionId}                 { name, input } edit (owner only)
 *   DELETE /api/v1/solutions/{solutionId}                 (owner only)
 *   GET    /api/v1/solutions/{solutionId}/pdf             the PDF export
 *   GET    /api/v1/solutions/{solutionId}/shares          accounts it is shared with (owner only)
 *   POST   /api/v1/solutions/{solutionId}/shares          { account } share read-only
 *   DELETE /api/v1/solutions/{solutionId}/shares/{accountId}
 */

/** Limits of the generator's inputs (a field out of range answers 16; the three of 5048 below). */
export const SOLUTION_INPUT_LIMITS = {
  units: 10_000,
  areaM2: 1_000_000,
  floors: 200,
  clientsPerRoom: 100,
  corridorM: 5_000,
  heightMinM: 2,
  heightMaxM: 20,
  clients: 100_000,
  mbps: 100_000,
} as const;
const L = SOLUTION_INPUT_LIMITS;

const count = (max: number) => z.number().int('Enter a whole number').min(0).max(max).default(0);
const clientCheck = (v: number) =>
  v < 0 || v > L.clients
    ? invalid(Codes.SOLUTION_INPUT, `Enter a client count from 0 to ${L.clients}`)
    : null;
const mbpsCheck = (label: string) => (v: number) =>
  v <= 0 || v > L.mbps ? invalid(Codes.SOLUTION_INPUT, `Enter the ${label} from 1 to ${L.mbps} Mbps`) : null;

/** '' (or absent): not selected — generating then answers 5051. */
const ModelChoice = z.string().trim().max(32).default('');

export const SolutionOverrides = z.object({
  aps: z.number().int().min(0).max(L.units).optional(),
  accessSwitches: z.number().int().min(0).max(L.units).optional(),
  coreSwitches: z.number().int().min(0).max(L.units).optional(),
});
export type SolutionOverrides = z.infer<typeof SolutionOverrides>;

/** SPEC.md §3 scenario inputs, then the models chosen for each role, then quantities edited by hand. */
export const SolutionInput = z.object({
  /** A built-in scenario (BUILTIN_SCENARIOS) or one of the account's custom scenarios, by name. */
  scenario: z.string().trim().min(1, 'Select a scenario').max(32),
  rooms: count(L.units),
  dormitories: count(L.units),
  classrooms: count(L.units),
  offices: count(L.units),
  wards: count(L.units),
  /** Area of one floor, m². */
  area: z.number().min(0).max(L.areaM2).default(0),
  floors: z.number().int().min(1).max(L.floors).default(1),
  clientsPerRoom: count(L.clientsPerRoom),
  /** Corridor length on one floor, m; set, the rooms are covered from the corridor. */
  corridorLength: z.number().min(0).max(L.corridorM).default(0),
  installHeight: z.number().min(L.heightMinM).max(L.heightMaxM).default(3),
  /** Total broadband, Mbit/s. */
  broadband: checked(z.number(), mbpsCheck('broadband')),
  /** The fastest single line (WAN), Mbit/s. */
  maxBandwidthPerLine: checked(z.number(), mbpsCheck('bandwidth per line')),
  /** Clients connected at once; 0: rooms × clients per room. */
  connectedClients: checked(z.number().int('Enter a whole number'), clientCheck).default(0),
  apModel: ModelChoice,
  gatewayModel: ModelChoice,
  accessSwitchModel: ModelChoice,
  coreSwitchModel: ModelChoice,
  overrides: SolutionOverrides.default({}),
});
export type SolutionInput = z.output<typeof SolutionInput>;
export type SolutionInputBody = z.input<typeof SolutionInput>;

export const SolutionRole = {
  AP: 'ap',
  ACCESS_SWITCH: 'access_switch',
  CORE_SWITCH: 'core_switch',
  GATEWAY: 'gateway',
} as const;
export type SolutionRole = (typeof SolutionRole)[keyof typeof SolutionRole];
const ROLES = [
  SolutionRole.AP,
  SolutionRole.ACCESS_SWITCH,
  SolutionRole.CORE_SWITCH,
  SolutionRole.GATEWAY,
] as const;

/** One line of the device list: model, quantity, remarks, and why that many. */
export const SolutionLine = z.object({
  role: z.enum(ROLES),
  model: z.string(),
  description: z.string(),
  quantity: z.number().int(),
  /** The recommended quantity (differs from quantity when it was edited by hand). */
  recommended: z.number().int(),
  remark: z.string(),
  reason: z.string(),
});
export type SolutionLine = z.infer<typeof SolutionLine>;

/** One step of the calculation, as shown under "How this was computed". */
export const SolutionStep = z.object({ label: z.string(), value: z.string(), reason: z.string() });
export type SolutionStep = z.infer<typeof SolutionStep>;

export const Recommendation = z.object({
  clients: z.number().int(),
  demandMbps: z.number(),
  lines: z.array(SolutionLine),
  steps: z.array(SolutionStep),
  advice: z.array(z.string()),
  advantages: z.array(z.string()),
});
export type Recommendation = z.infer<typeof Recommendation>;

export const GenerateBody = z.object({ input: SolutionInput });

/** A solution's name: 1 to 32 characters, spaces allowed inside (it titles the PDF), no control characters or emoticons. */
const SolutionName = checked(z.string().trim(), (v) =>
  v.length === 0 || v.length > 32 || /[\p{Cc}\p{Extended_Pictographic}]/u.test(v)
    ? invalid(Codes.FORM_DATA, 'Enter a name of 1 to 32 characters')
    : null,
);
export const SolutionBody = z.object({ name: SolutionName, input: SolutionInput });
export type SolutionBody = z.input<typeof SolutionBody>;

export const SolutionSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  scenario: z.string(),
  modifiedAt: z.string(),
  /** The owner's account name; readOnly: shared with the caller by another account. */
  owner: z.string(),
  readOnly: z.boolean(),
});
export type SolutionSummary = z.infer<typeof SolutionSummary>;

export const SolutionView = SolutionSummary.extend({
  input: SolutionInput,
  recommendation: Recommendation,
  createdAt: z.string(),
});
export type SolutionView = z.infer<typeof SolutionView>;

export const SolutionParams = z.object({ solutionId: IdParam });
export const SolutionShareParams = SolutionParams.extend({ accountId: IdParam });
export const SolutionShareBody = z.object({
  /** The account (login name or email) to share with. */
  account: z.string().trim().min(1, 'Enter an account').max(254),
});
export const SolutionShareView = z.object({
  accountId: z.number().int(),
  account: z.string(),
  nick: z.string(),
  sharedAt: z.string(),
});
export type SolutionShareView = z.infer<typeof SolutionShareView>;
