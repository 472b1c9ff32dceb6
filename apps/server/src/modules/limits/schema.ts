import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Per-client request counters (a fixed window per key), in the database so that every server process
 * counts against the same limit. Not business data: keys name an address, an account or an IP.
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
  count: integer('count').notNull().default(0),
});
