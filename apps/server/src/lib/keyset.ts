import { count, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';

/**
 * Reads a whole result a page at a time by key (never by offset, which reads every skipped row again):
 * `fetch` gets the last row of the page before (null first) and answers the next page of at most
 * `size` rows. Stops after a short page.
 */
export async function* keysetPages<R>(
  size: number,
  fetch: (after: R | null, size: number) => Promise<R[]>,
): AsyncGenerator<R[]> {
  let after: R | null = null;
  for (;;) {
    const rows = await fetch(after, size);
    if (rows.length > 0) yield rows;
    const last = rows.at(-1);
    if (rows.length < size || last === undefined) return;
    after = last;
  }
}

/**
 * Rows after row `id` in newest-first order (`created_at desc, id desc`). The key is read from the row
 * itself in the database: a JavaScript Date keeps milliseconds, PostgreSQL microseconds, and a page
 * boundary between two rows of one millisecond would skip or repeat rows.
 */
export function olderThanRow(
  table: PgTable & { tenantId: PgColumn; id: PgColumn; createdAt: PgColumn },
  tenantId: number,
  id: number,
): SQL {
  const key = sql`from ${table} k where k.tenant_id = ${tenantId} and k.id = ${id}`;
  // The first half is what an index on (tenant_id, created_at) can start from; the row comparison
  // then settles the rows of the same instant.
  return sql`${table.createdAt} <= (select k.created_at ${key}) and (${table.createdAt}, ${table.id}) < (select k.created_at, k.id ${key})`;
}

/**
 * Rows of `table` matching `condition`, counted up to `cap + 1`: an index range that stops early, so
 * the count costs the same for a tenant of a hundred rows as for one of millions.
 */
export async function cappedCount(
  db: DbOrTx,
  table: PgTable,
  condition: SQL | undefined,
  cap: number,
): Promise<number> {
  const matching = db
    .select({ one: sql`1` })
    .from(table)
    .where(condition)
    .limit(cap + 1)
    .as('matching');
  const [row] = await db.select({ n: count() }).from(matching);
  return row?.n ?? 0;
}
