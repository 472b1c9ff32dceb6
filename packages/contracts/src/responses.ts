import { z } from 'zod';
import { isMoneyString } from './money.ts';

/**
 * Response contracts (ARCHITECTURE section 3): every answer is `{ code, msg, data }`, the envelope the
 * server adds in one place. A route declares `response: { 200: okResponse(data) }`; the web reads the
 * type of `data` with `Wire<typeof data>`.
 *
 * Response schemas describe the value a handler returns (dates as `Date`, say) and encode it to the
 * wire, so the type the web receives is the schema's input side: use `Wire`, not `z.infer`.
 */
export type Wire<S extends z.ZodType> = z.input<S>;

/** Money on the wire: a decimal string with two places ("12.50", "-3.00"); never a float. */
export const moneyString = z
  .string()
  .refine((v) => isMoneyString(v) && /\.\d{2}$/.test(v), { message: 'validation.money' })
  .meta({ description: 'Decimal string with two places, e.g. "12.50"', example: '12.50' });

/**
 * A point in time on the wire: an ISO 8601 string. Handlers may return a `Date` (what the database
 * gives) or a string already formatted; either goes out as the string.
 */
export const timestamp = z.codec(z.string().meta({ format: 'date-time' }), z.union([z.date(), z.string()]), {
  decode: (text) => text,
  encode: (value) => (value instanceof Date ? value.toISOString() : value),
});

/** A calendar day, "2026-05-31". */
export const dayString = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * The schema a route declares: at run time the envelope `{ code, msg, data }` (what the serializer
 * checks and OpenAPI shows), typed as the data alone, because a handler returns the data and the
 * envelope plugin wraps it before serialization.
 */
export type Enveloped<T extends z.ZodType> = z.ZodType<z.output<T>, z.input<T>>;

/** The envelope around a successful answer's data. */
export function okResponse<T extends z.ZodType>(data: T): Enveloped<T> {
  return z.object({
    code: z.number().int().meta({ description: '200 on success' }),
    msg: z.string(),
    data,
  }) as unknown as Enveloped<T>;
}

/** A call that answers no data (`data: null`). */
export const emptyResponse = okResponse(z.null());

/** The list shape of ARCHITECTURE section 3: `{ list, total, page, limit }`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    total: z.number().int().nonnegative(),
    page: z.number().int().positive(),
    limit: z.number().int().positive(),
  });
}

/** The envelope around a page of a list. */
export function listResponse<T extends z.ZodType>(item: T) {
  return okResponse(pageOf(item));
}

/** A list answered whole, without paging: `{ list }`. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ list: z.array(item) });
}

/** Bytes sent as they are; the handler replies with a buffer or a stream. */
const binary = z.any().meta({ type: 'string', format: 'binary' });

/**
 * An answer that is not JSON in the envelope (a spreadsheet, a file, a stream): OpenAPI shows its
 * content types; the server sends the bytes as they are.
 */
export function rawResponse(contentTypes: string | string[], description: string) {
  const types = Array.isArray(contentTypes) ? contentTypes : [contentTypes];
  return {
    description,
    content: Object.fromEntries(types.map((type) => [type, { schema: binary }])),
  };
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An .xlsx download. */
export const xlsxResponse = rawResponse(XLSX_TYPE, 'An .xlsx workbook');

/**
 * A batch import's answer (SPEC section 3 "Batch validation result"): each row by the number the
 * spreadsheet shows it under, `success` or the row's message. Truck and express batches alike.
 */
export const batchRowsView = z.record(z.string(), z.string());
