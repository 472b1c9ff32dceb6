import {
  WEBHOOKS_PAGE,
  webhookCreateBody,
  webhookCreatedView,
  webhookDeliveryListQuery,
  webhookDeliveryListView,
  webhookIdBody,
  webhookListQuery,
  webhookListView,
  webhookUpdateBody,
  webhookView,
} from '@freight/contracts/integrations';
import { okResponse } from '@freight/contracts/responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/context.ts';
import { deliveryErrorText } from './delivery-errors.ts';
import {
  createWebhookFor,
  type DeliveryJob,
  deleteWebhookFor,
  deliverInTurn,
  listDeliveriesFor,
  listWebhooksFor,
  pingWebhookFor,
  redeliverWebhookFor,
  rotateWebhookSecretFor,
  updateWebhookFor,
  useWebhookSender,
  WEBHOOK_QUEUE,
} from './webhooks.ts';

const idView = z.object({ id: z.number().int() });

/**
 * Webhooks (`/webhooks`): an organisation's endpoints hear of its orders' and waybills' status changes
 * as signed POSTs from the job queue; staff endpoints hear of the whole tenant's. Others' are not found.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const page = { permission: WEBHOOKS_PAGE, labelScope: 'webhook' } as const;
  // Loopback and private addresses only outside production unless configured (docs/decisions.md).
  const allowPrivate = app.config.WEBHOOK_ALLOW_PRIVATE ?? app.config.NODE_ENV !== 'production';
  const retrySeconds = app.config.WEBHOOK_RETRY_SECONDS;

  useWebhookSender(app.jobs, app.config);
  app.addHook('onClose', async () => useWebhookSender(null));
  // Enough workers that one slow receiver (one at a time, five seconds a try) leaves the rest free.
  app.jobs.work<DeliveryJob>(WEBHOOK_QUEUE, (job) => deliverInTurn(db, job, { allowPrivate, retrySeconds }), {
    concurrency: 8,
  });

  app.post(
    '/admin/webhook/list',
    {
      config: page,
      schema: {
        tags: ['integrations'],
        body: webhookListQuery,
        response: { 200: okResponse(webhookListView) },
      },
    },
    async (request) => listWebhooksFor(db, currentUser(request), request.body),
  );

  app.post(
    '/admin/webhook/create',
    {
      config: { ...page, audit: 'webhook.create' },
      schema: {
        tags: ['integrations'],
        body: webhookCreateBody,
        response: { 200: okResponse(webhookCreatedView) },
      },
    },
    async (request, reply) => {
      const created = await createWebhookFor(db, currentUser(request), request.body, allowPrivate);
      request.auditTarget = `webhook:${created.id}`;
      reply.messageKey = 'webhook.created';
      // The one answer that holds the secret: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return created;
    },
  );

  app.post(
    '/admin/webhook/update',
    {
      config: { ...page, audit: 'webhook.update' },
      schema: { tags: ['integrations'], body: webhookUpdateBody, response: { 200: okResponse(webhookView) } },
    },
    async (request, reply) => {
      const updated = await updateWebhookFor(db, currentUser(request), request.body, allowPrivate);
      request.auditTarget = `webhook:${updated.id}`;
      reply.messageKey = 'webhook.updated';
      return updated;
    },
  );

  app.post(
    '/admin/webhook/rotateSecret',
    {
      config: { ...page, audit: 'webhook.rotate' },
      schema: {
        tags: ['integrations'],
        body: webhookIdBody,
        response: { 200: okResponse(webhookCreatedView) },
      },
    },
    async (request, reply) => {
      const rotated = await rotateWebhookSecretFor(db, currentUser(request), request.body.id);
      request.auditTarget = `webhook:${rotated.id}`;
      reply.messageKey = 'webhook.secretRotated';
      // The one other answer that holds the secret: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return rotated;
    },
  );

  app.post(
    '/admin/webhook/delete',
    {
      config: { ...page, audit: 'webhook.delete' },
      schema: { tags: ['integrations'], body: webhookIdBody, response: { 200: okResponse(idView) } },
    },
    async (request, reply) => {
      const deleted = await deleteWebhookFor(db, currentUser(request), request.body.id);
      request.auditTarget = `webhook:${deleted.id}`;
      reply.messageKey = 'webhook.deleted';
      return deleted;
    },
  );

  app.post(
    '/admin/webhook/test',
    {
      config: { ...page, audit: 'webhook.test' },
      schema: { tags: ['integrations'], body: webhookIdBody, response: { 200: okResponse(idView) } },
    },
    async (request, reply) => {
      reply.messageKey = 'webhook.pingQueued';
      return pingWebhookFor(db, currentUser(request), request.body.id);
    },
  );

  app.post(
    '/admin/webhook/deliveries',
    {
      config: page,
      schema: {
        tags: ['integrations'],
        body: webhookDeliveryListQuery,
        response: { 200: okResponse(webhookDeliveryListView) },
      },
    },
    async (request) => {
      const page = await listDeliveriesFor(db, currentUser(request), request.body);
      // Why a delivery failed, in the reader's language (delivery-errors.ts).
      return {
        ...page,
        list: page.list.map((d) => ({ ...d, lastError: deliveryErrorText(d.lastError, request.language) })),
      };
    },
  );

  app.post(
    '/admin/webhook/redeliver',
    {
      config: { ...page, audit: 'webhook.redeliver' },
      schema: { tags: ['integrations'], body: webhookIdBody, response: { 200: okResponse(idView) } },
    },
    async (request, reply) => {
      reply.messageKey = 'webhook.redeliverQueued';
      return redeliverWebhookFor(db, currentUser(request), request.body.id);
    },
  );
};

export default routes;
