import { bigint, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, updatedAt } from '../../db/columns.ts';

/** Feature updates staff write for their users (SPEC section 1, the top bar's "feature updates"). */
export const changelogEntries = pgTable(
  'changelog_entries',
  {
    tenantId: tenantId(),
    id: id(),
    title: text('title').notNull(),
    /** Plain text with light markup (paragraphs, `- ` lists), shown as text: never HTML. */
    body: text('body').notNull(),
    /** Shown from this time on; a later time schedules the entry. */
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
    createdBy: bigint('created_by', { mode: 'number' }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('changelog_published').on(t.tenantId, t.publishedAt),
  ],
);

/** When each user last opened the feature updates: later entries light the unread dot. */
export const changelogReads = pgTable(
  'changelog_reads',
  {
    tenantId: tenantId(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.userId] })],
);
