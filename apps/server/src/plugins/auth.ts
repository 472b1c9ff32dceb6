import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, sessionInvalid } from '../lib/errors.ts';
import { findSession } from '../modules/auth/service.ts';
import { grantsForUser } from '../modules/roles/service.ts';
import { isPlatformTenant } from '../modules/site/service.ts';
import { languageOf } from './envelope.ts';

/**
 * Reads the session from the `accessToken` header and guards every route that is not `public`:
 * no live session gives code 300, a missing grant gives code 401 (SPEC section 8).
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  // The guard runs as the request arrives, before any body is read: a caller without a session learns
  // that first (code 300), whatever it sent, and an upload is never parsed for nobody.
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.probe) return;
    await readSession(app, request);
    const config = request.routeOptions.config;
    const url = request.routeOptions.url;
    // Only the API is guarded: the web app's files are public, and so is the API description, which
    // says what the calls are, never whose data. Unknown paths fall through to the 404 answer.
    if (config?.public || !url?.startsWith('/api/') || url.startsWith('/api/docs')) return;
    if (!request.user) throw sessionInvalid();
    const needed = config?.permission;
    if (!needed) return;
    const grants = request.user.grants;
    if (typeof needed === 'string' ? !grants.has(needed) : !needed.some((key) => grants.has(key)))
      throw forbidden();
  });
});

async function readSession(app: FastifyInstance, request: FastifyRequest) {
  const header = request.headers.accesstoken;
  const token = Array.isArray(header) ? header[0] : header;
  if (!token || token.length > 200) return;
  const session = await findSession(app.db, request.tenant.id, token);
  if (!session) return;
  const { user } = session;
  const grants = await grantsForUser(app.db, user.tenantId, user.id, isPlatformTenant(request.tenant));
  request.user = {
    id: user.id,
    tenantId: user.tenantId,
    email: user.email,
    name: user.name,
    company: user.company,
    identity: user.identity,
    organisationId: user.organisationId,
    locale: user.locale,
    roles: grants.roleCodes.length > 0 ? grants.roleCodes : [user.identity],
    grants: grants.keys,
    sessionHash: session.tokenHash,
  };
  request.language = languageOf(request);
}
