import { z } from 'zod';

/* The base schemas every field is built on: safe text, strict ids and numbers, real dates. */

/**
 * Whether a text holds only characters a person types: no C0 control character other than tab, line
 * feed and carriage return, no DEL, and no half of a surrogate pair. PostgreSQL refuses NUL outright,
 * and a lone surrogate cannot be stored as UTF-8.
 */
export function isSafeText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) {
      if (c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
    } else if (c === 0x7f) {
      return false;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) {
      return false;
    }
  }
  return true;
}

/**
 * Text that came from outside any schema (a file's name, a logged request body) made storable: each
 * unsafe character becomes U+FFFD, and the text is cut to `max` characters without halving a pair.
 */
export function storableText(text: string, max = Number.POSITIVE_INFINITY): string {
  if (text.length <= max && isSafeText(text)) return text;
  let out = '';
  let count = 0;
  for (const c of text) {
    if (count++ >= max) break;
    out += isSafeText(c) ? c : '\uFFFD';
  }
  return out;
}

/**
 * The base of every string field, in bodies, query strings and paths: a string of safe characters
 * (see isSafeText). Chain `.max()` (every free text has one), `.trim()`, `.regex()` as usual.
 */
export const str = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isSafeText, { error: 'validation.controlCharacters', abort: true });

/** Largest id a `bigint` key column holds that JavaScript counts exactly. */
export const MAX_ID = Number.MAX_SAFE_INTEGER;
/** Largest value of an `integer` (int4) column. */
export const MAX_INT4 = 2_147_483_647;

/**
 * A row id in a JSON body: a positive integer. A string, boolean, list or fraction is refused, never
 * coerced (`true` once read as id 1 and deleted a row).
 */
export const idField = (max: number = MAX_ID) => z.number().int().positive().max(max);

/**
 * A whole number in a query string or path, where every value arrives as text: digits only, no sign,
 * no leading zero, at most 16 digits, within `max`. Anything else (a list, `1e3`, ` 1`, `0x1`) is refused.
 */
export const queryInt = (max: number = MAX_ID) =>
  z
    .string()
    .regex(/^[1-9]\d{0,15}$/, { error: 'validation.invalid' })
    .transform(Number)
    .pipe(z.number().max(max));
/** A row id in a query string or path. */
export const queryId = (max: number = MAX_ID) => queryInt(max);

function isRealDay(day: string): boolean {
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(day);
}

/** A calendar date `YYYY-MM-DD` that exists (no 2024-02-30), years 1000 to 9999. */
export const dayField = () =>
  z
    .string()
    .regex(/^[1-9]\d{3}-\d{2}-\d{2}$/, { error: 'validation.date' })
    .refine(isRealDay, { error: 'validation.date' });

/**
 * A point in time as the web sends it: a `YYYY-MM-DD` day or an ISO 8601 date-time, read as a Date.
 * Numbers, booleans and dates outside years 1000 to 9999 are refused (PostgreSQL's range is narrower
 * than JavaScript's, and `true` is not a date).
 */
export const instantField = () =>
  z
    .string()
    .max(40)
    .regex(/^[1-9]\d{3}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/, {
      error: 'validation.dateTime',
    })
    // The day must exist: JavaScript would read 2024-02-30 as 1 March.
    .refine((v) => isRealDay(v.slice(0, 10)), { error: 'validation.dateTime' })
    .transform((v) => new Date(v))
    .pipe(z.date({ error: 'validation.dateTime' }));
