import { z } from 'zod';
import { DeviceConfigState } from './devices.ts';
import { Paged, PageQuery } from './envelope.ts';

/**
 * Desired configuration as revisions (the server's src/config/, docs/decisions/0029):
 *
 *   GET  /api/v1/projects/{id}/devices/{sn}/config                       the latest revision and status
 *   PUT  /api/v1/projects/{id}/devices/{sn}/config                       { expectedRevision, document, reason? }
 *   GET  /api/v1/projects/{id}/devices/{sn}/config/revisions             the revisions, newest first
 *   GET  /api/v1/projects/{id}/devices/{sn}/config/revisions/{revision}  one, with its document
 *   GET  /api/v1/projects/{id}/devices/{sn}/config/diff?from=&to=        what changed between two
 *   POST /api/v1/projects/{id}/devices/{sn}/config/rollback              { revision, expectedRevision, reason? }
 *
 * The project's own configuration (settings for the whole project, e.g. its Wi-Fi policies) has the
 * same routes without `/devices/{sn}`: /api/v1/projects/{id}/config[/revisions[/{revision}]|/diff|/rollback].
 *
 * A save or rollback names the revision it was based on (expectedRevision, 0 when there is none
 * yet); when someone saved in between it is refused with 5120, never merged. Secret values
 * (passwords, keys) are shown as "********"; saving "********" keeps the stored secret.
 */

export const ConfigReason = z.string().trim().max(200).default('');

/** Revisions are int4 in the database: a larger number is refused (16), not a server error. */
const REVISION_MAX = 2_147_483_647;

export const SaveDeviceConfigBody = z.object({
  expectedRevision: z.number().int().min(0).max(REVISION_MAX),
  document: z.record(z.string(), z.unknown()),
  reason: ConfigReason,
});
export type SaveDeviceConfigBody = z.input<typeof SaveDeviceConfigBody>;

export const RollbackConfigBody = z.object({
  revision: z.number().int().min(1).max(REVISION_MAX),
  expectedRevision: z.number().int().min(0).max(REVISION_MAX),
  reason: ConfigReason,
});
export type RollbackConfigBody = z.input<typeof RollbackConfigBody>;

export const DeviceConfigView = z.object({
  sn: z.string(),
  /** The latest desired revision (0: none saved). */
  revision: z.number().int(),
  hash: z.string().nullable(),
  document: z.record(z.string(), z.unknown()),
  status: z.enum([DeviceConfigState.PENDING, DeviceConfigState.APPLIED, DeviceConfigState.FAILED]),
  /** The device's code when status is failed. */
  code: z.number().int().nullable(),
  reportedRevision: z.number().int(),
  reportedHash: z.string().nullable(),
  /** The device reports the desired revision but runs something else. */
  drift: z.boolean(),
});
export type DeviceConfigView = z.infer<typeof DeviceConfigView>;

export const ConfigRevisionView = z.object({
  revision: z.number().int(),
  hash: z.string(),
  author: z.string(),
  reason: z.string(),
  createdAt: z.string(),
});
export type ConfigRevisionView = z.infer<typeof ConfigRevisionView>;

export const ConfigRevisionDetail = ConfigRevisionView.extend({
  document: z.record(z.string(), z.unknown()),
});
export type ConfigRevisionDetail = z.infer<typeof ConfigRevisionDetail>;

export const ConfigRevisionList = Paged(ConfigRevisionView);
export type ConfigRevisionList = z.infer<typeof ConfigRevisionList>;
export const ConfigRevisionQuery = PageQuery;

export const ConfigDiffQuery = z.object({
  from: z.coerce.number().int().min(1).max(2_147_483_647),
  to: z.coerce.number().int().min(1).max(2_147_483_647),
});

export const ConfigDiffView = z.object({
  from: z.number().int(),
  to: z.number().int(),
  changes: z.array(
    z.object({ path: z.string(), before: z.unknown().optional(), after: z.unknown().optional() }),
  ),
});
export type ConfigDiffView = z.infer<typeof ConfigDiffView>;

/** The project's own configuration: its latest revision (0: none saved). */
export const ProjectConfigView = z.object({
  revision: z.number().int(),
  hash: z.string().nullable(),
  document: z.record(z.string(), z.unknown()),
});
export type ProjectConfigView = z.infer<typeof ProjectConfigView>;
