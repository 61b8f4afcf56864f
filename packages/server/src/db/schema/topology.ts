import type { LinkNeighbour, Telemetry } from '@beacon/protocol';
import { bigint, jsonb, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns.ts';
import { devices } from './devices.ts';
import { projects } from './projects.ts';

// Network topology (src/topology/, docs/decisions/0050).

/**
 * What each device last reported about its links (telemetry `links` and `internet`): the input of
 * the topology graph. Rewritten when the links change (`hash` leaves out the signal, which moves all
 * the time) or at most once a minute otherwise; a telemetry without `links` keeps the row.
 */
export const deviceLinks = pgTable('device_links', {
  sn: text('sn')
    .primaryKey()
    .references(() => devices.sn, { onDelete: 'cascade' }),
  links: jsonb('links').$type<LinkNeighbour[]>().notNull(),
  internet: jsonb('internet').$type<NonNullable<Telemetry['internet']>>(),
  hash: text('hash').notNull(),
  reportedAt: tstz('reported_at').notNull(),
});

/**
 * The user's device-type code for a node of a project's topology (SPEC.md §3, 1 to 12): a Beacon
 * device by SN or a neighbour by MAC. Code -1 ("no change") deletes the row.
 */
export const topologyNodeTypes = pgTable(
  'topology_node_types',
  {
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    node: text('node').notNull(),
    code: smallint('code').notNull(),
    updatedAt: tstz('updated_at').notNull(),
  },
  (t) => [primaryKey({ name: 'topology_node_types_pkey', columns: [t.projectId, t.node] })],
);
