import { storableText } from '@freight/contracts/validation';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { redactBody, writeOperationLog } from '../modules/oplog/service.ts';

const audited = new Set<string>();

/** Every action a route of this process can write to the operation log (each has words to show it). */
export function auditedActions(): ReadonlySet<string> {
  return audited;
}

/** Every route with `config.audit` leaves a row in the operation log, success or not. */
export const auditPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRoute', (route) => {
    const action = (route.config as { audit?: string } | undefined)?.audit;
    if (action) audited.add(action);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const action = request.routeOptions.config?.audit;
    // A call refused before its tenant was known (a disabled site) has no tenant to log it under.
    if (!action || !request.tenant) return payload;
    const match = typeof payload === 'string' ? /^\{"code":(\d+)/.exec(payload) : null;
    const resultCode = match ? Number(match[1]) : reply.statusCode < 400 ? 200 : reply.statusCode;
    const user = request.user ?? request.auditUser;
    try {
      await writeOperationLog(app.db, {
        tenantId: request.tenant.id,
        userId: user?.id ?? null,
        userEmail: user?.email ?? storableText(String(bodyEmail(request.body) ?? ''), 254),
        action,
        method: request.method,
        path: request.url.split('?')[0] ?? request.url,
        target: request.auditTarget ?? '',
        resultCode,
        ip: request.ip,
        requestId: request.id,
        detail: { body: storable(redactBody(request.body)) },
      });
    } catch (err) {
      request.log.error({ err }, 'operation log write failed');
    }
    return payload;
  });
});

function bodyEmail(body: unknown): unknown {
  return body && typeof body === 'object' ? (body as { email?: unknown }).email : undefined;
}

/**
 * A refused call is logged with what it sent, which may hold characters PostgreSQL cannot store (NUL,
 * a surrogate cut in half): those are replaced so the log row is still written.
 */
function storable<T>(value: T): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return storableText(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [storableText(k), walk(inner)]));
    return v;
  };
  return walk(value) as T;
}
