import { getTableColumns, getTableName, is, SQL, sql } from 'drizzle-orm';
import { type PgColumn, PgJson, PgJsonb, type PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client.ts';

/**
 * Many rows of a table as one statement's row source: the rows travel as a single JSON parameter that
 * the database reads back with `jsonb_to_recordset`. A multi-row `VALUES` of a wide table builds and
 * sends one parameter per value (500 orders of 39 columns are 19,500), and building them costs more
 * than the database's own work; one JSON text costs one `JSON.stringify`. Values are converted as
 * drizzle's insert converts them, and every row
 * gives the same columns (the others take their defaults).
 */
export interface RecordSet {
  /** The column list, for `insert into t (...)`. */
  columns: SQL;
  /**
   * `jsonb_to_recordset($1) as r(...)`, to select the same columns from. As jsonb the document is parsed
   * once: read as json, each jsonb column's part was parsed again (a fifth more of the statement's time).
   */
  source: SQL;
  /** The same columns as read from the source, for `select ... from source`. */
  values: SQL;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Columns a row that leaves them out still gets from the application, as drizzle's insert does. */
const runtimeDefault = (column: PgColumn) =>
  column.defaultFn !== undefined || (column.default === undefined && column.onUpdateFn !== undefined);

/** How a column's value goes into the JSON document; decided once per column, not once per value. */
function converter(column: PgColumn): (value: unknown) => unknown {
  // JSON columns go into the document as they are; the column reads its part back as json.
  if (is(column, PgJsonb) || is(column, PgJson)) return (value) => value ?? null;
  return (value) => {
    if (value === null || value === undefined) return null;
    const mapped = column.mapToDriverValue(value);
    if (typeof mapped === 'bigint') return mapped.toString();
    if (mapped instanceof Date) return mapped.toISOString();
    return mapped;
  };
}

export function recordSet<T extends PgTable>(table: T, rows: readonly T['$inferInsert'][]): RecordSet {
  // A generated column is the database's to fill: a row read back whole and written again leaves it out.
  const columns = Object.fromEntries(
    Object.entries(getTableColumns(table) as Record<string, PgColumn>).filter(([, c]) => !c.generated),
  );
  /** The table's columns a row gives a value for. */
  const given = (row: Record<string, unknown>) => {
    const keys: string[] = [];
    for (const key in row) if (row[key] !== undefined && key in columns) keys.push(key);
    return keys;
  };
  const keys = new Set(given((rows[0] ?? {}) as Record<string, unknown>));
  const used = Object.entries(columns)
    .filter(([key, column]) => keys.has(key) || runtimeDefault(column))
    .map(([key, column]) => ({ key, column, name: column.name, convert: converter(column) }));
  const document = rows.map((item) => {
    const row = item as Record<string, unknown>;
    // One column list for every row: a row that left a column out would get null, not its default.
    if (given(row).length !== keys.size)
      throw new Error(`${getTableName(table)}: every row of a bulk insert must give the same columns`);
    const record: Record<string, unknown> = {};
    for (const { key, column, name, convert } of used) {
      let value = row[key];
      if (value === undefined) {
        if (keys.has(key))
          throw new Error(`${getTableName(table)}: every row of a bulk insert must give the same columns`);
        value = column.defaultFn ? column.defaultFn() : column.onUpdateFn?.();
      }
      if (value instanceof SQL)
        throw new Error(`${getTableName(table)}.${key}: SQL values cannot be bulk inserted`);
      record[name] = convert(value);
    }
    return record;
  });
  const names = used.map(({ name }) => quoted(name));
  return {
    columns: sql.raw(names.join(', ')),
    source: sql`jsonb_to_recordset(${JSON.stringify(document)}::jsonb) as r(${sql.raw(
      used.map(({ name, column }) => `${quoted(name)} ${column.getSQLType()}`).join(', '),
    )})`,
    values: sql.raw(names.map((n) => `r.${n}`).join(', ')),
  };
}

/**
 * Runs one statement per chunk of `count` rows, building each chunk's statement while the database
 * runs the one before: the application's work on a chunk (its values, its JSON) overlaps the
 * database's work on the last, instead of one waiting for the other. The statements run one after
 * another on `db` (a transaction's one connection); the first that fails ends the run with its error.
 */
export async function inChunks(
  db: DbOrTx,
  count: number,
  size: number,
  statement: (from: number, to: number) => SQL | Promise<SQL>,
  answered?: (rows: unknown[]) => void,
  /** The first chunk's size, when smaller: the database starts sooner, while the rest is built. */
  firstSize = size,
): Promise<void> {
  let running: Promise<void> = Promise.resolve();
  for (let from = 0; from < count; ) {
    const to = Math.min(count, from + (from === 0 ? firstSize : size));
    const next = await statement(from, to);
    from = to;
    await running;
    running = db.execute(next).then((result) => answered?.(rowsOf(result)));
    // Awaited on the next turn or after the loop; until then a failure must not count as unhandled.
    running.catch(() => {});
  }
  await running;
}

/**
 * `inChunks` for statements that write numbered rows and answer each row's `id` and its number (the
 * column `numberColumn`): the ids by number, for a caller that answers its rows in the order their
 * numbers were handed out.
 */
export async function idsByNumber(
  db: DbOrTx,
  count: number,
  size: number,
  statement: (from: number, to: number) => SQL | Promise<SQL>,
  numberColumn: string,
  firstSize = size,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  await inChunks(
    db,
    count,
    size,
    statement,
    (rows) => {
      for (const row of rows as Record<string, unknown>[]) ids.set(String(row[numberColumn]), Number(row.id));
    },
    firstSize,
  );
  return ids;
}

/** Inserts many rows of a table, `size` rows a statement, by `recordSet`; in the caller's transaction when given one. */
export async function insertRows<T extends PgTable>(
  db: DbOrTx,
  table: T,
  rows: readonly T['$inferInsert'][],
  size = 1_000,
): Promise<void> {
  await inChunks(db, rows.length, size, (from, to) => {
    const set = recordSet(table, rows.slice(from, to));
    return sql`insert into ${table} (${set.columns}) select ${set.values} from ${set.source}`;
  });
}

/** The rows a raw statement answered, from either driver (node-postgres and PGlite both give `rows`). */
export const rowsOf = <T>(result: unknown): T[] =>
  ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
