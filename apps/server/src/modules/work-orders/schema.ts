import type { BusinessLine } from '@freight/contracts/accounts';
import type {
  ConsumptionType,
  TransactionItem,
  WorkOrderCategory,
  WorkOrderStatus,
} from '@freight/contracts/work-orders';
import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, updatedAt } from '../../db/columns.ts';

/**
 * A customer's claim or request about one order (SPEC section 3 "Work order"), resolved by staff: a
 * truck order or an express waybill, as its line says.
 */
export const workOrders = pgTable(
  'work_orders',
  {
    tenantId: tenantId(),
    id: id(),
    workOrderNo: text('work_order_no').notNull(),
    /** Which line's order `orderId` names: a truck order or an express waybill. */
    line: text('line').$type<BusinessLine>().notNull().default('truck'),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    orderNo: text('order_no').notNull(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    /** Who opened it: they hear of each step. */
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    billId: bigint('bill_id', { mode: 'number' }),
    category: text('category').$type<WorkOrderCategory>().notNull(),
    transactionItem: text('transaction_item').$type<TransactionItem>().notNull(),
    /** What the customer asks for (transaction amount). */
    amount: bigint('amount_cents', { mode: 'bigint' }).notNull().default(sql`0`),
    description: text('description').notNull(),
    proofUrls: jsonb('proof_urls').$type<string[]>().notNull().default([]),
    status: text('status').$type<WorkOrderStatus>().notNull().default('pending'),
    consumptionType: text('consumption_type').$type<ConsumptionType>().notNull().default('none'),
    /** What the resolution added, deducted or refunded. */
    resultAmount: bigint('result_amount_cents', { mode: 'bigint' }).notNull().default(sql`0`),
    remark: text('remark').notNull().default(''),
    /** The staff member who resolved or rejected it, and when (processing time). */
    operatorId: bigint('operator_id', { mode: 'number' }),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('work_orders_no').on(t.tenantId, t.workOrderNo),
    index('work_orders_time').on(t.tenantId, t.createdAt),
    index('work_orders_status_time').on(t.tenantId, t.status, t.createdAt),
    index('work_orders_org_time').on(t.tenantId, t.organisationId, t.createdAt),
    index('work_orders_org_id').on(t.tenantId, t.organisationId, t.id),
    index('work_orders_status_id').on(t.tenantId, t.status, t.id),
    index('work_orders_order').on(t.tenantId, t.line, t.orderId),
  ],
);

/** The conversation on a work order: the customer and staff, with attachments. */
export const workOrderMessages = pgTable(
  'work_order_messages',
  {
    tenantId: tenantId(),
    id: id(),
    workOrderId: bigint('work_order_id', { mode: 'number' }).notNull(),
    authorId: bigint('author_id', { mode: 'number' }).notNull(),
    side: text('side').$type<'staff' | 'owner'>().notNull(),
    body: text('body').notNull(),
    attachments: jsonb('attachments').$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('work_order_messages_wo').on(t.tenantId, t.workOrderId, t.id),
  ],
);

/** Every status change of a work order, with who made it. */
export const workOrderEvents = pgTable(
  'work_order_events',
  {
    tenantId: tenantId(),
    id: id(),
    workOrderId: bigint('work_order_id', { mode: 'number' }).notNull(),
    action: text('action').notNull(),
    fromStatus: text('from_status').$type<WorkOrderStatus>(),
    toStatus: text('to_status').$type<WorkOrderStatus>().notNull(),
    operatorId: bigint('operator_id', { mode: 'number' }).notNull(),
    side: text('side').$type<'staff' | 'owner'>().notNull(),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('work_order_events_wo').on(t.tenantId, t.workOrderId, t.id),
  ],
);
