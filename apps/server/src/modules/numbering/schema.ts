import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { tenantId } from '../../db/columns.ts';

/** Per-tenant, per-day counters for order, quote and task numbers. */
export const serialCounters = pgTable(
  'serial_counters',
  {
    tenantId: tenantId(),
    kind: text('kind').notNull(),
    day: text('day').notNull(),
    last: integer('last').notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.kind, t.day] })],
);
