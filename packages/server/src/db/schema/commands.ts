import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { tstz } from './columns.ts';

// Commands sent to devices (src/gateway/).

/** Commands sent to devices (src/gateway/commands.ts): one at a time per device, one outcome each. */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: text('id').primaryKey(),
    sn: text('sn').notNull(),
    /** The device's project when the command was sent (for the events and the UI). */
    projectId: bigint('project_id', { mode: 'number' }),
    name: text('name').notNull(),
    params: jsonb('params').notNull().default({}),
    /** sent | success | failed | timeout */
    state: text('state').notNull(),
    code: integer('code'),
    message: text('message'),
    data: jsonb('data'),
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    accountName: text('account_name'),
    createdAt: tstz('created_at').notNull().defaultNow(),
    expiresAt: tstz('expires_at').notNull(),
    finishedAt: tstz('finished_at'),
    /**
     * What became of a command the device accepted and then carries out (gateway/outcomes.ts):
     * pending | done | failed | timeout; null for commands without a later outcome.
     */
    finalState: text('final_state'),
    finalCode: integer('final_code'),
    finalMessage: text('final_message'),
    finalAt: tstz('final_at'),
  },
  (t) => [
    index('device_commands_sn_idx').on(t.sn, t.createdAt),
    index('device_commands_open_idx').on(t.expiresAt).where(sql`${t.state} = 'sent'`),
    index('device_commands_final_idx').on(t.sn).where(sql`${t.finalState} = 'pending'`),
  ],
);
