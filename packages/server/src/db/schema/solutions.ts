import type { Recommendation, SolutionInput } from '@beacon/protocol';
import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { tstz } from './columns.ts';

// Solutions and the cloud-managed model list (src/solutions/, src/models/; migration 0023, decisions 0054-0055).

/** A generated solution of an account: its inputs and the recommendation computed from them. */
export const solutions = pgTable(
  'solutions',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scenario: text('scenario').notNull(),
    input: jsonb('input').$type<SolutionInput>().notNull(),
    recommendation: jsonb('recommendation').$type<Recommendation>().notNull(),
    createdAt: tstz('created_at').notNull().defaultNow(),
    updatedAt: tstz('updated_at').notNull().defaultNow(),
  },
  (t) => [index('solutions_owner_idx').on(t.ownerId, t.updatedAt)],
);

/** Accounts a solution is shared with, read-only. */
export const solutionShares = pgTable(
  'solution_shares',
  {
    solutionId: integer('solution_id')
      .notNull()
      .references(() => solutions.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    sharedAt: tstz('shared_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.solutionId, t.accountId] }),
    index('solution_shares_account_idx').on(t.accountId),
  ],
);

/** Models uploaded by manufacturer accounts beside the built-in catalogue (SPEC.md §3 server configuration). */
export const cloudModels = pgTable(
  'cloud_models',
  {
    id: serial('id').primaryKey(),
    model: text('model').notNull(),
    brand: text('brand').notNull(),
    type: text('type').notNull(),
    description: text('description').notNull().default(''),
    ports: integer('ports').notNull(),
    poePorts: integer('poe_ports').notNull().default(0),
    poeBudget: real('poe_budget').notNull().default(0),
    bands: jsonb('bands').$type<string[]>().notNull().default([]),
    minVlan: integer('min_vlan').notNull().default(10),
    maxVlan: integer('max_vlan').notNull().default(4094),
    capabilities: jsonb('capabilities').$type<string[]>().notNull().default([]),
    uploadedBy: integer('uploaded_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: tstz('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('cloud_models_model_uq').on(sql`upper(${t.model})`)],
);
