import { type Language, languageFromLocale, ResultCode } from '@freight/contracts/api';
import { translate } from '@freight/contracts/messages';
import { fieldLabel, localizeIssues } from '@freight/contracts/validation';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError, type z } from 'zod';
import { AppError } from '../lib/errors.ts';

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

/** The envelope `{ code, msg, data }` is added here and nowhere else (ARCHITECTURE section 3). */
export const envelopePlugin = fp(async (app: FastifyInstance) => {
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
    if (error instanceof AppError) {
      const fields = error.fields?.map((f) => ({
        field: f.field,
        message: translate(language, f.key, { field: fieldLabel(f.field, language), ...f.params }),
      }));
      const data = fields || error.data ? { ...error.data, ...(fields ? { fields } : {}) } : null;
      return send(reply, error.httpStatus, error.code, translate(language, error.key, error.params), data);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // The type provider flattens each zod issue; put its code and path back.
      const issues = error.validation.map(
        (v) =>
          ({
            ...v.params,
            code: v.keyword,
            path: v.instancePath.split('/').filter(Boolean),
            message: v.message ?? '',
          }) as z.core.$ZodIssue,
      );
      const fields = localizeIssues(issues, language);
      return send(
        reply,
        400,
        ResultCode.BadInput,
        fields[0]?.message ?? translate(language, 'error.badInput'),
        {
          fields,
        },
      );
    }
    if (error instanceof ZodError) {
      const fields = localizeIssues(error.issues, language);
      return send(
        reply,
        400,
        ResultCode.BadInput,
        fields[0]?.message ?? translate(language, 'error.badInput'),
        {
          fields,
        },
      );
    }
    const status = (error as FastifyError).statusCode ?? 500;
    if (status === 413)
      return send(reply, 413, ResultCode.BadInput, translate(language, 'error.payloadTooLarge'));
    if (status === 429) return send(reply, 429, ResultCode.TooMany, translate(language, 'error.tooMany'));
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type and the like: the client's fault, said plainly.
      return send(reply, status, ResultCode.BadInput, translate(language, 'error.badInput'));
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 500, ResultCode.ServerError, translate(language, 'error.server'));
  });
});
