import type { InsuranceTerms } from '@freight/contracts/truck-rating';
import { boolean, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('truck_products_code').on(t.tenantId, t.code),
  ],
);
