import type { BusinessLine } from '@freight/contracts/accounts';
import type { BounceBillStatus, BounceBillType } from '@freight/contracts/bounce-bills';
import { bigint, index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, updatedAt } from '../../db/columns.ts';

/**
 * A surcharge found after the carrier took the goods (truck: reweigh, reclass, an extra accessorial,
 * storage; express: reweigh, dimensions, address correction), charged to the booking organisation's
 * account of the bill's line. The order's (or waybill's) number and owner are copied in when it is
 * raised: they never change, and the list is read without the orders' or waybills' table.
 */
export const bounceBills = pgTable(
  'bounce_bills',
  {
    tenantId: tenantId(),
    id: id(),
    billNo: text('bill_no').notNull(),
    /** Which line's order `orderId` names: a truck order or an express waybill. */
    line: text('line').$type<BusinessLine>().notNull().default('truck'),
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    orderNo: text('order_no').notNull(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    /** Who booked the order: they hear of the bill. */
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    type: text('type').$type<BounceBillType>().notNull(),
    amount: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    declared: text('declared').notNull().default(''),
    actual: text('actual').notNull().default(''),
    description: text('description').notNull(),
    proofUrl: text('proof_url'),
    status: text('status').$type<BounceBillStatus>().notNull(),
    createdBy: bigint('created_by', { mode: 'number' }).notNull(),
    chargedAt: timestamp('charged_at', { withTimezone: true }),
    cancelReason: text('cancel_reason').notNull().default(''),
    /** The work order disputing it, once disputed. */
    workOrderNo: text('work_order_no'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('bounce_bills_no').on(t.tenantId, t.billNo),
    index('bounce_bills_time').on(t.tenantId, t.createdAt),
    index('bounce_bills_org_time').on(t.tenantId, t.organisationId, t.createdAt),
    index('bounce_bills_org_id').on(t.tenantId, t.organisationId, t.id),
    index('bounce_bills_order').on(t.tenantId, t.line, t.orderId),
  ],
);
