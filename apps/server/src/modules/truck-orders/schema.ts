import type { OrderStatus } from '@freight/contracts/truck-orders';
import type { PriceLevel, QuoteResult } from '@freight/contracts/truck-quotes';
import type { Shipment } from '@freight/contracts/truck-shipment';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, updatedAt } from '../../db/columns.ts';

const cents = (name: string) => bigint(name, { mode: 'bigint' }).notNull().default(sql`0`);
const levelCents = (name: string) => bigint(name, { mode: 'bigint' });

/**
 * A truck order: every field of SPEC section 3 "Order". The shipment and the priced quote are
 * snapshots taken at booking, so later changes to tariffs or markups never change a booked price.
 */
export const truckOrders = pgTable(
  'truck_orders',
  {
    tenantId: tenantId(),
    id: id(),
    orderNo: text('order_no').notNull(),
    customerOrderNo: text('customer_order_no').notNull().default(''),
    /**
     * The customer's own number in capitals, for the search by its start: an index on `upper(...)`
     * cannot serve that search under row-level security (`upper` is not leakproof). Never shown.
     */
    customerOrderNoUpper: text('customer_order_no_upper')
      .notNull()
      .generatedAlwaysAs(sql`upper(customer_order_no)`),
    queryCode: text('query_code').notNull(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    quoteId: bigint('quote_id', { mode: 'number' }),
    taskId: bigint('task_id', { mode: 'number' }),
    productId: bigint('product_id', { mode: 'number' }),
    carrier: text('carrier').notNull(),
    mode: text('mode').$type<'LTL' | 'FTL'>().notNull(),
    status: text('status').$type<OrderStatus>().notNull(),
    orderType: text('order_type').$type<'regular' | 'return'>().notNull().default('regular'),
    shipment: jsonb('shipment').$type<Shipment>().notNull(),
    quote: jsonb('quote').$type<QuoteResult>().notNull(),
    levels: jsonb('levels').$type<PriceLevel[]>().notNull(),
    /** What the booking customer pays, and its parts at the customer's level. */
    total: cents('total_cents'),
    freight: cents('freight_cents'),
    fuel: cents('fuel_cents'),
    surcharge: cents('surcharge_cents'),
    premium: cents('premium_cents'),
    insuredAmount: cents('insured_amount_cents'),
    costPrice: cents('cost_price_cents'),
    branchPrice: levelCents('branch_price_cents'),
    agentPrice: levelCents('agent_price_cents'),
    /** Paid so far, less refunds: what a cancellation gives back. */
    paid: cents('paid_cents'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    origin: text('origin').notNull(),
    destination: text('destination').notNull(),
    transitDaysMin: integer('transit_days_min').notNull(),
    transitDaysMax: integer('transit_days_max').notNull(),
    pickupCode: text('pickup_code').notNull(),
    deliveryCode: text('delivery_code').notNull(),
    carrierInfo: text('carrier_info').notNull().default(''),
    /** Booked by a batch for a carrier's product and not yet handed to the carrier (carrier-handoff.ts). */
    carrierPending: boolean('carrier_pending').notNull().default(false),
    rejectReason: text('reject_reason').notNull().default(''),
    shippingNote: text('shipping_note').notNull().default(''),
    receivingNote: text('receiving_note').notNull().default(''),
    extraNote: text('extra_note').notNull().default(''),
    orderFileUrl: text('order_file_url'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('truck_orders_no').on(t.tenantId, t.orderNo),
    index('truck_orders_time').on(t.tenantId, t.createdAt, t.id),
    index('truck_orders_status_time').on(t.tenantId, t.status, t.createdAt, t.id),
    index('truck_orders_org_time').on(t.tenantId, t.organisationId, t.createdAt, t.id),
    // A customer's status tab (its page and its capped count under other filters) reads this range alone.
    index('truck_orders_org_status_time').on(t.tenantId, t.organisationId, t.status, t.createdAt, t.id),
    // The list's search matches the start of the three numbers; these indexes serve such prefixes.
    index('truck_orders_no_prefix').on(t.tenantId, t.orderNo.op('text_pattern_ops')),
    index('truck_orders_query_code_prefix').on(t.tenantId, t.queryCode.op('text_pattern_ops')),
    index('truck_orders_customer_no_prefix').on(t.tenantId, t.customerOrderNoUpper.op('text_pattern_ops')),
  ],
);

/**
 * How many orders each organisation has in each status, kept by the database itself: triggers on
 * `truck_orders` (migration `order_counts_triggers`) add every insert, status change, move and delete
 * in the same transaction, whatever wrote it. The order list's status tabs and total read these few
 * rows instead of counting up to a million orders.
 */
export const truckOrderCounts = pgTable(
  'truck_order_counts',
  {
    tenantId: tenantId(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    status: text('status').$type<OrderStatus>().notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.organisationId, t.status] })],
);

/** The timeline of an order: every change of status, payment, refund and address edit. */
export const truckOrderEvents = pgTable(
  'truck_order_events',
  {
    tenantId: tenantId(),
    id: id(),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    action: text('action').notNull(),
    fromStatus: text('from_status').$type<OrderStatus>(),
    toStatus: text('to_status').$type<OrderStatus>(),
    actorId: bigint('actor_id', { mode: 'number' }),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('truck_order_events_order').on(t.tenantId, t.orderId),
  ],
);
