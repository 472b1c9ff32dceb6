import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId } from '../../db/columns.ts';

/**
 * Notices for one user: system messages (a recharge reviewed, a surcharge charged). `type` 1 pops as a
 * toast, others as a dialog; `orderType` and `orderSn` say where its view button leads (SPEC section 3).
 */
export const notices = pgTable(
  'notices',
  {
    tenantId: tenantId(),
    id: id(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    type: integer('type').notNull().default(1),
    title: text('title').notNull(),
    content: text('content').notNull(),
    orderType: integer('order_type').notNull().default(0),
    orderSn: text('order_sn').notNull().default(''),
    createdAt: createdAt(),
    /** Set when the user has seen it (`notice/read`); until then it pops up on every load. */
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('notices_unread').on(t.tenantId, t.userId, t.readAt),
  ],
);
