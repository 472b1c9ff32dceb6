import { type Language, languageFromLocale, ResultCode } from '@freight/contracts/api';
import { type MessageKey, translate } from '@freight/contracts/messages';
import {
  BODY_FIELD,
  type FieldError,
  fieldMessage,
  isSafeText,
  localizeIssues,
} from '@freight/contracts/validation';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchemaCompiler,
} from 'fastify';
import fp from 'fastify-plugin';
import { ZodError, type z } from 'zod';
import { AppError, isDatabaseUnavailable } from '../lib/errors.ts';

/**
 * The language of the answer: the one the client asks for (the web app always sends its current UI
 * language), else the signed-in user's saved language, else Chinese.
 */
export function languageOf(request: FastifyRequest): Language {
  const header = String(request.headers['accept-language'] ?? '').toLowerCase();
  if (header.startsWith('en')) return 'en-US';
  if (header.startsWith('zh')) return 'zh-CN';
  if (request.user) return languageFromLocale(request.user.locale);
  return 'zh-CN';
}

function send(reply: FastifyReply, status: number, code: number, msg: string, data: unknown = null) {
  reply.status(status).type('application/json; charset=utf-8');
  return reply.send({ code, msg, data });
}

/** A 4xx about the body as a whole: the message says what is wrong, and names the field `body`. */
function sendBodyError(
  reply: FastifyReply,
  status: number,
  language: Language,
  key: MessageKey,
  params: Record<string, string | number> = {},
) {
  const msg = translate(language, key, params);
  return send(reply, status, ResultCode.BadInput, msg, { fields: [{ field: BODY_FIELD, message: msg }] });
}

function sendFields(reply: FastifyReply, language: Language, fields: FieldError[]) {
  return send(reply, 400, ResultCode.BadInput, fields[0]?.message ?? translate(language, 'error.badInput'), {
    fields,
  });
}

/**
 * Validates with the route's zod schema and hands the ZodError itself to the error handler, so the
 * issues keep their paths and union branches (the default compiler flattens them).
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: result.error };
  };

/** The content type as the client named it, short and printable, for the 415 message. */
function contentTypeOf(request: FastifyRequest): string {
  const raw =
    String(request.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim() ?? '';
  const shown = raw.slice(0, 80);
  return shown && isSafeText(shown) ? shown : '(none)';
}

/**
 * Errors Fastify meets before any route runs (an over-long path parameter, a malformed URL): answered
 * in the envelope like every other answer of the API.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const language = languageOf(request);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return send(reply, 414, ResultCode.BadInput, translate(language, 'error.urlTooLong'));
  if (error.code === 'FST_ERR_BAD_URL')
    return send(reply, 400, ResultCode.BadInput, translate(language, 'error.badUrl'));
  request.log.error({ err: error }, 'framework error');
  return send(reply, 500, ResultCode.ServerError, translate(language, 'error.server'));
}

/**
 * The closing line of a stream that failed after its first line (the status, 200, is gone by then):
 * the envelope's code and message, 503 while the database is away, else 500.
 */
export function streamErrorLine(error: unknown, language: Language) {
  return isDatabaseUnavailable(error)
    ? {
        type: 'error' as const,
        code: ResultCode.Unavailable,
        msg: translate(language, 'error.databaseUnavailable'),
      }
    : { type: 'error' as const, code: ResultCode.ServerError, msg: translate(language, 'error.server') };
}

/** The envelope `{ code, msg, data }` is added here and nowhere else (ARCHITECTURE section 3). */
export const envelopePlugin = fp(async (app: FastifyInstance) => {
  // Clients POST with no body for calls that take no input; treat it as `{}`. Anything else goes to
  // Fastify's own parser, which drops a key `__proto__` (so no later copy of the body can set an
  // object's prototype from it) and looks for one only when the text holds it.
  const parseJson = app.getDefaultJsonParser('remove', 'ignore');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    parseJson(request, text, (error, value) => {
      if (!error) return done(null, value);
      done(Object.assign(new Error('invalid JSON'), { statusCode: 400, code: 'FP_INVALID_JSON' }), undefined);
    });
  });

  // The API speaks JSON (and multipart for uploads): a text/plain body is refused with 415 rather than
  // handed to a call as a string.
  app.removeContentTypeParser('text/plain');

  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.routeOptions.schema?.body && request.method === 'POST')
      request.body = {};
  });

  app.addHook('preSerialization', async (request, reply, payload) => {
    if (request.routeOptions.config?.raw || reply.statusCode >= 400) return payload;
    if (request.routeOptions.url?.startsWith('/api/docs')) return payload;
    if (payload && typeof payload === 'object' && 'code' in payload && 'msg' in payload) return payload;
    const language = request.language ?? languageOf(request);
    return {
      code: ResultCode.Ok,
      msg: translate(language, reply.messageKey ?? 'ok', reply.messageParams),
      data: payload ?? null,
    };
  });

  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    const language = request.language ?? languageOf(request);
    const scope = request.routeOptions.config?.labelScope;
    if (error instanceof AppError) {
      if (error.retryAfter) reply.header('retry-after', String(error.retryAfter));
      const fields = error.fields?.map((f) => ({
        field: f.field,
        message: fieldMessage(f.field, f.key, language, f.params, scope),
      }));
      const data = fields || error.data ? { ...error.data, ...(fields ? { fields } : {}) } : null;
      // A message about one field names it, as the field's own message does.
      const first = error.fields?.[0];
      const msg =
        first && fields?.[0] && first.key === error.key
          ? fields[0].message
          : translate(language, error.key, error.params);
      return send(reply, error.httpStatus, error.code, msg, data);
    }
    if (error instanceof ZodError)
      return sendFields(reply, language, localizeIssues(error.issues, language, scope));
    const status = (error as FastifyError).statusCode ?? 500;
    const code = (error as FastifyError).code ?? '';
    if (code === 'FP_INVALID_JSON') return sendBodyError(reply, 400, language, 'error.invalidJson');
    if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || (status === 406 && code.includes('MULTIPART')))
      return sendBodyError(reply, 415, language, 'error.unsupportedMediaType', {
        type: contentTypeOf(request),
      });
    if (status === 413)
      return send(reply, 413, ResultCode.BadInput, translate(language, 'error.payloadTooLarge'));
    if (status === 429) return send(reply, 429, ResultCode.TooMany, translate(language, 'error.tooMany'));
    if (status >= 400 && status < 500) {
      // Any other fault of the request's shape (a bad content length, a broken multipart body).
      return sendBodyError(reply, status, language, 'error.badInput');
    }
    if (isDatabaseUnavailable(error)) {
      // The database is down or restarting: say so and let the client retry; the pool reconnects by
      // itself once it is back.
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', '5');
      return send(reply, 503, ResultCode.Unavailable, translate(language, 'error.databaseUnavailable'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 500, ResultCode.ServerError, translate(language, 'error.server'));
  });
});
