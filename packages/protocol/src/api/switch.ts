import { z } from 'zod';
import { switchConfigSchema } from '../device/switch-config.ts';
import { ConfigReason } from './config.ts';
import { DeviceConfigState } from './devices.ts';
import { ID_MAX } from './ids.ts';

/**
 * Switch ports (SPEC.md §3 Switch port; docs/decisions/0039): the `switch` section of a switch's
 * configuration document, read and saved as a revision of the configuration domain (decision 0029),
 * with the PoE budget the switch reports.
 *
 *   GET /api/v1/projects/{id}/devices/{sn}/switch   the section (every port), status, live ports, PoE
 *   PUT /api/v1/projects/{id}/devices/{sn}/switch   { expectedRevision, switch, reason? }
 *   GET /api/v1/projects/{id}/switch-poe            PoE budget, used and remaining of every switch
 */

export const SaveSwitchBody = z.object({
  /** The configuration revision the change is based on (0: none yet); another latest refuses 5120. */
  expectedRevision: z.int().min(0).max(ID_MAX),
  switch: switchConfigSchema,
  reason: ConfigReason,
});
export type SaveSwitchBody = z.input<typeof SaveSwitchBody>;

const PoeView = z.object({ budget: z.number(), used: z.number(), remaining: z.number() });

export const SwitchPortSpecView = z.object({
  id: z.number().int(),
  type: z.string(),
  maxSpeed: z.number().int(),
  poe: z.boolean(),
});

export const SwitchPortLiveView = z.object({
  id: z.number().int(),
  enabled: z.boolean(),
  link: z.boolean(),
  speed: z.number().int(),
  duplex: z.string().nullable(),
  /** PoE as reported: on, and the watts drawn now. */
  poe: z.object({ enabled: z.boolean(), power: z.number() }).nullable(),
});

export const SwitchView = z.object({
  sn: z.string(),
  name: z.string(),
  model: z.string(),
  /** SPEC.md §4 status code of the device now, and what stops a save (36, 71, 76), or null. */
  status: z.number().int(),
  blocked: z.number().int().nullable(),
  /** The latest desired configuration revision (0: none saved) and where the device is. */
  revision: z.number().int(),
  configStatus: z.enum([DeviceConfigState.PENDING, DeviceConfigState.APPLIED, DeviceConfigState.FAILED]),
  configCode: z.number().int().nullable(),
  reportedRevision: z.number().int(),
  /** The section as saved, every port of the model present (defaults for the ones never set). */
  switch: switchConfigSchema,
  /** The model's ports (catalogue) and PoE budget in watts (0: no PoE). */
  ports: z.array(SwitchPortSpecView),
  poeBudget: z.number(),
  /** What the switch reports: its ports and PoE budget used and remaining (null before any report). */
  live: z.array(SwitchPortLiveView),
  poe: PoeView.nullable(),
  reportedAt: z.string().nullable(),
});
export type SwitchView = z.infer<typeof SwitchView>;

export const SwitchPoeItem = PoeView.extend({
  sn: z.string(),
  name: z.string(),
  model: z.string(),
  status: z.number().int(),
  /** Ports drawing power now. */
  poweredPorts: z.number().int(),
  reportedAt: z.string().nullable(),
});
export type SwitchPoeItem = z.infer<typeof SwitchPoeItem>;

export const SwitchPoeList = z.object({ items: z.array(SwitchPoeItem) });
export type SwitchPoeList = z.infer<typeof SwitchPoeList>;
