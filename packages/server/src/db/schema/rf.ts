import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tstz } from './columns.ts';
import { projects } from './projects.ts';

// RF optimisation and the Wi-Fi country (src/rf/, docs/decisions/0048).

/**
 * A project's radio settings: its Wi-Fi country (every AP's document carries it), the last country
 * change (the APs re-adapt after it), and the scheduled automatic runs (durable: the next run is a
 * job of src/jobs/ whose key carries its time). No row = the defaults (CN, no schedule).
 */
export const rfSettings = pgTable('rf_settings', {
  projectId: bigint('project_id', { mode: 'number' })
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  country: text('country').notNull().default('CN'),
  countryChangedAt: tstz('country_changed_at'),
  /** The APs the last country change went to, each with the revision that carries it (sn → revision). */
  adaptRevisions: jsonb('adapt_revisions').$type<Record<string, number>>().notNull().default({}),
  scheduleEnabled: boolean('schedule_enabled').notNull().default(false),
  scheduleDays: smallint('schedule_days').array().notNull().default([]),
  scheduleTime: text('schedule_time').notNull().default('03:00'),
  nextRunAt: tstz('next_run_at'),
  updatedAt: tstz('updated_at').notNull().defaultNow(),
});

/**
 * RF runs, manual or automatic (SPEC.md §3 RF record, §4): the APs it covers (configuring them is
 * refused with 27 while it runs), its plan, each radio before and after, and the co-channel score.
 * One run at a time per project (the partial unique index), so a second one is refused (27).
 */
export const rfRuns = pgTable(
  'rf_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    projectId: bigint('project_id', { mode: 'number' })
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    state: text('state').notNull(),
    progress: smallint('progress').notNull().default(0),
    code: integer('code'),
    message: text('message'),
    changed: boolean('changed').notNull().default(false),
    devices: text('devices').array().notNull().default([]),
    /** What each AP was given: sn → { revision, radios }. */
    plan: jsonb('plan').notNull().default({}),
    /** Each radio before and after: RfRecord[] (protocol api/rf.ts). */
    records: jsonb('records').notNull().default([]),
    scoreBefore: real('score_before'),
    scoreAfter: real('score_after'),
    scorePlanned: real('score_planned'),
    coChannelBefore: integer('co_channel_before'),
    coChannelAfter: integer('co_channel_after'),
    authorId: bigint('author_id', { mode: 'number' }),
    authorName: text('author_name').notNull().default(''),
    startedAt: tstz('started_at').notNull(),
    deadlineAt: tstz('deadline_at').notNull(),
    finishedAt: tstz('finished_at'),
  },
  (t) => [
    index('rf_runs_project_idx').on(t.projectId, t.startedAt),
    uniqueIndex('rf_runs_one_running').on(t.projectId).where(sql`${t.state} = 'running'`),
  ],
);
