import { type Language, ResultCode } from '@freight/contracts/api';
import {
  CARRIER_ACCOUNTS_PAGE,
  carrierAccountCreateBody,
  carrierAccountIdBody,
  carrierAccountListQuery,
  carrierAccountListView,
  carrierAccountUpdateBody,
  carrierAccountView,
  carrierConnectionTestView,
  carrierWebhookView,
} from '@freight/contracts/carriers';
import { okResponse } from '@freight/contracts/responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { runAsSystem } from '../../db/tenant-scope.ts';
import { AppError, badField, notFound } from '../../lib/errors.ts';
import { originOf } from '../../lib/origin.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import {
  carrierAccountKind,
  createCarrierAccount,
  deleteCarrierAccount,
  forgetCarrierSettings,
  listCarrierAccounts,
  registerKarrioWebhook,
  removeKarrioWebhook,
  resealCarrierCredentials,
  testCarrierAccount,
  updateCarrierAccount,
  useCarrierSettings,
} from './service.ts';
import { carrierSettingsOf } from './settings.ts';
import { KARRIO_SIGNATURE_HEADER, karrioWebhookPath, karrioWebhookSecret } from './tracking.ts';

const idView = z.object({ id: z.number().int() });

/**
 * Carrier accounts (`/carrierAccounts`): staff connect the tenant's accounts with carriers, test them
 * and take them away. Credentials go in and never come back out of any answer.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const config = app.config;
  const settings = carrierSettingsOf(config);
  useCarrierSettings(settings);
  app.addHook('onClose', async () => forgetCarrierSettings(settings));
  // A key rotation finishes as the server starts: rows sealed with an old key are sealed again.
  app.addHook('onReady', async () => {
    await runAsSystem(() => resealCarrierCredentials(db, settings.keys, app.log));
  });

  const page = { permission: CARRIER_ACCOUNTS_PAGE, labelScope: 'carrierAccount' } as const;
  const caller = (user: RequestUser, language: Language) => ({
    tenantId: user.tenantId,
    id: user.id,
    language,
  });
  const tags = ['carriers'];

  app.post(
    '/admin/carrierAccount/list',
    {
      config: page,
      schema: { tags, body: carrierAccountListQuery, response: { 200: okResponse(carrierAccountListView) } },
    },
    async (request) => listCarrierAccounts(db, caller(currentUser(request), request.language), request.body),
  );

  app.post(
    '/admin/carrierAccount/create',
    {
      config: { ...page, permission: 'carrier:save', audit: 'carrierAccount.create' },
      schema: { tags, body: carrierAccountCreateBody, response: { 200: okResponse(carrierAccountView) } },
    },
    async (request, reply) => {
      const created = await createCarrierAccount(
        db,
        settings,
        caller(currentUser(request), request.language),
        request.body,
      );
      request.auditTarget = `carrierAccount:${created.id}`;
      reply.messageKey = 'carrierAccount.created';
      return created;
    },
  );

  app.post(
    '/admin/carrierAccount/update',
    {
      config: { ...page, permission: 'carrier:save', audit: 'carrierAccount.update' },
      schema: { tags, body: carrierAccountUpdateBody, response: { 200: okResponse(carrierAccountView) } },
    },
    async (request, reply) => {
      request.auditTarget = `carrierAccount:${request.body.id}`;
      const saved = await updateCarrierAccount(
        db,
        settings,
        caller(currentUser(request), request.language),
        request.body,
      );
      reply.messageKey = 'carrierAccount.saved';
      return saved;
    },
  );

  app.post(
    '/admin/carrierAccount/delete',
    {
      config: { ...page, permission: 'carrier:delete', audit: 'carrierAccount.delete' },
      schema: { tags, body: carrierAccountIdBody, response: { 200: okResponse(idView) } },
    },
    async (request, reply) => {
      request.auditTarget = `carrierAccount:${request.body.id}`;
      const deleted = await deleteCarrierAccount(
        db,
        caller(currentUser(request), request.language),
        request.body.id,
      );
      reply.messageKey = 'carrierAccount.deleted';
      return { id: deleted.id };
    },
  );

  app.post(
    '/admin/carrierAccount/test',
    {
      config: { ...page, permission: 'carrier:test', audit: 'carrierAccount.test' },
      schema: { tags, body: carrierAccountIdBody, response: { 200: okResponse(carrierConnectionTestView) } },
    },
    async (request) => {
      request.auditTarget = `carrierAccount:${request.body.id}`;
      return testCarrierAccount(
        db,
        settings,
        caller(currentUser(request), request.language),
        request.body.id,
      );
    },
  );

  app.post(
    '/admin/carrierAccount/webhook',
    {
      config: { ...page, permission: 'carrier:save', audit: 'carrierAccount.webhook' },
      schema: { tags, body: carrierAccountIdBody, response: { 200: okResponse(carrierWebhookView) } },
    },
    async (request) => {
      const { tenantId } = currentUser(request);
      const { id } = request.body;
      request.auditTarget = `carrierAccount:${id}`;
      const kind = await carrierAccountKind(db, tenantId, id);
      if (!kind) throw notFound();
      if (kind !== 'karrio') throw badField('id', 'carrierAccount.noWebhook');
      const secret = karrioWebhookSecret(settings.keys, tenantId, id);
      if (!secret) throw new AppError(ResultCode.Unavailable, 'carrier.keyMissing');
      return { path: karrioWebhookPath(id), header: KARRIO_SIGNATURE_HEADER, secret };
    },
  );

  // Subscribes the portal at the account's Karrio server, which then sends tracker events with the
  // secret it made (docs/carriers.md): the URL is this tenant's own host.
  app.post(
    '/admin/carrierAccount/registerWebhook',
    {
      config: { ...page, permission: 'carrier:save', audit: 'carrierAccount.registerWebhook' },
      schema: { tags, body: carrierAccountIdBody, response: { 200: okResponse(carrierAccountView) } },
    },
    async (request) => {
      const { id } = request.body;
      request.auditTarget = `carrierAccount:${id}`;
      const url = `${originOf(request)}${karrioWebhookPath(id)}`;
      return registerKarrioWebhook(db, settings, caller(currentUser(request), request.language), id, url);
    },
  );

  app.post(
    '/admin/carrierAccount/removeWebhook',
    {
      config: { ...page, permission: 'carrier:save', audit: 'carrierAccount.removeWebhook' },
      schema: { tags, body: carrierAccountIdBody, response: { 200: okResponse(carrierAccountView) } },
    },
    async (request) => {
      const { id } = request.body;
      request.auditTarget = `carrierAccount:${id}`;
      return removeKarrioWebhook(db, settings, caller(currentUser(request), request.language), id);
    },
  );
};

export default routes;
