import { ResultCode } from '@freight/contracts/api';
import type { MessageKey } from '@freight/contracts/messages';

const HTTP_STATUS: Record<number, number> = {
  [ResultCode.BadInput]: 400,
  [ResultCode.SessionInvalid]: 401,
  [ResultCode.Forbidden]: 403,
  [ResultCode.NotFound]: 404,
  [ResultCode.Conflict]: 409,
  [ResultCode.TooMany]: 429,
  [ResultCode.ServerError]: 500,
  [ResultCode.Unavailable]: 503,
};

/** A bad field found by a service (not by the schema): translated when the answer is written. */
export interface FieldIssue {
  field: string;
  key: MessageKey;
  params?: Record<string, string | number>;
}

/** The one error type of the server: an envelope code, a message key, its parameters. */
export class AppError extends Error {
  readonly httpStatus: number;
  constructor(
    readonly code: number,
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
    readonly fields?: FieldIssue[],
    readonly data?: Record<string, unknown>,
    /** Seconds until the call may be made again (a limit's 429): sent as `Retry-After`. */
    readonly retryAfter?: number,
  ) {
    super(key);
    this.httpStatus = HTTP_STATUS[code] ?? 400;
  }
}

export const badInput = (key: MessageKey = 'error.badInput', fields?: FieldIssue[], params = {}) =>
  new AppError(ResultCode.BadInput, key, params, fields);
/** A 400 naming one field, with the field's own message. */
export const badField = (field: string, key: MessageKey, params: Record<string, string | number> = {}) =>
  new AppError(ResultCode.BadInput, key, params, [{ field, key, params }]);
export const notFound = (key: MessageKey = 'error.notFound') => new AppError(ResultCode.NotFound, key);
export const conflict = (key: MessageKey = 'error.conflict', params = {}) =>
  new AppError(ResultCode.Conflict, key, params);
export const forbidden = (key: MessageKey = 'error.forbidden') => new AppError(ResultCode.Forbidden, key);
export const sessionInvalid = (key: MessageKey = 'error.sessionInvalid') =>
  new AppError(ResultCode.SessionInvalid, key);
export const tooMany = (key: MessageKey = 'error.tooMany', params = {}, retryAfter?: number) =>
  new AppError(ResultCode.TooMany, key, params, undefined, undefined, retryAfter);

/** A PostgreSQL unique-constraint violation (23505), as thrown by either driver through Drizzle. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** SQLSTATEs that say the server cannot serve now: class 08 (connection), shutting down, too many clients. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket errors on the way to the database. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
/** What node-postgres says when a connection breaks or the pool cannot hand one out in time. */
const UNAVAILABLE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not queryable|Cannot use a pool after calling end/i;

/**
 * The database is away (down, restarting, unreachable, out of connections) rather than the query
 * wrong: the answer is a 503 to retry, not a 500. Looks through Drizzle's wrapping (`cause`) and
 * Node's AggregateError (`errors`, one per address tried).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (code.startsWith('08') && code.length === 5) return true;
  if (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_CODES.has(code)) return true;
  if (typeof e.message === 'string' && UNAVAILABLE_TEXT.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1)))
    return true;
  return isDatabaseUnavailable(e.cause, depth + 1);
}
