import {
  COUNTRY_CODES,
  type DataScreenMapView,
  isCountryCode,
  OnlineSeriesQuery,
  type OnlineSeriesView,
  parseOrThrow,
  STATS_RANGE_LEVEL,
  STATS_RANGE_MS,
} from '@beacon/protocol';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Caller } from '../auth/principal.ts';
import { dataScreens, projects } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { loadProjectAccess, visibleProjectIds } from '../projects/access.ts';
import { projectStatsSubquery } from './stats.ts';

/**
 * What the data screen draws besides the overview counts (docs/decisions/0045): devices online over
 * time (stored statistics) and its countries' device counts (project locations).
 */

type ServiceDeps = Pick<Deps, 'database' | 'now'>;

/**
 * Devices online over time: per bucket of the range's rollup, the project's devices that reported
 * telemetry in it (`stats_project_*.devices`, written by the rollup job). One indexed range read
 * of at most 864 rows (the primary key is (project_id, bucket)).
 */
export async function getOnlineSeries(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  input: unknown,
): Promise<OnlineSeriesView> {
  const { range } = parseOrThrow(OnlineSeriesQuery, input ?? {});
  const { db } = deps.database;
  const now = deps.now();
  await loadProjectAccess(db, caller, projectId, { now });
  const { level, bucketMs } = STATS_RANGE_LEVEL[range];
  const t = now.getTime();
  const from = t - STATS_RANGE_MS[range];
  const start = Math.floor(from / bucketMs) * bucketMs;
  const table = sql.raw(`stats_project_${level}`);
  const { rows } = await db.execute<{ bucket: string | Date; devices: number }>(sql`
    select bucket, devices from ${table}
     where project_id = ${projectId} and bucket >= ${new Date(start).toISOString()}::timestamptz
       and bucket <= ${now.toISOString()}::timestamptz
     order by bucket`);
  const byBucket = new Map(rows.map((r) => [new Date(r.bucket).getTime(), Number(r.devices)]));
  const points: OnlineSeriesView['points'] = [];
  for (let b = start; b <= t; b += bucketMs) {
    points.push({ at: new Date(b).toISOString(), online: byBucket.get(b) ?? null });
  }
  return {
    range,
    from: new Date(from).toISOString(),
    to: now.toISOString(),
    bucketSeconds: bucketMs / 1000,
    points,
  };
}

/** Common English names ICU does not give (or gives otherwise), upper-cased, without accents. */
const ALIASES: Record<string, string> = {
  USA: 'US',
  'U.S.': 'US',
  'U.S.A.': 'US',
  'UNITED STATES OF AMERICA': 'US',
  AMERICA: 'US',
  UK: 'GB',
  'U.K.': 'GB',
  'GREAT BRITAIN': 'GB',
  BRITAIN: 'GB',
  ENGLAND: 'GB',
  SCOTLAND: 'GB',
  WALES: 'GB',
  'NORTHERN IRELAND': 'GB',
  UAE: 'AE',
  PRC: 'CN',
  "PEOPLE'S REPUBLIC OF CHINA": 'CN',
  'MAINLAND CHINA': 'CN',
  KOREA: 'KR',
  'REPUBLIC OF KOREA': 'KR',
  RUSSIA: 'RU',
  'RUSSIAN FEDERATION': 'RU',
  TURKEY: 'TR',
  TURKIYE: 'TR',
  HOLLAND: 'NL',
  'THE NETHERLANDS': 'NL',
  'CZECH REPUBLIC': 'CZ',
  VIETNAM: 'VN',
  'VIET NAM': 'VN',
  'IVORY COAST': 'CI',
  BURMA: 'MM',
  'HONG KONG': 'HK',
  MACAO: 'MO',
  MACAU: 'MO',
  TAIWAN: 'TW',
};

const normalise = (s: string) =>
  s.normalize('NFKD').replace(/\p{M}/gu, '').replace(/\s+/g, ' ').trim().toUpperCase();

let names: Map<string, string> | null = null;

/** English country name (the runtime's ICU) or alias → ISO 3166-1 alpha-2. */
function nameIndex(): Map<string, string> {
  if (names) return names;
  const index = new Map<string, string>();
  try {
    const display = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const code of COUNTRY_CODES) {
      const name = display.of(code);
      if (name && name !== code) index.set(normalise(name), code);
    }
  } catch {
    // A runtime without region names: codes and aliases still work.
  }
  for (const [alias, code] of Object.entries(ALIASES)) index.set(alias, code);
  names = index;
  return index;
}

/**
 * The country a project's free-text location names, or null: its last comma-separated part (or the
 * whole text) as an ISO 3166-1 alpha-2 code or an English name ("Shenzhen, China" → CN,
 * "Berlin, DE" → DE, "Lyon" → null).
 */
export function countryOfLocation(location: string): string | null {
  const parts = location.split(',').map(normalise).filter(Boolean);
  const candidates = [parts.at(-1), normalise(location)].filter((p): p is string => !!p);
  for (const candidate of candidates) {
    if (/^[A-Z]{2}$/.test(candidate) && isCountryCode(candidate)) return candidate;
    const code = nameIndex().get(candidate) ?? nameIndex().get(candidate.replace(/^THE /, ''));
    if (code) return code;
  }
  return null;
}

/**
 * The data screen's chosen countries, each with the devices (and how many online) of the projects
 * the viewer can see located there: one grouped query over the visible projects (the overview's
 * per-project aggregate), the location matched here.
 */
export async function getDataScreenMap(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
): Promise<DataScreenMapView> {
  const { db } = deps.database;
  const now = deps.now();
  await loadProjectAccess(db, caller, projectId, { now });
  const [screen] = await db
    .select({ countries: dataScreens.countries })
    .from(dataScreens)
    .where(eq(dataScreens.projectId, projectId));
  const visible = visibleProjectIds(caller.accountId, now);
  const ov = projectStatsSubquery(db, visible);
  const rows = await db
    .select({
      location: projects.location,
      devices: sql<number>`coalesce(${ov.total}, 0)::int`,
      online: sql<number>`coalesce(${ov.online}, 0)::int`,
    })
    .from(projects)
    .leftJoin(ov, eq(ov.projectId, projects.id))
    .where(inArray(projects.id, visible));
  const byCountry = new Map<string, { projects: number; devices: number; online: number }>();
  let unplaced = 0;
  for (const row of rows) {
    const code = countryOfLocation(row.location);
    if (!code) {
      unplaced += row.devices;
      continue;
    }
    const entry = byCountry.get(code) ?? { projects: 0, devices: 0, online: 0 };
    entry.projects += 1;
    entry.devices += row.devices;
    entry.online += row.online;
    byCountry.set(code, entry);
  }
  return {
    countries: (screen?.countries ?? []).map((code) => ({
      code,
      ...(byCountry.get(code) ?? { projects: 0, devices: 0, online: 0 }),
    })),
    unplaced,
  };
}
