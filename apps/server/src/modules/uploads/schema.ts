import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId } from '../../db/columns.ts';

/** Uploaded files; the bytes live in the upload store, this row says whose they are. */
export const uploads = pgTable(
  'uploads',
  {
    tenantId: tenantId(),
    id: id(),
    /** Random key that appears in the public URL. */
    key: text('key').notNull(),
    userId: bigint('user_id', { mode: 'number' }),
    kind: text('kind').$type<'image' | 'document' | 'label'>().notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    originalName: text('original_name').notNull(),
    /** Branding images (logo, favicon, ads) anyone may load; every other file is private. */
    public: boolean('public').notNull().default(false),
    /** The record the file belongs to (`recharge:12`, `organisation:3`), set when that record claims it. */
    record: text('record'),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** Who sent a file with no session (a registration's licence): its IP, or IPv6 /64, for the pending cap. */
    client: text('client'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('uploads_key').on(t.tenantId, t.key),
    index('uploads_record').on(t.tenantId, t.record),
    index('uploads_pending_client').on(t.tenantId, t.client).where(sql`${t.client} is not null`),
  ],
);
