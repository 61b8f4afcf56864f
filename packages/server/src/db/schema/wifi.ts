import { bigint, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { tstz } from './columns.ts';
import { projects } from './projects.ts';

/**
 * The project's Wi-Fi policies as revisions (src/wifi/, docs/decisions/0047). `document` has its
 * secrets (pre-shared keys, RADIUS secrets) sealed; `hash` is configHash of the plain document.
 */
export const wifiRevisions = pgTable(
  'wifi_revisions',
  {
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    revision: integer('revision').notNull(),
    document: jsonb('document').notNull(),
    hash: text('hash').notNull(),
    authorId: integer('author_id').references(() => accounts.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    reason: text('reason').notNull().default(''),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.revision] })],
);
