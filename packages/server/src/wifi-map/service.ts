import { createHash } from 'node:crypto';
import {
  AppError,
  Codes,
  type FloorPlanView,
  isPlanImageFailure,
  isRecommendedMapRatio,
  type MapApView,
  metresPerPixel,
  PLAN_IMAGE_LIMITS,
  type PlanLayout,
  readPlanImageHeader,
  routeUrl,
  validatePlanSize,
  WIFI_MAP_LIMITS,
  WIFI_MAP_ROUTES,
  type WifiMapView,
} from '@beacon/protocol';
import { and, asc, count, eq, getTableColumns, ne } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { floorPlans } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { loadProjectAccess, requireWritable } from '../projects/access.ts';
import { type WriteCaller, withProjectWrite } from '../projects/write.ts';
import { isOnline, membersOf, reportedRadios } from '../rf/members.ts';

/**
 * The Wi-Fi map's floor plans (SPEC.md §2 /manage/visualization/td; docs/decisions/0052-0053):
 * upload (the image checked by its magic bytes and header size before it is stored, in one
 * transaction with its audit row), the editor's layout (scale line, walls, placed APs), delete, and
 * the read of the map with what each AP reports now (channel, power, clients). Every write goes
 * through withProjectWrite with the project row locked, so plan counts and "one plan per AP" hold
 * under concurrent saves.
 */

const { image: _image, ...metaColumns } = getTableColumns(floorPlans);
type PlanMeta = Omit<typeof floorPlans.$inferSelect, 'image'>;

function planView(projectId: number, row: PlanMeta): FloorPlanView {
  return {
    id: row.id,
    name: row.name,
    mime: row.mime,
    width: row.width,
    height: row.height,
    size: row.size,
    checksum: row.checksum,
    imageUrl: `${routeUrl(WIFI_MAP_ROUTES.image, { id: projectId, planId: row.id })}?v=${row.checksum.slice(0, 16)}`,
    ratioRecommended: isRecommendedMapRatio(row.width, row.height),
    scale: row.scale ?? null,
    metresPerPixel: metresPerPixel(row.scale ?? null),
    walls: row.walls,
    aps: row.aps,
    updatedAt: row.updatedAt.toISOString(),
  };
}

const plansOf = (db: DbOrTx, projectId: number) =>
  db
    .select(metaColumns)
    .from(floorPlans)
    .where(eq(floorPlans.projectId, projectId))
    .orderBy(asc(floorPlans.id));

async function planOr404(db: DbOrTx, projectId: number, planId: number): Promise<PlanMeta> {
  const [row] = await db
    .select(metaColumns)
    .from(floorPlans)
    .where(and(eq(floorPlans.projectId, projectId), eq(floorPlans.id, planId)));
  if (!row) throw new AppError(Codes.NOT_FOUND, 'There is no such floor plan');
  return row;
}

const auditOf = (row: PlanMeta) => ({
  name: row.name,
  mime: row.mime,
  width: row.width,
  height: row.height,
  size: row.size,
  checksum: row.checksum,
  scale: row.scale,
  walls: row.walls.length,
  aps: row.aps,
});

// ── reads ────────────────────────────────────────────────────────────────────

/** GET …/wifi-map: the plans (without images) and the project's APs with what they report. */
export async function getMap(deps: Deps, caller: WriteCaller, projectId: number): Promise<WifiMapView> {
  const { db } = deps.database;
  await loadProjectAccess(db, caller, projectId, { now: deps.now() });
  const [plans, members] = await Promise.all([plansOf(db, projectId), membersOf(db, projectId)]);
  const placed = new Map<string, number>();
  for (const p of plans) for (const a of p.aps) placed.set(a.sn, p.id);
  const aps: MapApView[] = members.map(({ row, name }) => {
    const online = isOnline(row);
    // An AP that is away transmits nothing: no radios, no clients (its last report is history).
    const radios = online
      ? reportedRadios(row).map((r) => ({
          band: r.band,
          channel: r.channel,
          width: r.width,
          power: r.power,
          clients: Math.max(0, Math.round(r.clients)),
        }))
      : [];
    return {
      sn: row.sn,
      name,
      model: row.model,
      status: row.status,
      online,
      clients: radios.reduce((n, r) => n + r.clients, 0),
      radios,
      planId: placed.get(row.sn) ?? null,
    };
  });
  return {
    plans: plans.map((p) => planView(projectId, p)),
    aps,
    maxPlans: WIFI_MAP_LIMITS.PLANS_PER_PROJECT,
  };
}

/** For the image route: the plan's type, size and checksum, after the caller's access is checked. */
export async function planForImage(deps: Deps, caller: WriteCaller, projectId: number, planId: number) {
  await loadProjectAccess(deps.database.db, caller, projectId, { now: deps.now() });
  const row = await planOr404(deps.database.db, projectId, planId);
  return { id: row.id, mime: row.mime, size: row.size, checksum: row.checksum };
}

// ── writes ───────────────────────────────────────────────────────────────────

/** Refuses a caller who may not write the project before its upload is read (5031, 5032). */
export async function requirePlanWriter(deps: Deps, caller: WriteCaller, projectId: number): Promise<void> {
  requireWritable(await loadProjectAccess(deps.database.db, caller, projectId, { now: deps.now() }));
}

/**
 * The image of an upload, checked before anything stores or decodes it: at most 10 MB, a PNG or
 * JPEG by its magic bytes, and its header's size within PLAN_IMAGE_LIMITS; 79 with the reason.
 */
export function checkPlanImage(bytes: Buffer) {
  const tooLarge = validatePlanSize(bytes.length);
  if (tooLarge) throw new AppError(tooLarge.code, tooLarge.message, tooLarge.fields);
  const header = readPlanImageHeader(bytes.subarray(0, PLAN_IMAGE_LIMITS.HEAD_BYTES));
  if (isPlanImageFailure(header)) throw new AppError(header.code, header.message, header.fields);
  return header;
}

/** POST …/wifi-map/plans: a new floor (20 at most, 5390), named or "Floor N". */
export async function uploadPlan(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  upload: { bytes: Buffer; name?: string },
): Promise<FloorPlanView> {
  const header = checkPlanImage(upload.bytes);
  const checksum = createHash('sha256').update(upload.bytes).digest('hex');
  return withProjectWrite(
    deps,
    caller,
    projectId,
    async (write) => {
      const { tx, now } = write;
      const [{ n }] = await tx
        .select({ n: count() })
        .from(floorPlans)
        .where(eq(floorPlans.projectId, projectId));
      if (n >= WIFI_MAP_LIMITS.PLANS_PER_PROJECT) throw new AppError(Codes.FLOOR_PLAN_LIMIT);
      const [row] = await tx
        .insert(floorPlans)
        .values({
          projectId,
          name: upload.name ?? `Floor ${n + 1}`,
          mime: header.mime,
          width: header.width,
          height: header.height,
          size: upload.bytes.length,
          checksum,
          image: upload.bytes,
          createdAt: now,
          updatedAt: now,
        })
        .returning(metaColumns);
      write.audit({ action: 'upload', entity: 'floor-plan', entityId: row.id, after: auditOf(row) });
      return planView(projectId, row);
    },
    { lock: 'update' },
  );
}

const inside = (plan: PlanMeta, x: number, y: number) => x <= plan.width && y <= plan.height;

/**
 * PUT …/plans/{planId}: the editor's plan as a whole. Every point lies on the image (5393); each AP
 * is a Wi-Fi device of the project (5392) not placed on another plan (5391).
 */
export async function savePlan(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  planId: number,
  layout: PlanLayout,
): Promise<FloorPlanView> {
  return withProjectWrite(
    deps,
    caller,
    projectId,
    async (write) => {
      const { tx, now } = write;
      const before = await planOr404(tx, projectId, planId);
      const s = layout.scale;
      const points = [
        ...(s ? [[s.x1, s.y1] as const, [s.x2, s.y2] as const] : []),
        ...layout.walls.flatMap((w) => [[w.x1, w.y1] as const, [w.x2, w.y2] as const]),
        ...layout.aps.map((a) => [a.x, a.y] as const),
      ];
      if (points.some(([x, y]) => !inside(before, x, y))) throw new AppError(Codes.OUTSIDE_PLAN);
      if (layout.aps.length > 0) {
        const wifi = new Set((await membersOf(tx, projectId)).map((m) => m.row.sn));
        const stranger = layout.aps.find((a) => !wifi.has(a.sn));
        if (stranger) {
          throw new AppError(Codes.NOT_A_WIFI_DEVICE, undefined, {
            aps: `${stranger.sn} is not an AP of this project`,
          });
        }
        const others = await tx
          .select({ name: floorPlans.name, aps: floorPlans.aps })
          .from(floorPlans)
          .where(and(eq(floorPlans.projectId, projectId), ne(floorPlans.id, planId)));
        for (const other of others) {
          const twice = layout.aps.find((a) => other.aps.some((o) => o.sn === a.sn));
          if (twice) {
            throw new AppError(
              Codes.AP_ON_OTHER_PLAN,
              `The AP ${twice.sn} is already placed on the floor plan ${other.name}`,
              { aps: `${twice.sn} is on ${other.name}` },
            );
          }
        }
      }
      const [row] = await tx
        .update(floorPlans)
        .set({ name: layout.name, scale: layout.scale, walls: layout.walls, aps: layout.aps, updatedAt: now })
        .where(eq(floorPlans.id, planId))
        .returning(metaColumns);
      write.audit({
        action: 'update',
        entity: 'floor-plan',
        entityId: planId,
        before: auditOf(before),
        after: auditOf(row),
      });
      return planView(projectId, row);
    },
    { lock: 'update' },
  );
}

/** DELETE …/plans/{planId}: the floor, its image and what was drawn on it. */
export async function removePlan(
  deps: Deps,
  caller: WriteCaller,
  projectId: number,
  planId: number,
): Promise<FloorPlanView> {
  return withProjectWrite(
    deps,
    caller,
    projectId,
    async (write) => {
      const before = await planOr404(write.tx, projectId, planId);
      await write.tx.delete(floorPlans).where(eq(floorPlans.id, planId));
      write.audit({ action: 'delete', entity: 'floor-plan', entityId: planId, before: auditOf(before) });
      return planView(projectId, before);
    },
    { lock: 'update' },
  );
}
