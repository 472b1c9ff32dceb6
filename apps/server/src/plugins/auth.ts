import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden, sessionInvalid } from '../lib/errors.ts';
import { findSession, type UserRow } from '../modules/auth/service.ts';
import { apiKeyHeaders, authenticateApiKey } from '../modules/integrations/key-auth.ts';
import { grantsForUser } from '../modules/roles/service.ts';
import { isPlatformTenant } from '../modules/site/service.ts';
import { requestUserOf } from './context.ts';
import { languageOf } from './envelope.ts';

/**
 * Reads the session from the `accessToken` header (or an API key from `apiId` and `userKey`) and
 * guards every route that is not `public`: no live session gives code 300, a missing grant gives
 * code 401 (SPEC section 8).
 */
export const authPlugin = fp(async (app: FastifyInstance) => {
  // The guard runs as the request arrives, before any body is read: a caller without a session learns
  // that first (code 300), whatever it sent, and an upload is never parsed for nobody.
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.probe) return;
    const config = request.routeOptions.config;
    const url = request.routeOptions.url;
    // Only the API is guarded (under /api, and the integration calls under /shipment): the web app's
    // files are public, and so is the API description, which says what the calls are, never whose
    // data. Unknown paths fall through to the 404 answer.
    const guarded =
      !!url && (url.startsWith('/api/') || url.startsWith('/shipment/')) && !url.startsWith('/api/docs');
    // A call that carries a key is judged by the key alone: a session sent with it does not count.
    const key = guarded ? apiKeyHeaders(request) : null;
    if (key) {
      const found = await authenticateApiKey(app.db, request, key, app.config.RATE_LIMIT_SCALE);
      await signIn(app, request, found.user, '');
    } else {
      await readSession(app, request);
      if (guarded && config?.apiKeyOnly) throw sessionInvalid('apiKey.required');
    }
    if (config?.public || !guarded) return;
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
  await signIn(app, request, session.user, session.tokenHash);
}

/** The request acts as this user, with the user's grants. */
async function signIn(app: FastifyInstance, request: FastifyRequest, user: UserRow, sessionHash: string) {
  const grants = await grantsForUser(app.db, user.tenantId, user.id, isPlatformTenant(request.tenant));
  request.user = requestUserOf(user, grants, sessionHash);
  request.language = languageOf(request);
}
