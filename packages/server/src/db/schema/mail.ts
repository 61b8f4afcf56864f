import { bigserial, pgTable, text } from 'drizzle-orm/pg-core';
import { tstz } from './columns.ts';

// Outgoing mail (src/mail/).

export const mailOutbox = pgTable('mail_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  createdAt: tstz('created_at').notNull().defaultNow(),
  sentAt: tstz('sent_at'),
  error: text('error'),
});
