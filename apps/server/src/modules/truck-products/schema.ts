import type { Accessorial, FtlTariff, InsuranceTerms, LtlTariff } from '@freight/contracts/truck-rating';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, updatedAt } from '../../db/columns.ts';

/** A truck product of the operator: a carrier's service, LTL or FTL, with its transit days. */
export const truckProducts = pgTable(
  'truck_products',
  {
    tenantId: tenantId(),
    id: id(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    nameEn: text('name_en').notNull(),
    carrier: text('carrier').notNull(),
    /** The carrier provider that rates and books this product; `builtin` prices from the lanes below. */
    provider: text('provider').notNull().default('builtin'),
    serviceLevel: text('service_level').notNull().default('standard'),
    mode: text('mode').$type<'LTL' | 'FTL'>().notNull(),
    transitDaysMin: integer('transit_days_min').notNull(),
    transitDaysMax: integer('transit_days_max').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    organisationIds: jsonb('organisation_ids').$type<number[]>().notNull().default([]),
    insurance: jsonb('insurance')
      .$type<InsuranceTerms>()
      .notNull()
      .default({ rateBp: 30, minimumPremium: 2_500, deductible: 10_000 }),
    /** Cents per accessorial the product offers; one it does not list cannot be booked with it. */
    accessorialFees: jsonb('accessorial_fees')
      .$type<Partial<Record<Accessorial, number>>>()
      .notNull()
      .default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('truck_products_code').on(t.tenantId, t.code),
  ],
);

/** FTL terms of a lane: a flat rate, or a rate per mile (miles from the lane or from the ZIP codes). */
export type LaneFtl = Omit<FtlTariff, 'miles'> & { miles?: number };

/**
 * One lane of a product's tariff: where from, where to, and the rates between them. An end is a ZIP3
 * range (`900-935`, or `900` alone), a state (`CA`) or `*` for anywhere; the narrowest match wins.
 */
export const truckLanes = pgTable(
  'truck_lanes',
  {
    tenantId: tenantId(),
    id: id(),
    productId: bigint('product_id', { mode: 'number' }).notNull(),
    origin: text('origin').notNull(),
    destination: text('destination').notNull(),
    ltl: jsonb('ltl').$type<LtlTariff>(),
    ftl: jsonb('ftl').$type<LaneFtl>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('truck_lanes_product_ends').on(t.tenantId, t.productId, t.origin, t.destination),
    index('truck_lanes_product').on(t.tenantId, t.productId),
  ],
);
