import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { tstz } from './columns.ts';
import { projects } from './projects.ts';

// Configuration revisions (src/config/).

/**
 * Desired configuration as revisions (src/config/): a device's (sn set) or a project's own (sn
 * null). Each change is a new row, written in the change's transaction; secrets in `document` are
 * sealed (security/secrets.ts). `hash` is configHash of the plain document.
 */
export const configRevisions = pgTable(
  'config_revisions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    projectId: bigint('project_id', { mode: 'number' }).references(() => projects.id, {
      onDelete: 'cascade',
    }),
    sn: text('sn'),
    revision: integer('revision').notNull(),
    document: jsonb('document').notNull(),
    hash: text('hash').notNull(),
    authorId: integer('author_id').references(() => accounts.id, { onDelete: 'set null' }),
    authorName: text('author_name').notNull(),
    reason: text('reason').notNull().default(''),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('config_revisions_device_uq').on(t.sn, t.revision).where(sql`${t.sn} is not null`),
    uniqueIndex('config_revisions_project_uq').on(t.projectId, t.revision).where(sql`${t.sn} is null`),
    index('config_revisions_project_idx').on(t.projectId, t.sn, t.revision),
  ],
);
