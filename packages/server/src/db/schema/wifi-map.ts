import type { PlanAp, PlanImageType, PlanScale, PlanWall } from '@beacon/protocol';
import { bigint, index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { bytea, tstz } from './columns.ts';
import { projects } from './projects.ts';

// The Wi-Fi map's floor plans (src/wifi-map/, docs/decisions/0052-0053; migration 0022).

/**
 * One floor of a project's Wi-Fi map: its image (PNG or JPEG, checked by its header before it is
 * stored; `image` stored out of line and uncompressed so it is streamed in slices, `checksum` its
 * SHA-256), and what the editor draws on it in image pixels: the scale line, the walls with their
 * material and the APs placed (an AP is on one plan at most).
 */
export const floorPlans = pgTable(
  'floor_plans',
  {
    id: serial('id').primaryKey(),
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    mime: text('mime').$type<PlanImageType>().notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    size: integer('size').notNull(),
    checksum: text('checksum').notNull(),
    image: bytea('image').notNull(),
    scale: jsonb('scale').$type<PlanScale | null>(),
    walls: jsonb('walls').$type<PlanWall[]>().notNull().default([]),
    aps: jsonb('aps').$type<PlanAp[]>().notNull().default([]),
    createdAt: tstz('created_at').notNull(),
    updatedAt: tstz('updated_at').notNull(),
  },
  (t) => [index('floor_plans_project_idx').on(t.projectId, t.id)],
);
