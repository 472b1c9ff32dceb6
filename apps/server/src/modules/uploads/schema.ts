import { bigint, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
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
    kind: text('kind').$type<'image' | 'document'>().notNull(),
    mime: text('mime').notNull(),
    size: integer('size').notNull(),
    originalName: text('original_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.id] }), uniqueIndex('uploads_key').on(t.key)],
);
