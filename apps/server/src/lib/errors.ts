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
