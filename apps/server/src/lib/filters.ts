import { and, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** `like` wildcards typed by a user are matched as themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * What starts with `start`, as `startsWith` matches it: the byte range `[start, end)` and the exact
 * `like` pattern. Apart for statements prepared once, which take them as parameters.
 */
export function prefixRange(start: string) {
  // The highest code point (a noncharacter no number or path holds): all that start with `start` sort below this.
  return { start, end: `${start}\u{10FFFF}`, pattern: `${escapeLike(start)}%` };
}

/**
 * Rows where one of `columns` starts with `start`. Row-level security checks its policy before any
 * condition whose function is not leakproof, so under the policy `like` cannot take an index and a
 * tenant's rows are read whole. The pattern comparisons `~>=~` and `~<~` are leakproof: the byte
 * ranges, in a condition of their own, take the `text_pattern_ops` indexes; `like`, in a second
 * condition, keeps the match exact on the rows they found.
 */
export function startsWith(columns: (PgColumn | SQL)[], start: string): SQL | undefined {
  const { end, pattern } = prefixRange(start);
  return and(
    or(...columns.map((c) => sql`(${c} ~>=~ ${start} and ${c} ~<~ ${end})`)),
    or(...columns.map((c) => sql`${c} like ${pattern}`)),
  );
}

/** Rows where one of the numbers (stored in capitals) starts with what was typed. */
export const numbersStartWith = (columns: (PgColumn | SQL)[], keyword: string) =>
  startsWith(columns, keyword.toUpperCase());

/** A pattern for text that contains what was typed. */
export const containing = (keyword: string) => `%${escapeLike(keyword)}%`;

/** From the start of `from` to the end of `to` (UTC days, `YYYY-MM-DD`), either side optional. */
export function dayRange(column: PgColumn, from?: string, to?: string): SQL[] {
  return [
    ...(from ? [gte(column, new Date(`${from}T00:00:00Z`))] : []),
    ...(to ? [lt(column, new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000))] : []),
  ];
}
