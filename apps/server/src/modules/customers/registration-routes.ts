import {
  invitationCheckBody,
  invitationCheckView,
  type RegisterBody,
  registerBody,
  registeredView,
} from '@freight/contracts/auth';
import { okResponse } from '@freight/contracts/responses';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { routeLimit } from '../limits/plugin.ts';
import { LIMITS } from '../limits/service.ts';
import { checkInvitationCode, registerShipper } from './service.ts';

/**
 * A shipper's self-registration (SPEC section 2, "Registration"): the new user lands in the
 * organisation tree under whoever issued the invitation code, so the routes live with the
 * organisations; their paths stay under auth.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const open = { public: true } as const;

  // A yes or no only, never whose code it is; how often one client may ask is this route's limit.
  app.post(
    '/admin/auth/checkInvitation',
    {
      config: { ...open, rateLimit: routeLimit(app, LIMITS.invitationPerIp) },
      schema: {
        tags: ['auth'],
        body: invitationCheckBody,
        response: { 200: okResponse(invitationCheckView) },
      },
    },
    async (request, reply) => {
      const valid = await checkInvitationCode(app.db, {
        tenantId: request.tenant.id,
        code: request.body.invitationCode,
      });
      reply.messageKey = valid ? 'auth.invitationValid' : 'auth.invitationInvalid';
      return { valid };
    },
  );

  const registerHandler = async (request: FastifyRequest, body: RegisterBody) => {
    const tenantId = request.tenant.id;
    const user = await registerShipper(app.db, tenantId, body, request.language, {
      ip: request.ip,
      limitScale: app.config.RATE_LIMIT_SCALE,
    });
    request.auditTarget = `user:${user.id}`;
    return { id: user.id };
  };
  const registerRoute = {
    config: { ...open, audit: 'auth.register', rateLimit: routeLimit(app, LIMITS.registerPerIp, 'register') },
    schema: { tags: ['auth'], body: registerBody, response: { 200: okResponse(registeredView) } },
  };
  app.post('/admin/auth/register', registerRoute, async (request, reply) => {
    const result = await registerHandler(request, request.body);
    reply.messageKey = 'auth.registered';
    return result;
  });
  app.post('/register', registerRoute, async (request, reply) => {
    const result = await registerHandler(request, request.body);
    reply.messageKey = 'auth.registered';
    return result;
  });
};

export default routes;
