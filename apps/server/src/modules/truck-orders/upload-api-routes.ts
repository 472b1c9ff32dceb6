import { ResultCode } from '@freight/contracts/api';
import { uploadApiView } from '@freight/contracts/integrations';
import { okResponse } from '@freight/contracts/responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.ts';
import { formId, readUploadedForm } from '../../lib/multipart.ts';
import { currentUser } from '../../plugins/context.ts';
import { bookBatch } from './batch.ts';

/** The pages that may book a truck batch in the portal: a key's user needs one of them too. */
const BATCH_PAGES = ['/mail', '/orderList', '/quoteList'];
const MAX_FILE_BYTES = 20 * 1024 * 1024;

/**
 * `POST /shipment/uploadapi` (SPEC section 7: base /shipment, api id and user key headers): an external
 * system sends an order file in the truck batch template, as multipart `file` (with `address_id` for
 * a pickup from the address book and, for a staff member's key, `organisationId`). Every row is checked
 * and booked as an unpaid order in one transaction, or none is: exactly the portal's batch import.
 * It lives with the truck orders: it is their batch import, reached with an API key instead of a session.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  app.post(
    '/uploadapi',
    {
      config: { permission: BATCH_PAGES, apiKey: 'upload', apiKeyOnly: true, audit: 'order.uploadApi' },
      schema: { tags: ['integrations'], response: { 200: okResponse(uploadApiView) } },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { bytes, fields } = await readUploadedForm(request, MAX_FILE_BYTES);
      try {
        const outcome = await bookBatch(db, {
          caller: me,
          language: request.language,
          organisationId: formId(fields, 'organisationId'),
          pickupAddressId: formId(fields, 'address_id', 'addressId') ?? 0,
          bytes,
          commit: true,
        });
        const orders = outcome.orders ?? [];
        request.auditTarget = `orders:${orders.length}`;
        reply.messageKey = 'batch.imported';
        reply.messageParams = { count: outcome.ok };
        return { rows: outcome.rows, orders };
      } catch (error) {
        // A file with bad rows answers the same shape as a good one: each row's message, no orders.
        if (error instanceof AppError && error.key === 'batch.rowsFailed' && error.data)
          throw new AppError(ResultCode.BadInput, error.key, error.params, undefined, {
            rows: error.data,
            orders: [],
          });
        throw error;
      }
    },
  );
};

export default routes;
