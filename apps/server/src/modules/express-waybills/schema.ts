import type { CarrierFailure, LabelFormat } from '@freight/contracts/carriers';
import type { ExpressQuoteChannel, ExpressShipmentInput } from '@freight/contracts/express-quotes';
import type { ExpressBreakdown, ExpressPriceLevel } from '@freight/contracts/express-rating';
import type { TRACKING_SOURCES, TrackingCode, WaybillStatus } from '@freight/contracts/express-waybills';
import { sql } from 'drizzle-orm';
import {
  bigint,
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

/**
 * An express waybill: the shipment, the channel and every level's price are snapshots taken from the
 * quote at booking, so later changes to tables or markups never change a booked price.
 */
export const expressWaybills = pgTable(
  'express_waybills',
  {
    tenantId: tenantId(),
    id: id(),
    waybillNo: text('waybill_no').notNull(),
    trackingNo: text('tracking_no').notNull(),
    reference: text('reference').notNull().default(''),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    quoteId: bigint('quote_id', { mode: 'number' }),
    channelId: bigint('channel_id', { mode: 'number' }).notNull(),
    channel: jsonb('channel').$type<ExpressQuoteChannel>().notNull(),
    status: text('status').$type<WaybillStatus>().notNull(),
    shipment: jsonb('shipment').$type<ExpressShipmentInput>().notNull(),
    breakdown: jsonb('breakdown').$type<ExpressBreakdown>().notNull(),
    levels: jsonb('levels').$type<ExpressPriceLevel[]>().notNull(),
    /** What the booking customer pays, and what the operator's channel costs. */
    total: cents('total_cents'),
    cost: cents('cost_cents'),
    /** Paid so far, less refunds. */
    paid: cents('paid_cents'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** The carrier's own reference when its provider gives one: the id of its shipment, which voids it. */
    carrierReference: text('carrier_reference'),
    /** A carrier channel's account and service, fixed at booking: the label is bought through them. */
    carrierAccountId: bigint('carrier_account_id', { mode: 'number' }),
    carrierService: text('carrier_service'),
    /** What the carrier draws the label as, as the channel said at booking. */
    carrierLabelFormat: text('carrier_label_format').$type<LabelFormat>(),
    /** The label purchase's key, the same on every attempt, by which the carrier's records tell a retry. */
    labelKey: text('label_key'),
    /** Purchase attempts begun: after the first, the carrier is asked for an earlier purchase first. */
    labelAttempts: integer('label_attempts').notNull().default(0),
    /** The carrier's label, a private file of the upload store (its key). */
    labelFile: text('label_file'),
    /** Why the carrier refused the label, when it did. */
    labelFailure: text('label_failure').$type<CarrierFailure>(),
    /** The carrier's own words about the last failed call, for staff. */
    carrierError: text('carrier_error'),
    printCount: integer('print_count').notNull().default(0),
    printedAt: timestamp('printed_at', { withTimezone: true }),
    refundReason: text('refund_reason').notNull().default(''),
    /** A return waybill's original: the parcel comes back from its recipient to a return address. */
    returnOfId: bigint('return_of_id', { mode: 'number' }),
    returnOfNo: text('return_of_no'),
    /** The status a waybill in dispute was frozen from, to go back to when released. */
    frozenFrom: text('frozen_from').$type<WaybillStatus>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('express_waybills_no').on(t.tenantId, t.waybillNo),
    uniqueIndex('express_waybills_tracking').on(t.tenantId, t.trackingNo),
    // One waybill per quote: booking a quote twice, or twice at once, books it once.
    uniqueIndex('express_waybills_quote').on(t.tenantId, t.quoteId),
    // One return a waybill: asking again answers the return already made.
    uniqueIndex('express_waybills_return_of').on(t.tenantId, t.returnOfId),
    index('express_waybills_org_time').on(t.tenantId, t.organisationId, t.id),
    index('express_waybills_status').on(t.tenantId, t.status, t.id),
    // The carrier's waybills still moving, which the label and tracking jobs look for.
    index('express_waybills_carrier_open')
      .on(t.status, t.tenantId, t.id)
      .where(sql`${t.carrierAccountId} is not null`),
  ],
);

/** Every move of a waybill: who, from which status to which, and why. */
export const expressWaybillEvents = pgTable(
  'express_waybill_events',
  {
    tenantId: tenantId(),
    id: id(),
    waybillId: bigint('waybill_id', { mode: 'number' }).notNull(),
    action: text('action').notNull(),
    fromStatus: text('from_status').$type<WaybillStatus>(),
    toStatus: text('to_status').$type<WaybillStatus>().notNull(),
    actorId: bigint('actor_id', { mode: 'number' }),
    note: text('note').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('express_waybill_events_waybill').on(t.tenantId, t.waybillId),
  ],
);

/**
 * The scans of a waybill (`/waybillTracking`): added by staff, imported from a sheet or reported by the
 * channel's carrier provider. One scan of one kind at one moment is recorded once, so importing a
 * sheet again or hearing from the carrier twice adds nothing.
 */
export const expressTrackingEvents = pgTable(
  'express_tracking_events',
  {
    tenantId: tenantId(),
    id: id(),
    waybillId: bigint('waybill_id', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    code: text('code').$type<TrackingCode>().notNull(),
    location: text('location').notNull().default(''),
    note: text('note').notNull().default(''),
    source: text('source').$type<(typeof TRACKING_SOURCES)[number]>().notNull(),
    actorId: bigint('actor_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('express_tracking_events_scan').on(t.tenantId, t.waybillId, t.at, t.code),
    index('express_tracking_events_time').on(t.tenantId, t.at),
  ],
);
