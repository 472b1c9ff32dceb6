import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId } from '../../db/columns.ts';

/**
 * Every message the portal sends; without SMTP it is only stored and shown in the dev mailbox. Kept
 * for `MAIL_KEEP_DAYS` (failed ones longer), then deleted by the housekeeping pass.
 */
export const outbox = pgTable(
  'mail_outbox',
  {
    tenantId: tenantId(),
    id: id(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    status: text('status').$type<'stored' | 'sent' | 'failed'>().notNull(),
    error: text('error'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('mail_outbox_to').on(t.tenantId, t.to, t.createdAt),
    // The housekeeping pass finds messages past their keeping time among a month's mail.
    index('mail_outbox_created').on(t.createdAt),
  ],
);
