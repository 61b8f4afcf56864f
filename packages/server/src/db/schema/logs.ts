import { bigint, pgTable, smallint } from 'drizzle-orm/pg-core';
import { tstz } from './columns.ts';
import { projects } from './projects.ts';

// Log settings (src/logs/, docs/decisions/0036). Device events themselves are `deviceEvents` (devices.ts).

/** A project's log retention (SPEC.md §9: 7, 30, 90 or 180 days); no row = DEFAULT_LOG_RETENTION_DAYS. */
export const projectLogSettings = pgTable('project_log_settings', {
  projectId: bigint('project_id', { mode: 'number' })
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  retentionDays: smallint('retention_days').notNull(),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
});
