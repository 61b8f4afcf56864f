import { z } from 'zod';
import { bandSchema } from '../device/messages.ts';
import { LIMITS } from '../enums/limits.ts';
import { validateLoadBalanceClients, validateRfSchedule, validateWifiCountry } from '../enums/rf.ts';
import { RfMode, RfRunState } from '../enums/wireless.ts';
import { Codes } from '../errors.ts';
import { validateAccessThreshold } from '../validators/wireless.ts';
import { checked } from '../validators/zod.ts';
import { DeviceConfigState } from './devices.ts';
import { IdParam } from './ids.ts';

/**
 * RF optimisation (SPEC.md §1, §3 RF record, §4, §5; server src/rf/, docs/decisions/0048):
 *
 *   GET  /api/v1/projects/{id}/rf               country, APs with their radios, the run going, schedule
 *   PUT  /api/v1/projects/{id}/rf/country       { country }: the APs re-adapt (about 3 minutes)
 *   PUT  /api/v1/projects/{id}/rf/radios        manual: channel, width, power, threshold on chosen APs
 *   PUT  /api/v1/projects/{id}/rf/roaming       roaming tuner: access threshold, band steering per AP
 *   POST /api/v1/projects/{id}/rf/optimise      automatic: a plan from the APs' scans, as a job
 *   GET  /api/v1/projects/{id}/rf/runs          the optimisation log (the latest 20)
 *   GET  /api/v1/projects/{id}/rf/runs/{runId}  one run with its records before and after
 *   PUT  /api/v1/projects/{id}/rf/schedule      scheduled automatic runs (days and time)
 */

const sn = z.string().regex(/^[A-Za-z0-9]{16,32}$/, 'Serial number: 16 to 32 letters or digits');

/** The APs a change targets: at least one (5344), each once. */
const Targets = checked(z.array(sn).max(1000), (list) =>
  list.length === 0
    ? { code: Codes.RF_NO_AP, message: 'Select at least one AP' }
    : new Set(list).size !== list.length
      ? { code: Codes.FORM_DATA, message: 'An AP is selected twice' }
      : null,
);

export const SetCountryBody = z.object({
  country: checked(z.string().max(8), validateWifiCountry),
});
export type SetCountryBody = z.input<typeof SetCountryBody>;

const threshold = checked(z.int(), (v) => validateAccessThreshold(v));

/** One radio's manual settings; the country's rules are checked by the server per AP (5340-5342). */
export const ManualRadio = z.object({
  band: bandSchema,
  /** 0 = automatic. */
  channel: z.int().min(0).max(196),
  width: z.union([z.literal(20), z.literal(40), z.literal(80)]),
  power: checked(z.int(), (v) =>
    v < LIMITS.TX_POWER_MIN || v > LIMITS.TX_POWER_MAX
      ? {
          code: Codes.FORM_DATA,
          message: `Transmit power must be an integer from ${LIMITS.TX_POWER_MIN} to ${LIMITS.TX_POWER_MAX}`,
        }
      : null,
  ),
  accessThreshold: threshold.optional(),
});
export type ManualRadio = z.infer<typeof ManualRadio>;

export const ManualRfBody = z.object({
  sns: Targets,
  radios: z
    .array(ManualRadio)
    .min(1)
    .max(4)
    .refine((list) => new Set(list.map((r) => r.band)).size === list.length, 'A band is set twice'),
});
export type ManualRfBody = z.input<typeof ManualRfBody>;

export const RoamingItem = z.object({
  sn,
  /** Access threshold of every radio of the AP (−90 to −60 dBm); absent: none. */
  accessThreshold: threshold.optional(),
  bandSteering: z.boolean(),
  /** Load balancing: clients at which new ones go to a neighbour; 0 = off (47). */
  loadBalanceClients: checked(z.int(), validateLoadBalanceClients),
});
export type RoamingItem = z.infer<typeof RoamingItem>;

export const RoamingBody = z.object({
  devices: checked(z.array(RoamingItem).max(1000), (list) =>
    list.length === 0
      ? { code: Codes.RF_NO_AP, message: 'Select at least one AP' }
      : new Set(list.map((d) => d.sn)).size !== list.length
        ? { code: Codes.FORM_DATA, message: 'An AP is set twice' }
        : null,
  ),
});
export type RoamingBody = z.input<typeof RoamingBody>;

export const OptimiseBody = z.object({}).strict();

const ScheduleFields = z.object({
  enabled: z.boolean(),
  /** 0 Sunday … 6 Saturday. */
  days: z.array(z.int()).max(7),
  /** HH:MM on the project's clock. */
  time: z.string().max(5),
});
export const RfScheduleBody = checked(ScheduleFields, (s) =>
  s.enabled ? validateRfSchedule(s.days, s.time) : null,
);
export type RfScheduleBody = z.input<typeof RfScheduleBody>;

export const RfRunParams = z.object({ id: IdParam, runId: IdParam });

/** What one radio reported (or was planned to): SPEC.md §3 RF record. */
export const RfRadioState = z.object({
  channel: z.number().int(),
  width: z.number().int(),
  power: z.number().int(),
  /** The loudest neighbour on a channel it shares (dBm), null: none heard. */
  rssi: z.number().int().nullable(),
  noise: z.number().int().nullable(),
  /** Neighbours heard at −82 dBm or louder on a channel it shares. */
  coChannel: z.number().int(),
  /** Its share of the co-channel interference score. */
  score: z.number(),
});
export type RfRadioState = z.infer<typeof RfRadioState>;

export const RfRecord = z.object({
  sn: z.string(),
  name: z.string(),
  band: z.string(),
  before: RfRadioState,
  /** What it reports after the run (null until it has, or when the run did not finish). */
  after: RfRadioState.nullable(),
});
export type RfRecord = z.infer<typeof RfRecord>;

export const RfRunView = z.object({
  id: z.number().int(),
  kind: z.enum([RfMode.MANUAL, RfMode.AUTO, RfMode.SCHEDULED]),
  state: z.enum([RfRunState.RUNNING, RfRunState.COMPLETED, RfRunState.TIMED_OUT, RfRunState.SKIPPED]),
  /** 0-100. */
  progress: z.number().int(),
  /** 34 (timed out), 5022 and others (skipped), null otherwise. */
  code: z.number().int().nullable(),
  message: z.string().nullable(),
  /** Whether the run changed any radio (an automatic plan may keep everything: anti-churn). */
  changed: z.boolean(),
  author: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** APs the run covers. */
  devices: z.number().int(),
  /** The co-channel interference score (lower is better): before, after (reported), as planned. */
  scoreBefore: z.number().nullable(),
  scoreAfter: z.number().nullable(),
  scorePlanned: z.number().nullable(),
  /** Co-channel neighbours summed over the radios, before and after. */
  coChannelBefore: z.number().int().nullable(),
  coChannelAfter: z.number().int().nullable(),
  records: z.array(RfRecord),
});
export type RfRunView = z.infer<typeof RfRunView>;

export const RfRunList = z.object({ items: z.array(RfRunView.omit({ records: true })) });
export type RfRunList = z.infer<typeof RfRunList>;

export const RfRadioView = z.object({
  band: z.string(),
  /** The settings saved (channel 0: automatic), or null when never set. */
  channel: z.number().int().nullable(),
  width: z.number().int().nullable(),
  power: z.number().int().nullable(),
  accessThreshold: z.number().int().nullable(),
  /** What the radio reports running, or null before its first report. */
  reported: RfRadioState.extend({ utilisation: z.number().int(), clients: z.number().int() }).nullable(),
});
export type RfRadioView = z.infer<typeof RfRadioView>;

export const RfDeviceView = z.object({
  sn: z.string(),
  name: z.string(),
  model: z.string(),
  status: z.number().int(),
  /** What stops configuring it now (36, 71, 76, 27 optimising, 5345 adapting), or null. */
  blocked: z.number().int().nullable(),
  /** SPEC.md §4 radio optimisation state: 0 not optimised, 1 optimised. */
  optimised: z.union([z.literal(0), z.literal(1)]),
  configStatus: z.enum([DeviceConfigState.PENDING, DeviceConfigState.APPLIED, DeviceConfigState.FAILED]),
  configCode: z.number().int().nullable(),
  revision: z.number().int(),
  reportedRevision: z.number().int(),
  /** Country re-adaptation: progress while the AP re-adapts, else null. */
  adapting: z.number().int().nullable(),
  bandSteering: z.boolean(),
  loadBalanceClients: z.number().int(),
  radios: z.array(RfRadioView),
});
export type RfDeviceView = z.infer<typeof RfDeviceView>;

export const RfScheduleView = z.object({
  enabled: z.boolean(),
  days: z.array(z.number().int()),
  time: z.string(),
  timeZone: z.string(),
  nextRunAt: z.string().nullable(),
});
export type RfScheduleView = z.infer<typeof RfScheduleView>;

export const RfView = z.object({
  country: z.string(),
  /** The last country change and how far the APs are in re-adapting to it (null: none going). */
  adaptation: z
    .object({
      country: z.string(),
      startedAt: z.string(),
      progress: z.number().int(),
      done: z.number().int(),
      total: z.number().int(),
    })
    .nullable(),
  devices: z.array(RfDeviceView),
  /** Online APs now (an automatic run needs 2). */
  online: z.number().int(),
  /** The run going, or null. */
  running: RfRunView.omit({ records: true }).nullable(),
  schedule: RfScheduleView,
});
export type RfView = z.infer<typeof RfView>;
