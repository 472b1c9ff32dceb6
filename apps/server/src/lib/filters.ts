import { gte, lt, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/** `like` wildcards typed by a user are matched as themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A pattern for numbers that start with what was typed (numbers are stored in capitals). */
export const numberPrefix = (keyword: string) => `${escapeLike(keyword.toUpperCase())}%`;

/** A pattern for text that contains what was typed. */
export const containing = (keyword: string) => `%${escapeLike(keyword)}%`;

/** From the start of `from` to the end of `to` (UTC days, `YYYY-MM-DD`), either side optional. */
export function dayRange(column: PgColumn, from?: string, to?: string): SQL[] {
  return [
    ...(from ? [gte(column, new Date(`${from}T00:00:00Z`))] : []),
    ...(to ? [lt(column, new Date(Date.parse(`${to}T00:00:00Z`) + 86_400_000))] : []),
  ];
}
