import type { LabelFormat } from '@freight/contracts/carriers';
import type {
  ExpressScope,
  PriceTable,
  RatingRules,
  ScheduledPrices,
  SurchargeTerms,
  UnitSystem,
} from '@freight/contracts/express-rating';
import {
  bigint,
  boolean,
  doublePrecision,
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

/** An express product: what customers buy and see on a quote, served by one or more channels. */
export const expressProducts = pgTable(
  'express_products',
  {
    tenantId: tenantId(),
    id: id(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    nameEn: text('name_en').notNull(),
    description: text('description').notNull().default(''),
    descriptionEn: text('description_en').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    /** Empty: open to every customer; otherwise to these organisations and those under them. */
    organisationIds: jsonb('organisation_ids').$type<number[]>().notNull().default([]),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('express_products_code').on(t.tenantId, t.code),
  ],
);

/**
 * A carrier's service behind a product, with its own units, limits, surcharges and price table. The
 * price table is one document (zones across, weight brackets down) read whole by rating; the zone
 * chart has rows of its own, as staff page and search it.
 */
export const expressChannels = pgTable(
  'express_channels',
  {
    tenantId: tenantId(),
    id: id(),
    productId: bigint('product_id', { mode: 'number' }).notNull(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    nameEn: text('name_en').notNull(),
    carrier: text('carrier').notNull(),
    service: text('service').notNull(),
    /** The carrier provider that rates and books it; `builtin` prices from the tables below. */
    provider: text('provider').notNull().default('builtin'),
    /** The carrier account that rates it when the provider is a carrier's (carriers module). */
    carrierAccountId: bigint('carrier_account_id', { mode: 'number' }),
    /** The carrier's service code: UPS's (`03`), or Karrio's `carrier:service` (`ups:ups_ground`). */
    carrierService: text('carrier_service').notNull().default(''),
    carrierLabelFormat: text('carrier_label_format').$type<LabelFormat>().notNull().default('pdf'),
    scope: text('scope').$type<ExpressScope>().notNull(),
    unitSystem: text('unit_system').$type<UnitSystem>().notNull(),
    currency: text('currency').$type<'USD'>().notNull().default('USD'),
    dimDivisor: integer('dim_divisor').notNull(),
    transitDaysMin: integer('transit_days_min').notNull(),
    transitDaysMax: integer('transit_days_max').notNull(),
    maxWeight: doublePrecision('max_weight').notNull(),
    maxLength: doublePrecision('max_length').notNull(),
    maxLengthGirth: doublePrecision('max_length_girth').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    organisationIds: jsonb('organisation_ids').$type<number[]>().notNull().default([]),
    surcharges: jsonb('surcharges').$type<SurchargeTerms>().notNull(),
    priceTable: jsonb('price_table').$type<PriceTable>(),
    /** Cards loaded ahead of their date; rating takes the latest begun by the ship date over `priceTable`. */
    scheduledPrices: jsonb('scheduled_prices').$type<ScheduledPrices[]>().notNull().default([]),
    /** The service guide's rules beyond the tables; null rates by the defaults (`DEFAULT_RATING_RULES`). */
    ratingRules: jsonb('rating_rules').$type<RatingRules>(),
    pricesUpdatedAt: timestamp('prices_updated_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('express_channels_code').on(t.tenantId, t.code),
    index('express_channels_product').on(t.tenantId, t.productId),
  ],
);

/** One row of a channel's zone chart (the /partitionTable page). */
export const expressZoneRows = pgTable(
  'express_zone_rows',
  {
    tenantId: tenantId(),
    id: id(),
    channelId: bigint('channel_id', { mode: 'number' }).notNull(),
    originFrom: text('origin_from').notNull(),
    originTo: text('origin_to').notNull(),
    destFrom: text('dest_from').notNull().default(''),
    destTo: text('dest_to').notNull().default(''),
    country: text('country').notNull().default(''),
    zone: text('zone').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('express_zone_rows_channel').on(t.tenantId, t.channelId, t.id),
  ],
);
