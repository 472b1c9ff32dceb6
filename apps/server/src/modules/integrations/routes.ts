import {
  API_KEYS_PAGE,
  apiKeyCreateBody,
  apiKeyCreatedView,
  apiKeyIdBody,
  apiKeyListQuery,
  apiKeyListView,
  apiKeyView,
} from '@freight/contracts/integrations';
import { okResponse } from '@freight/contracts/responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/context.ts';
import { createApiKeyFor, listApiKeysFor, revokeApiKeyFor } from './service.ts';

/**
 * API keys (`/apiKeys`): a user makes keys acting as itself for its organisation's systems, sees its
 * organisation's keys, and revokes them; staff see and revoke every key of the tenant. The calls
 * themselves never accept a key: a key cannot make or keep keys.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  app.post(
    '/admin/apiKey/list',
    {
      config: { permission: API_KEYS_PAGE },
      schema: {
        tags: ['integrations'],
        body: apiKeyListQuery,
        response: { 200: okResponse(apiKeyListView) },
      },
    },
    async (request) => listApiKeysFor(db, currentUser(request), request.body),
  );

  app.post(
    '/admin/apiKey/create',
    {
      config: { permission: API_KEYS_PAGE, audit: 'apiKey.create' },
      schema: {
        tags: ['integrations'],
        body: apiKeyCreateBody,
        response: { 200: okResponse(apiKeyCreatedView) },
      },
    },
    async (request, reply) => {
      const created = await createApiKeyFor(db, currentUser(request), request.body);
      request.auditTarget = `apiKey:${created.prefix}`;
      reply.messageKey = 'apiKey.created';
      // The one answer that holds a secret: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return created;
    },
  );

  app.post(
    '/admin/apiKey/revoke',
    {
      config: { permission: API_KEYS_PAGE, audit: 'apiKey.revoke' },
      schema: { tags: ['integrations'], body: apiKeyIdBody, response: { 200: okResponse(apiKeyView) } },
    },
    async (request, reply) => {
      const revoked = await revokeApiKeyFor(db, currentUser(request), request.body.id);
      request.auditTarget = `apiKey:${revoked.prefix}`;
      reply.messageKey = 'apiKey.revoked';
      return revoked;
    },
  );
};

export default routes;
