import {
  type DataScreenView,
  LIMITS,
  type ProjectOverview,
  parseOrThrow,
  SaveDataScreenBody,
} from '@beacon/protocol';
import { eq } from 'drizzle-orm';
import type { Caller } from '../auth/principal.ts';
import type { DbOrTx } from '../db/client.ts';
import { dataScreens } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { loadProjectAccess } from '../projects/access.ts';
import { withProjectWrite } from '../projects/write.ts';
import { projectStats } from './stats.ts';

type ServiceDeps = Pick<Deps, 'database' | 'now'>;

/** Project overview and data screen (docs/decisions/0041). */

export async function getOverview(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
): Promise<ProjectOverview> {
  const { db } = deps.database;
  const now = deps.now();
  await loadProjectAccess(db, caller, projectId, { now });
  const { stats, byType } = await projectStats(db, projectId);
  return { projectId, stats, byType, at: now.toISOString() };
}

/** The defaults of a data screen never saved: the project's name (its first 18 characters). */
function defaultTitle(projectName: string): string {
  return [...projectName].slice(0, LIMITS.DATA_SCREEN_TITLE_MAX).join('').trim() || 'Data screen';
}

async function loadDataScreen(db: DbOrTx, projectId: number, projectName: string): Promise<DataScreenView> {
  const [row] = await db.select().from(dataScreens).where(eq(dataScreens.projectId, projectId));
  if (!row) return { title: defaultTitle(projectName), subtitle: '', countries: [], updatedAt: null };
  return {
    title: row.title,
    subtitle: row.subtitle,
    countries: row.countries,
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function getDataScreen(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
): Promise<DataScreenView> {
  const { db } = deps.database;
  const access = await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  return loadDataScreen(db, projectId, access.project.name);
}

/** Writers only (read-only members and the demo projects are refused by withProjectWrite). */
export async function saveDataScreen(
  deps: ServiceDeps,
  caller: Caller,
  projectId: number,
  input: unknown,
): Promise<DataScreenView> {
  const body = parseOrThrow(SaveDataScreenBody, input);
  return withProjectWrite(
    deps,
    caller,
    projectId,
    async ({ tx, access, now, audit }) => {
      const before = await loadDataScreen(tx, projectId, access.project.name);
      const values = {
        title: body.title,
        subtitle: body.subtitle,
        countries: body.countries,
        updatedAt: now,
      };
      await tx
        .insert(dataScreens)
        .values({ projectId, ...values })
        .onConflictDoUpdate({ target: dataScreens.projectId, set: values });
      const after: DataScreenView = { ...values, updatedAt: now.toISOString() };
      audit({
        action: 'update',
        entity: 'data_screen',
        entityId: projectId,
        before: { title: before.title, subtitle: before.subtitle, countries: before.countries },
        after: { title: after.title, subtitle: after.subtitle, countries: after.countries },
      });
      return after;
    },
    { lock: 'share' },
  );
}
