import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DEFAULT_TENANT_CODE, findTenantByCode, tenantCodeForHost } from '../modules/site/service.ts';
import type { RequestTenant } from './context.ts';
import { languageOf } from './envelope.ts';

/**
 * Resolves the tenant from the host on every request. A short cache keeps the lookup off the hot
 * path; copies of the server agree within its few seconds, and a branding save clears it locally.
 */
export const tenantPlugin = fp(async (app: FastifyInstance) => {
  const cache = new Map<string, { tenant: RequestTenant; until: number }>();
  const TTL_MS = 5_000;

  async function lookup(code: string): Promise<RequestTenant | null> {
    const hit = cache.get(code);
    if (hit && hit.until > Date.now()) return hit.tenant;
    const tenant = await findTenantByCode(app.db, code);
    if (tenant) cache.set(code, { tenant, until: Date.now() + TTL_MS });
    return tenant;
  }

  app.decorate('forgetTenant', (code: string) => cache.delete(code));
  app.decorateRequest('tenant', null as unknown as RequestTenant);
  app.decorateRequest('user', null);
  app.decorateRequest('language', 'zh-CN');

  app.addHook('onRequest', async (request) => {
    request.language = languageOf(request);
    if (request.routeOptions.config?.probe) return;
    const code = tenantCodeForHost(request.host);
    const tenant = (await lookup(code)) ?? (await lookup(DEFAULT_TENANT_CODE));
    if (!tenant) throw new Error('no default tenant: the database was not seeded');
    request.tenant = tenant;
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    forgetTenant(code: string): void;
  }
}
