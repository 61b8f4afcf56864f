import { z } from 'zod';
import { isCountryCode } from '../enums/countries.ts';
import { LIMITS } from '../enums/limits.ts';
import { Codes } from '../errors.ts';
import {
  validateCountryCount,
  validateDataScreenSubtitle,
  validateDataScreenTitle,
} from '../validators/display.ts';
import { invalid } from '../validators/result.ts';
import { checked } from '../validators/zod.ts';
import { StatsRangeSchema } from './stats.ts';

/**
 * Project overview and data screen (SPEC.md §2 /overview/preview, /overview/list,
 * /overview/preview/datascreen; docs/decisions/0041). Counts come from the stored device state
 * (devices + device_state), computed by the server in one grouped query.
 *
 *   GET /api/v1/projects/{id}/overview      counts of the project, in total and by device type
 *   GET /api/v1/projects/{id}/data-screen   the data screen's title, subtitle and countries
 *   PUT /api/v1/projects/{id}/data-screen   { title, subtitle, countries } (writers only)
 *
 * The project list (GET /api/v1/projects) carries the same `stats` on every row.
 */

/** Health levels: at least 90 % healthy = good, at least 60 % = fair, below = poor; none without devices. */
export const HEALTH_GOOD = 90;
export const HEALTH_FAIR = 60;
export const HealthLevel = { GOOD: 'good', FAIR: 'fair', POOR: 'poor', NONE: 'none' } as const;
export type HealthLevel = (typeof HealthLevel)[keyof typeof HealthLevel];

export function healthLevel(health: number | null): HealthLevel {
  if (health === null) return HealthLevel.NONE;
  if (health >= HEALTH_GOOD) return HealthLevel.GOOD;
  if (health >= HEALTH_FAIR) return HealthLevel.FAIR;
  return HealthLevel.POOR;
}

/**
 * Device counts of a project (or of one device type in it). online: a reachable device (SPEC.md §4
 * codes folded to "online" by toSimpleStatus); offline: codes 0 and 9; busy: upgrading or
 * rebooting (neither). clients: the clients the devices reported in their latest telemetry.
 * configFailed: devices whose configuration failed to apply. health: the share (0–100, rounded
 * down) of devices that are online and whose configuration did not fail; null without devices.
 */
export const ProjectStats = z.object({
  total: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  busy: z.number().int(),
  clients: z.number().int(),
  configFailed: z.number().int(),
  health: z.number().int().nullable(),
});
export type ProjectStats = z.infer<typeof ProjectStats>;

export const EMPTY_STATS: ProjectStats = {
  total: 0,
  online: 0,
  offline: 0,
  busy: 0,
  clients: 0,
  configFailed: 0,
  health: null,
};

export const TypeStats = ProjectStats.extend({ type: z.string() });
export type TypeStats = z.infer<typeof TypeStats>;

/** GET /api/v1/projects/{id}/overview */
export const ProjectOverview = z.object({
  projectId: z.number().int(),
  stats: ProjectStats,
  /** One row per device type present in the project, by type name. */
  byType: z.array(TypeStats),
  /** When the server counted (its clock). */
  at: z.string(),
});
export type ProjectOverview = z.infer<typeof ProjectOverview>;

const countryCode = z
  .string()
  .trim()
  .max(64, 'Choose a country by its ISO 3166-1 code')
  .transform((c) => c.toUpperCase())
  .superRefine((c, ctx) => {
    if (!isCountryCode(c)) {
      const failure = invalid(Codes.COUNTRY_CODE, 'Choose a country by its ISO 3166-1 code');
      ctx.addIssue({ code: 'custom', message: failure.message, params: { code: failure.code } });
    }
  });

/** PUT /api/v1/projects/{id}/data-screen — every field; countries are kept once each, in order. */
export const SaveDataScreenBody = z
  .object({
    title: checked(z.string().max(LIMITS.DATA_SCREEN_TITLE_MAX * 4), validateDataScreenTitle).transform((s) =>
      s.trim(),
    ),
    subtitle: checked(
      z.string().max(LIMITS.DATA_SCREEN_SUBTITLE_MAX * 4),
      validateDataScreenSubtitle,
    ).transform((s) => s.trim()),
    countries: checked(
      z.array(countryCode).max(LIMITS.DATA_SCREEN_COUNTRIES * 4),
      validateCountryCount,
    ).transform((list) => [...new Set(list)]),
  })
  .strict();
export type SaveDataScreenBody = z.input<typeof SaveDataScreenBody>;

/** GET/PUT /api/v1/projects/{id}/data-screen. updatedAt null: never saved (the defaults). */
export const DataScreenView = z.object({
  title: z.string(),
  subtitle: z.string(),
  countries: z.array(z.string()),
  updatedAt: z.string().nullable(),
});
export type DataScreenView = z.infer<typeof DataScreenView>;

/**
 * GET /api/v1/projects/{id}/data-screen/online?range=24h — devices online over time, from the stored
 * statistics (docs/decisions/0045): per bucket, the devices of the project that reported telemetry
 * in it (`stats_project_5m`/`_1h` `devices`; an online device reports every 30 s). The range picks
 * the rollup like the other charts (STATS_RANGE_LEVEL). null: nothing reported in the bucket.
 */
export const OnlineSeriesQuery = z.object({ range: StatsRangeSchema.default('24h') });
export type OnlineSeriesQuery = z.infer<typeof OnlineSeriesQuery>;
export const OnlineSeriesView = z.object({
  range: StatsRangeSchema,
  from: z.string(),
  to: z.string(),
  bucketSeconds: z.number().int(),
  points: z.array(z.object({ at: z.string(), online: z.number().int().nullable() })),
});
export type OnlineSeriesView = z.infer<typeof OnlineSeriesView>;

/**
 * GET /api/v1/projects/{id}/data-screen/map — the data screen's chosen countries with their device
 * counts (docs/decisions/0045): the devices of every project the viewer can see whose location
 * names that country ("City, Country": its last comma-separated part, an ISO 3166-1 alpha-2 code or
 * the English name). `unplaced`: devices of the viewer's projects whose location names no country.
 */
export const DataScreenCountry = z.object({
  code: z.string(),
  projects: z.number().int(),
  devices: z.number().int(),
  online: z.number().int(),
});
export type DataScreenCountry = z.infer<typeof DataScreenCountry>;
export const DataScreenMapView = z.object({
  countries: z.array(DataScreenCountry),
  unplaced: z.number().int(),
});
export type DataScreenMapView = z.infer<typeof DataScreenMapView>;
