import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { redactBody, writeOperationLog } from '../modules/oplog/service.ts';

/** Every route with `config.audit` leaves a row in the operation log, success or not. */
export const auditPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply, payload) => {
    const action = request.routeOptions.config?.audit;
    if (!action) return payload;
    const match = typeof payload === 'string' ? /^\{"code":(\d+)/.exec(payload) : null;
    const resultCode = match ? Number(match[1]) : reply.statusCode < 400 ? 200 : reply.statusCode;
    const user = request.user ?? request.auditUser;
    try {
      await writeOperationLog(app.db, {
        tenantId: request.tenant.id,
        userId: user?.id ?? null,
        userEmail: user?.email ?? String((request.body as { email?: unknown } | undefined)?.email ?? ''),
        action,
        method: request.method,
        path: request.url.split('?')[0] ?? request.url,
        target: request.auditTarget ?? '',
        resultCode,
        ip: request.ip,
        requestId: request.id,
        detail: { body: redactBody(request.body) },
      });
    } catch (err) {
      request.log.error({ err }, 'operation log write failed');
    }
    return payload;
  });
});
