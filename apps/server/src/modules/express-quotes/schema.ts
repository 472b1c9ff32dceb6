import type {
  ExpressQuoteResult,
  ExpressQuoteStatus,
  ExpressShipmentInput,
} from '@freight/contracts/express-quotes';
import { bigint, index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, updatedAt } from '../../db/columns.ts';

/**
 * An express quote: the shipment as the form sent it and the price of every channel for it. Changing
 * the shipment empties `results`; selecting fixes one channel, which the waybill is booked on.
 */
export const expressQuotes = pgTable(
  'express_quotes',
  {
    tenantId: tenantId(),
    id: id(),
    quoteNo: text('quote_no').notNull(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    status: text('status').$type<Exclude<ExpressQuoteStatus, 'expired'>>().notNull().default('open'),
    shipment: jsonb('shipment').$type<ExpressShipmentInput>().notNull(),
    results: jsonb('results').$type<ExpressQuoteResult[]>().notNull().default([]),
    selectedChannelId: bigint('selected_channel_id', { mode: 'number' }),
    pricedAt: timestamp('priced_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('express_quotes_no').on(t.tenantId, t.quoteNo),
    index('express_quotes_org_time').on(t.tenantId, t.organisationId, t.createdAt),
  ],
);
