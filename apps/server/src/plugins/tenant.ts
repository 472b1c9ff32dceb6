import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { runAsTenant } from '../db/tenant-scope.ts';
import { DEFAULT_TENANT_CODE, findTenantByCode, tenantCodeForHost } from '../modules/site/service.ts';
import type { RequestTenant } from './context.ts';
import { languageOf } from './envelope.ts';

/**
 * Resolves the tenant from the host on every request. A short cache keeps the lookup off the hot
 * path; a branding or settings save clears it in every process (plugins/cache-events.ts).
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

  app.decorate('forgetTenant', (code?: string) => (code === undefined ? cache.clear() : cache.delete(code)));
  app.decorateRequest('tenant', null as unknown as RequestTenant);
  app.decorateRequest('user', null);
  app.decorateRequest('language', 'zh-CN');

  async function resolveTenant(request: FastifyRequest) {
    request.language = languageOf(request);
    if (request.routeOptions.config?.probe) return;
    const code = tenantCodeForHost(request.host);
    const tenant = (await lookup(code)) ?? (await lookup(DEFAULT_TENANT_CODE));
    if (!tenant) throw new Error('no default tenant: the database was not seeded');
    request.tenant = tenant;
  }

  // The rest of the request runs as its tenant's work, so the database's row-level security sees it
  // (db/tenant-scope.ts). Callback hooks: the hooks after `done` and the handler run inside the scope.
  app.addHook('onRequest', (request, _reply, done) => {
    // Health probes skip the tenant (they answer while the database is away): they run as no tenant.
    resolveTenant(request).then(() => (request.tenant ? runAsTenant(request.tenant.id, done) : done()), done);
  });
  // A body is read in the request stream's own events. Fastify carries the scope through them today
  // (the tests read bodies and stream answers over a socket), but a body parser that resumed outside
  // it would run the handler as system work: entering it again before validation costs nothing.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.tenant) runAsTenant(request.tenant.id, done);
    else done();
  });
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Drops one host's cached tenant, or every one. */
    forgetTenant(code?: string): void;
  }
}
