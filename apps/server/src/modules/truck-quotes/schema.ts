import type { QuoteResult, TaskStatus } from '@freight/contracts/truck-quotes';
import type { ManualReason, QuoteStatus, Shipment } from '@freight/contracts/truck-shipment';
import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, packedJson, tenantId, updatedAt } from '../../db/columns.ts';

/**
 * A truck quote: the shipment as the form sent it and the price of every product for it. Changing the
 * shipment empties `results`, so a booking always comes from prices of the shipment it books.
 */
export const truckQuotes = pgTable(
  'truck_quotes',
  {
    tenantId: tenantId(),
    id: id(),
    quoteNo: text('quote_no').notNull(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    status: text('status').$type<QuoteStatus>().notNull().default('open'),
    shipment: jsonb('shipment').$type<Shipment>().notNull(),
    /** JSON text in a bytea (db/columns.ts `packedJson`): rewritten on every pricing, read whole, never queried inside. */
    results: packedJson('results').$type<QuoteResult[]>().notNull().default(sql`'[]'::bytea`),
    /**
     * SHA-256 of the shipment with `results` as stored, null while unpriced: pricing a quote again to
     * the same prices writes only its new expiry, on the condition that this still matches.
     */
    resultsDigest: text('results_digest'),
    /** Set when the table prices cannot be had and staff must quote by hand. */
    manualReason: text('manual_reason').$type<ManualReason>(),
    pricedAt: timestamp('priced_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('truck_quotes_no').on(t.tenantId, t.quoteNo),
    index('truck_quotes_org_time').on(t.tenantId, t.organisationId, t.createdAt),
  ],
);

/** A manual quotation task: a shipment the tables cannot price, priced by staff. */
export const quotationTasks = pgTable(
  'quotation_tasks',
  {
    tenantId: tenantId(),
    id: id(),
    taskNo: text('task_no').notNull(),
    quoteId: bigint('quote_id', { mode: 'number' }).notNull(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    status: text('status').$type<TaskStatus>().notNull().default('pending'),
    reason: text('reason').$type<ManualReason>().notNull(),
    note: text('note').notNull().default(''),
    /** What staff priced: the operator's cost, the carrier, transit days; the levels come from markups. */
    productId: bigint('product_id', { mode: 'number' }),
    carrier: text('carrier').notNull().default(''),
    transitDaysMin: bigint('transit_days_min', { mode: 'number' }),
    transitDaysMax: bigint('transit_days_max', { mode: 'number' }),
    result: jsonb('result').$type<QuoteResult>(),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    pricedBy: bigint('priced_by', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('quotation_tasks_no').on(t.tenantId, t.taskNo),
    index('quotation_tasks_status').on(t.tenantId, t.status, t.createdAt),
  ],
);

/** Every step of a quotation task: who moved it, from which status to which, and why. */
export const quotationTaskEvents = pgTable(
  'quotation_task_events',
  {
    tenantId: tenantId(),
    id: id(),
    taskId: bigint('task_id', { mode: 'number' }).notNull(),
    action: text('action').notNull(),
    fromStatus: text('from_status').$type<TaskStatus>(),
    toStatus: text('to_status').$type<TaskStatus>().notNull(),
    actorId: bigint('actor_id', { mode: 'number' }).notNull(),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('quotation_task_events_task').on(t.tenantId, t.taskId),
  ],
);
