import { z } from 'zod';
import {
  BUILTIN_SCENARIOS,
  NetMode,
  PROJECT_TIME_RANGES,
  ProjectProperty,
  ProjectRight,
  TIME_ZONE_MAX_MINUTES,
  TIME_ZONE_MIN_MINUTES,
} from '../enums/project.ts';
import { DEFAULT_TIME_ZONE, validateTimeZone, zoneForOffset } from '../timezone.ts';
import { validateProjectName } from '../validators/names.ts';
import { checked } from '../validators/zod.ts';
import { PageQuery } from './envelope.ts';
import { ProjectStats } from './overview.ts';

const netMode = z
  .union([z.literal(NetMode.WLAN), z.literal(NetMode.MESH)])
  .describe('Network mode: 0 WLAN (gateways, switches, APs), 1 MESH (cable-free mesh); fixed once created');
/**
 * An IANA zone name. Clients of the fixed-offset days may still send minutes east of GMT: those
 * read as the zone of that offset (480 → "Etc/GMT-8"); an offset no zone keeps is refused.
 */
const legacyOffset = z
  .number()
  .int()
  .min(TIME_ZONE_MIN_MINUTES)
  .max(TIME_ZONE_MAX_MINUTES)
  .refine((m) => m % 15 === 0, 'The time zone must be a multiple of 15 minutes')
  .transform((m, ctx) => {
    const zone = zoneForOffset(m);
    if (zone === null) {
      ctx.addIssue({ code: 'custom', message: 'No time zone has this offset; choose a zone by name' });
      return z.NEVER;
    }
    return zone;
  });
const timeZone = z.union([checked(z.string().max(64), validateTimeZone), legacyOffset]);

/** A built-in scenario key (BUILTIN_SCENARIOS) or the name of one of the account's custom scenarios. */
const scenario = z
  .string()
  .trim()
  .min(1, 'Choose a scenario')
  .max(32)
  .describe(
    `A built-in scenario (${BUILTIN_SCENARIOS.join(', ')}) or the name of one of the account's custom scenarios`,
  );
/** SPEC.md §5 names: 1 to 16 characters, no spaces or emoticons. */
const projectName = checked(z.string().trim(), validateProjectName).describe(
  'Project name: 1 to 16 characters, no spaces or emoticons',
);

/** POST /api/v1/projects */
export const CreateProjectBody = z.object({
  name: projectName,
  netMode: netMode.default(NetMode.WLAN),
  scenario,
  location: z.string().trim().max(64).default(''),
  address: z.string().trim().max(128).default(''),
  timeZone: timeZone.default(DEFAULT_TIME_ZONE),
});
export type CreateProjectBody = z.input<typeof CreateProjectBody>;

/** PATCH /api/v1/projects/{id} — netMode cannot change once created. */
export const UpdateProjectBody = z
  .object({
    name: projectName,
    scenario,
    location: z.string().trim().max(64),
    address: z.string().trim().max(128),
    timeZone,
  })
  .partial()
  .strict();
export type UpdateProjectBody = z.infer<typeof UpdateProjectBody>;

export const ProjectView = z.object({
  id: z.number().int(),
  name: z.string(),
  netMode,
  scenario: z.string(),
  location: z.string(),
  address: z.string(),
  /** An IANA zone, e.g. "Asia/Shanghai" (shown with its current offset: formatTimeZone). */
  timeZone: z.string(),
  right: z.enum([ProjectRight.READ_WRITE, ProjectRight.READ]),
  isShare: z.boolean(),
  property: z.enum([ProjectProperty.OWN, ProjectProperty.SHARED_READ, ProjectProperty.SHARED_MANAGE]),
  isDemo: z.boolean(),
  ownerAccount: z.string(),
  deviceCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProjectView = z.infer<typeof ProjectView>;

/** A row of the project list: the project with its device counts and health (docs/decisions/0041). */
export const ProjectListItem = ProjectView.extend({ stats: ProjectStats });
export type ProjectListItem = z.infer<typeof ProjectListItem>;

/** GET /api/v1/projects */
export const ProjectListQuery = PageQuery.extend({
  range: z.enum(PROJECT_TIME_RANGES).optional(),
  q: z.string().trim().max(64).optional(),
  netMode: z.coerce.number().pipe(netMode).optional(),
  /** devices, online, clients, health: the row's `stats` (docs/decisions/0041). */
  sort: z
    .enum(['name', 'createdAt', 'updatedAt', 'devices', 'online', 'clients', 'health'])
    .default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type ProjectListQuery = z.infer<typeof ProjectListQuery>;

/** GET /api/v1/projects/{id}/logs — the audit trail (Log screen). */
export const AuditView = z.object({
  id: z.number().int(),
  at: z.string(),
  account: z.string(),
  action: z.string(),
  entity: z.string(),
  entityId: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
});
export type AuditView = z.infer<typeof AuditView>;
