/** SPEC.md §3 Project. */
export const NetMode = { WLAN: 0, MESH: 1 } as const;
export type NetMode = (typeof NetMode)[keyof typeof NetMode];

export const ProjectRight = { READ_WRITE: 'rw', READ: 'r' } as const;
export type ProjectRight = (typeof ProjectRight)[keyof typeof ProjectRight];

export const ProjectProperty = {
  OWN: 'own',
  SHARED_READ: 'shared_read',
  SHARED_MANAGE: 'shared_manage',
} as const;
export type ProjectProperty = (typeof ProjectProperty)[keyof typeof ProjectProperty];

/** SPEC.md §1: the demo projects every account sees. */
export const DEMO_PROJECT_IDS = { WLAN: 500000, MESH: 600000 } as const;
export const isDemoProjectId = (id: number): boolean =>
  id === DEMO_PROJECT_IDS.WLAN || id === DEMO_PROJECT_IDS.MESH;

/** SPEC.md §1: built-in scenarios; accounts add up to MAX_CUSTOM_SCENARIOS of their own. */
export const BUILTIN_SCENARIOS = [
  'hotel',
  'supermarket_mall',
  'hospital',
  'campus',
  'factory',
  'entertainment',
  'restaurant',
  'enterprise',
  'smart_home',
  'other',
] as const;
export type BuiltinScenario = (typeof BUILTIN_SCENARIOS)[number];
export const MAX_CUSTOM_SCENARIOS = 20;

/**
 * SPEC.md §9: default time zone +8 as an offset, and the range old fixed-offset clients may still send
 * (projects now keep an IANA zone: DEFAULT_TIME_ZONE in timezone.ts).
 */
export const DEFAULT_TIME_ZONE_MINUTES = 480;
export const TIME_ZONE_MIN_MINUTES = -720;
export const TIME_ZONE_MAX_MINUTES = 840;

/** SPEC.md §9: project list time ranges. */
export const PROJECT_TIME_RANGES = ['15d', '1m', '3m', '6m', '1y'] as const;
export type ProjectTimeRange = (typeof PROJECT_TIME_RANGES)[number];
