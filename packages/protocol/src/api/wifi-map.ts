import { z } from 'zod';
import { FrequencyBand } from '../enums/wireless.ts';
import { validateAsciiName } from '../validators/names.ts';
import { checked } from '../validators/zod.ts';
import { WALL_MATERIALS } from '../wifi-map/coverage.ts';
import { PLAN_IMAGE_LIMITS, PLAN_IMAGE_TYPES } from '../wifi-map/image.ts';
import { IdParam, ProjectParams } from './ids.ts';

/**
 * The Wi-Fi map (/manage/visualization/td, Beta; server src/wifi-map/, docs/decisions/0052-0053):
 *
 *   GET    /api/v1/projects/{id}/wifi-map                          floor plans and the project's APs
 *   POST   /api/v1/projects/{id}/wifi-map/plans                    upload a plan (multipart `file`, ?name=)
 *   PUT    /api/v1/projects/{id}/wifi-map/plans/{planId}           { name, scale, walls, aps }
 *   DELETE /api/v1/projects/{id}/wifi-map/plans/{planId}
 *   GET    /api/v1/projects/{id}/wifi-map/plans/{planId}/image     the image, streamed
 *
 * Positions are in the image's pixels (origin top left); the scale line gives metres per pixel.
 */

export const WIFI_MAP_LIMITS = {
  PLANS_PER_PROJECT: 20,
  WALLS_PER_PLAN: 1000,
  APS_PER_PLAN: 200,
  /** The scale line: at least this many pixels long, of 0.1 to 10,000 metres. */
  SCALE_MIN_PX: 10,
  SCALE_MIN_M: 0.1,
  SCALE_MAX_M: 10_000,
} as const;

export const WallMaterialSchema = z.enum(WALL_MATERIALS);

const Coord = z.number().min(0).max(PLAN_IMAGE_LIMITS.MAX_SIDE);

export const PlanName = checked(z.string().trim(), (v) => validateAsciiName(v, 'Floor name', 32));

export const PlanScale = z
  .object({
    x1: Coord,
    y1: Coord,
    x2: Coord,
    y2: Coord,
    metres: z.number().min(WIFI_MAP_LIMITS.SCALE_MIN_M).max(WIFI_MAP_LIMITS.SCALE_MAX_M),
  })
  .refine((s) => Math.hypot(s.x2 - s.x1, s.y2 - s.y1) >= WIFI_MAP_LIMITS.SCALE_MIN_PX, {
    message: `Draw a scale line of at least ${WIFI_MAP_LIMITS.SCALE_MIN_PX} pixels`,
    path: ['x2'],
  });
export type PlanScale = z.output<typeof PlanScale>;

export const PlanWall = z.object({
  x1: Coord,
  y1: Coord,
  x2: Coord,
  y2: Coord,
  material: WallMaterialSchema,
});
export type PlanWall = z.output<typeof PlanWall>;

const Sn = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{1,32}$/, 'Enter a serial number')
  .transform((s) => s.toUpperCase());

export const PlanAp = z.object({ sn: Sn, x: Coord, y: Coord });
export type PlanAp = z.output<typeof PlanAp>;
/** An AP's position as answered (no transform: responses are encoded). */
const PlanApView = z.object({ sn: z.string(), x: z.number(), y: z.number() });

/** PUT …/plans/{planId}: the whole plan as the editor has it. */
export const PlanLayout = z
  .object({
    name: PlanName,
    scale: PlanScale.nullable(),
    walls: z.array(PlanWall).max(WIFI_MAP_LIMITS.WALLS_PER_PLAN),
    aps: z.array(PlanAp).max(WIFI_MAP_LIMITS.APS_PER_PLAN),
  })
  .refine((l) => new Set(l.aps.map((a) => a.sn)).size === l.aps.length, {
    message: 'An AP is placed twice',
    path: ['aps'],
  });
export type PlanLayout = z.output<typeof PlanLayout>;

export const PlanParams = ProjectParams.extend({ planId: IdParam });

export const UploadPlanQuery = z.object({ name: PlanName.optional() });

export const PlanImageQuery = z.object({ v: z.string().max(64).optional() });

export const FloorPlanView = z.object({
  id: z.number().int(),
  name: z.string(),
  mime: z.enum(PLAN_IMAGE_TYPES),
  width: z.number().int(),
  height: z.number().int(),
  size: z.number().int(),
  /** SHA-256 of the stored image (hex). */
  checksum: z.string(),
  /** Where the image is read (versioned by its checksum, so it may be cached). */
  imageUrl: z.string(),
  /** SPEC.md §5: a 5:3 map is recommended (a hint). */
  ratioRecommended: z.boolean(),
  scale: PlanScale.nullable(),
  /** Metres per image pixel from the scale line (null until it is drawn). */
  metresPerPixel: z.number().nullable(),
  walls: z.array(PlanWall),
  aps: z.array(PlanApView),
  updatedAt: z.string(),
});
export type FloorPlanView = z.output<typeof FloorPlanView>;

/** A radio of an AP as the device reports it in its latest telemetry. */
export const MapRadioView = z.object({
  band: z.enum([FrequencyBand.B2G4, FrequencyBand.B5G, FrequencyBand.B5G1, FrequencyBand.B5G2]),
  channel: z.number().int(),
  width: z.number().int(),
  power: z.number(),
  clients: z.number().int(),
});
export type MapRadioView = z.output<typeof MapRadioView>;

/** An AP of the project for the map: what it reports now and where it is placed. */
export const MapApView = z.object({
  sn: z.string(),
  name: z.string(),
  model: z.string(),
  status: z.number().int(),
  online: z.boolean(),
  /** Clients online on it now (the device's count; their positions are not known). */
  clients: z.number().int(),
  radios: z.array(MapRadioView),
  /** The plan it is placed on, or null. */
  planId: z.number().int().nullable(),
});
export type MapApView = z.output<typeof MapApView>;

export const WifiMapView = z.object({
  plans: z.array(FloorPlanView),
  aps: z.array(MapApView),
  maxPlans: z.number().int(),
});
export type WifiMapView = z.output<typeof WifiMapView>;

/** Metres per pixel of a scale line. */
export function metresPerPixel(scale: PlanScale | null): number | null {
  if (!scale) return null;
  const px = Math.hypot(scale.x2 - scale.x1, scale.y2 - scale.y1);
  return px > 0 ? scale.metres / px : null;
}
