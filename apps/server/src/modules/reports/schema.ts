import type { BusinessLine } from '@freight/contracts/accounts';
import { sql } from 'drizzle-orm';
import { bigint, date, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tenantId } from '../../db/columns.ts';

const cents = (name: string) => bigint(name, { mode: 'bigint' }).notNull().default(sql`0`);

/**
 * Money of one UTC day, one line, one booking organisation and one product (truck) or channel
 * (express), kept as it moves: payments add, refunds subtract, surcharges and work-order money add
 * their amounts. Reports sum these rows and never scan orders. Every level's price is kept, so a
 * branch or an agent sees its own buying price as its cost.
 *
 * The organisation's path and its branch and agent are copied in when the row is first written: a
 * subtree is a prefix of `org_path`, read without the organisations' table. A rebuild refreshes them.
 */
export const reportDaily = pgTable(
  'report_daily',
  {
    tenantId: tenantId(),
    day: date('day', { mode: 'string' }).notNull(),
    line: text('line').$type<BusinessLine>().notNull(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    /** The truck product's or express channel's id; 0 when the money has none (a manual price). */
    productId: bigint('product_id', { mode: 'number' }).notNull(),
    orgPath: text('org_path').notNull(),
    branchId: bigint('branch_id', { mode: 'number' }),
    agentId: bigint('agent_id', { mode: 'number' }),
    /** Orders paid less orders refunded. */
    orders: bigint('orders', { mode: 'number' }).notNull().default(0),
    /** What the booking customers paid, net of refunds, with surcharges and work-order money. */
    revenue: cents('revenue_cents'),
    /** The operator's cost price. */
    cost: cents('cost_cents'),
    /** The branch's and the agent's buying prices, where the order has such a level. */
    branchPrice: cents('branch_price_cents'),
    agentPrice: cents('agent_price_cents'),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.day, t.line, t.organisationId, t.productId] }),
    // A branch's or agent's report reads its subtree's rows by the path's prefix.
    index('report_daily_subtree').on(t.tenantId, t.orgPath.op('text_pattern_ops'), t.day),
  ],
);
