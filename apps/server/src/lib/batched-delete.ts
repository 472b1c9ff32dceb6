import { type SQL, sql } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';

/** Rows one statement deletes at most: a few milliseconds of row locks, however long the backlog. */
export const DELETE_BATCH = 1000;

export interface BatchOptions {
  batch?: number;
  /** Stops between batches (the server is shutting down); what is left goes next time. */
  signal?: AbortSignal;
}

const rowsOf = (result: unknown) => ((result as { rows?: unknown[] }).rows ?? (result as unknown[])).length;

/**
 * The table's primary key columns. Rows are picked by it rather than by their physical
 * address (`ctid`), which on Citus is a shard's own and not unique across the table.
 */
function primaryKeyOf(table: PgTable): SQL {
  const config = getTableConfig(table);
  const columns = config.primaryKeys[0]?.columns ?? config.columns.filter((column) => column.primary);
  if (columns.length === 0) throw new Error(`${config.name} has no primary key to delete by`);
  return sql.join(
    columns.map((column) => sql.identifier(column.name)),
    sql`, `,
  );
}

/**
 * Deletes the rows matching `where`, one bounded statement at a time, each committed on its own, until
 * none is left. Rows are picked by their key and `where` is checked again as each is deleted, so a row
 * changed in between (a rate-limit window just renewed) is left alone.
 */
export async function deleteInBatches(
  db: DbOrTx,
  table: PgTable,
  where: SQL,
  options: BatchOptions = {},
): Promise<number> {
  const batch = options.batch ?? DELETE_BATCH;
  const key = primaryKeyOf(table);
  let total = 0;
  while (!options.signal?.aborted) {
    const result = await db.execute(
      sql`delete from ${table} where (${key}) in (select ${key} from ${table} where ${where} limit ${batch}) and ${where} returning 1`,
    );
    const deleted = rowsOf(result);
    total += deleted;
    if (deleted < batch) break;
  }
  return total;
}
