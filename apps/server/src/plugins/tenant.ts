import { ResultCode } from '@freight/contracts/api';
import { translate } from '@freight/contracts/messages';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { runAsSystem, runAsTenant } from '../db/tenant-scope.ts';
import { AppError } from '../lib/errors.ts';
import { DEFAULT_TENANT_CODE, findTenantForHost, type HostTenant } from '../modules/site/service.ts';
import type { RequestTenant } from './context.ts';
import { languageOf } from './envelope.ts';

/**
 * Resolves the tenant from the host on every request. A short cache keeps the lookup off the hot
 * path; a branding, settings, hosts or status change clears it in every process (plugins/cache-events.ts).
 *
 * A disabled tenant's hosts serve nothing of it (docs/decisions.md, "Disabled tenants"): the API answers
 * code 300 (HTTP 401) with a translated message, so an open page drops its session and says why, and a
 * browser asking for a page gets a plain translated page saying the site is disabled.
 */
export const tenantPlugin = fp(async (app: FastifyInstance) => {
  const cache = new Map<string, { found: HostTenant | null; until: number }>();
  const TTL_MS = 5_000;

  async function lookup(host: string): Promise<HostTenant | null> {
    const hit = cache.get(host);
    if (hit && hit.until > Date.now()) return hit.found;
    // A host's tenant is not known before this lookup: it reads the hosts of every tenant.
    const found = await runAsSystem(() => findTenantForHost(app.db, host));
    if (cache.size > 10_000) cache.clear();
    cache.set(host, { found, until: Date.now() + TTL_MS });
    return found;
  }

  app.decorate('forgetTenant', (code?: string) => {
    if (code === undefined) return cache.clear();
    for (const [host, entry] of cache)
      if (!entry.found || entry.found.tenant.code === code) cache.delete(host);
  });
  app.decorateRequest('tenant', null as unknown as RequestTenant);
  app.decorateRequest('user', null);
  app.decorateRequest('language', 'zh-CN');

  /** Sets the request's tenant; answers false when the host's tenant is disabled. */
  async function resolveTenant(request: FastifyRequest): Promise<boolean> {
    request.language = languageOf(request);
    if (request.routeOptions.config?.probe) return true;
    const found = (await lookup(request.host.toLowerCase())) ?? (await lookup(DEFAULT_TENANT_CODE));
    if (!found) throw new Error('no default tenant: the database was not seeded');
    if (found.disabled) return false;
    request.tenant = found.tenant;
    return true;
  }

  // The rest of the request runs as its tenant's work, so the database's row-level security sees it
  // (db/tenant-scope.ts). Callback hooks: the hooks after `done` and the handler run inside the scope.
  app.addHook('onRequest', (request, reply, done) => {
    // Health probes skip the tenant (they answer while the database is away): they run as no tenant.
    resolveTenant(request).then((enabled) => {
      if (!enabled) refuseDisabled(request, reply, done);
      else if (request.tenant) runAsTenant(request.tenant.id, done);
      else done();
    }, done);
  });
  // A body is read in the request stream's own events. Fastify carries the scope through them today
  // (the tests read bodies and stream answers over a socket), but a body parser that resumed outside
  // it would run the handler as system work: entering it again before validation costs nothing.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.tenant) runAsTenant(request.tenant.id, done);
    else done();
  });
});

function refuseDisabled(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
  const path = request.url.split('?')[0] ?? '';
  const wantsApi = path === '/api' || path.startsWith('/api/') || request.method !== 'GET';
  if (wantsApi) {
    done(new AppError(ResultCode.SessionInvalid, 'tenants.disabled'));
    return;
  }
  const language = request.language;
  const title = translate(language, 'tenants.disabledTitle');
  const text = translate(language, 'tenants.disabled');
  void reply
    .code(403)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="${language}"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>` +
        '<style>body{font-family:system-ui,sans-serif;background:#f5f5f5;color:#333;display:flex;' +
        'align-items:center;justify-content:center;min-height:100vh;margin:0}main{background:#fff;' +
        'padding:40px 48px;border-radius:8px;box-shadow:0 2px 8px rgba(0,0,0,.08);max-width:480px}' +
        'h1{font-size:22px;margin:0 0 12px}p{margin:0;color:#666;line-height:1.6}</style></head>' +
        `<body><main><h1>${title}</h1><p>${text}</p></main></body></html>`,
    );
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Drops one tenant's cached hosts, or every one. */
    forgetTenant(code?: string): void;
  }
}
