import { bigint, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns.ts';
import { projects } from './projects.ts';

// The project overview's stored settings (src/overview/, docs/decisions/0041).

/** The data screen of a project: title, subtitle and the ISO codes of its map's countries. */
export const dataScreens = pgTable('data_screens', {
  projectId: bigint('project_id', { mode: 'number' })
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  title: text('title').notNull(),
  subtitle: text('subtitle').notNull().default(''),
  countries: text('countries').array().notNull().default([]),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
});
